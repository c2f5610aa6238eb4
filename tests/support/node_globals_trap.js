// Preloaded (deno run --preload) by tests that assert a wake never boots Deno's Node layer:
// prints one line to stderr the first time anything reads the lazy `process` or `Buffer` global.
for (const name of ["process", "Buffer"]) {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
  let reported = false;
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: descriptor.enumerable,
    get() {
      if (!reported) {
        reported = true;
        console.error(`node global touched: ${name}\n${new Error().stack}`);
      }
      return descriptor.get.call(this);
    },
    set(value) {
      descriptor.set.call(this, value);
    },
  });
}
