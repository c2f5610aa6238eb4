/**
 * Runs `run` with Deno's Node globals `process` and `Buffer` out of sight.
 *
 * In Deno both are lazy globals: the first touch of either boots the Node compatibility layer,
 * some 16–18 ms of a wake that otherwise never needs it. The openai SDK touches them while its
 * module loads and its client is constructed: to register `Buffer` among the intrinsics it trusts
 * and to borrow `node:util`'s proxy detector, both only for sizing buffered stream events, and to
 * read its environment defaults (`OPENAI_LOG`, `OPENAI_CUSTOM_HEADERS`, …). Without the globals
 * it takes its non-Node branches: the same variables, read from `Deno.env`. Each global is put
 * back exactly as it was, untouched, when `run` returns — or, when it returns a promise, when that
 * settles. The provider opens the window only inside its first model call, while the wake waits
 * on that call and runs nothing else — no memory provider, no tool — so no other code of the
 * wake's can find the globals missing (Deno's own Node modules import them rather than read them).
 */
const HIDDEN = ["process", "Buffer"] as const;

export function withoutNodeGlobals<T>(run: () => T): T {
  const hidden: [string, PropertyDescriptor][] = [];
  for (const name of HIDDEN) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    // Only a configurable accessor is hidden: another runtime, or a window already open, is
    // left as it is.
    if (!descriptor?.configurable || !descriptor.get) continue;
    Object.defineProperty(globalThis, name, {
      value: undefined,
      configurable: true,
      enumerable: descriptor.enumerable,
      writable: true,
    });
    hidden.push([name, descriptor]);
  }
  const restore = () => {
    for (const [name, descriptor] of hidden) Object.defineProperty(globalThis, name, descriptor);
  };
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
