import assert from "node:assert/strict";
import { withoutNodeProcess } from "../../lib/providers/without_node_process.ts";

Deno.test("withoutNodeProcess hides the process global while loading, then restores it as it was", async () => {
  const before = Object.getOwnPropertyDescriptor(globalThis, "process");
  assert.ok(before?.get, "Deno's process global is a lazy accessor");
  let seen: unknown = "not called";
  const result = await withoutNodeProcess(async () => {
    await Promise.resolve();
    seen = (globalThis as { process?: unknown }).process;
    return 42;
  });
  assert.equal(result, 42);
  assert.equal(seen, undefined);
  const after = Object.getOwnPropertyDescriptor(globalThis, "process");
  assert.equal(after?.get, before.get);
  assert.equal(after?.set, before.set);
  assert.equal(after?.enumerable, before.enumerable);
  assert.equal(after?.configurable, before.configurable);
});

Deno.test("withoutNodeProcess restores the global when the load fails, and passes the error on", async () => {
  const before = Object.getOwnPropertyDescriptor(globalThis, "process");
  await assert.rejects(
    withoutNodeProcess(() => Promise.reject(new Error("import failed"))),
    /import failed/,
  );
  assert.equal(Object.getOwnPropertyDescriptor(globalThis, "process")?.get, before?.get);
});

Deno.test("withoutNodeProcess leaves a plain (non-accessor) process value alone", async () => {
  const before = Object.getOwnPropertyDescriptor(globalThis, "process")!;
  const stand_in = { env: {} };
  Object.defineProperty(globalThis, "process", { value: stand_in, configurable: true });
  try {
    const seen = await withoutNodeProcess(() =>
      Promise.resolve((globalThis as { process?: unknown }).process)
    );
    assert.equal(seen, stand_in);
  } finally {
    Object.defineProperty(globalThis, "process", before);
  }
});

Deno.test("withoutNodeProcess runs a synchronous build in the window and restores at once", () => {
  const before = Object.getOwnPropertyDescriptor(globalThis, "process");
  const seen = withoutNodeProcess(() => (globalThis as { process?: unknown }).process);
  assert.equal(seen, undefined);
  assert.equal(Object.getOwnPropertyDescriptor(globalThis, "process")?.get, before?.get);
  assert.throws(() =>
    withoutNodeProcess(() => {
      throw new Error("constructor failed");
    }), /constructor failed/);
  assert.equal(Object.getOwnPropertyDescriptor(globalThis, "process")?.get, before?.get);
});
