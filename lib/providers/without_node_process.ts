/**
 * Runs `load` with Deno's `process` global out of sight.
 *
 * In Deno, `process` is a lazy global: the first touch boots the Node compatibility layer, some
 * 16–18 ms of a wake that otherwise never needs it. The openai SDK touches it twice while it loads
 * and constructs its client — to read its environment defaults (`OPENAI_LOG`,
 * `OPENAI_CUSTOM_HEADERS`, …), falling back to `Deno.env` when there is no `process`, and to borrow
 * `node:util`'s proxy detector for sizing buffered stream events, which it does without outside
 * Node. With the global hidden the SDK takes its Deno branch: the same variables from the same
 * environment. The global is put back exactly as it was, untouched, when `load` settles.
 *
 * The window spans `load`'s awaits; nothing else in a wake runs then (the first model call is
 * waiting on it), and Deno's own Node modules import `process` rather than read the global.
 */
export async function withoutNodeProcess<T>(load: () => Promise<T>): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "process");
  // Not a configurable accessor (another runtime, or already replaced): nothing to hide.
  if (!descriptor?.configurable || !descriptor.get) return await load();
  Object.defineProperty(globalThis, "process", {
    value: undefined,
    configurable: true,
    enumerable: descriptor.enumerable,
    writable: true,
  });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, "process", descriptor);
  }
}
