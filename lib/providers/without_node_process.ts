/**
 * Runs `run` with Deno's `process` global out of sight.
 *
 * In Deno, `process` is a lazy global: the first touch boots the Node compatibility layer, some
 * 16–18 ms of a wake that otherwise never needs it. The openai SDK touches it twice: when its
 * module loads (to borrow `node:util`'s proxy detector for sizing buffered stream events, which it
 * does without outside Node) and when a client is constructed (to read its environment defaults,
 * `OPENAI_LOG`, `OPENAI_CUSTOM_HEADERS`, …, which it reads from `Deno.env` when there is no
 * `process`). With the global hidden the SDK takes its Deno branch: the same variables from the
 * same environment. The global is put back exactly as it was, untouched, when `run` returns —
 * or, when it returns a promise, when that settles. Nothing else in a wake reads the global
 * meanwhile (Deno's own Node modules import `process`; they do not read the global).
 */
export function withoutNodeProcess<T>(run: () => T): T {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "process");
  // Not a configurable accessor (another runtime, or hidden already by an open window): as is.
  if (!descriptor?.configurable || !descriptor.get) return run();
  Object.defineProperty(globalThis, "process", {
    value: undefined,
    configurable: true,
    enumerable: descriptor.enumerable,
    writable: true,
  });
  const restore = () => Object.defineProperty(globalThis, "process", descriptor);
  let result: T;
  try {
    result = run();
  } catch (error) {
    restore();
    throw error;
  }
  if (result instanceof Promise) return result.finally(restore) as T;
  restore();
  return result;
}
