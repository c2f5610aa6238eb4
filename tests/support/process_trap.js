// Preloaded (deno run --preload) by tests that assert a wake never boots Deno's Node layer:
// prints one line to stderr the first time anything reads the lazy `process` global.
const descriptor = Object.getOwnPropertyDescriptor(globalThis, "process");
let reported = false;
Object.defineProperty(globalThis, "process", {
  configurable: true,
  enumerable: descriptor.enumerable,
  get() {
    if (!reported) {
      reported = true;
      console.error(`process global touched\n${new Error().stack}`);
    }
    return descriptor.get.call(this);
  },
  set(value) {
    descriptor.set.call(this, value);
  },
});
