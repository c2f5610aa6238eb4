import assert from "node:assert/strict";
import { withoutNodeGlobals } from "../../lib/providers/without_node_globals.ts";

type Globals = { process?: unknown; Buffer?: unknown };
const NAMES = ["process", "Buffer"] as const;
const descriptors = () => NAMES.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));

function assertRestored(before: (PropertyDescriptor | undefined)[]): void {
  const after = descriptors();
  for (const [i, name] of NAMES.entries()) {
    assert.equal(after[i]?.get, before[i]?.get, `${name} getter`);
    assert.equal(after[i]?.set, before[i]?.set, `${name} setter`);
    assert.equal(after[i]?.enumerable, before[i]?.enumerable, `${name} enumerable`);
    assert.equal(after[i]?.configurable, before[i]?.configurable, `${name} configurable`);
  }
}

Deno.test("withoutNodeGlobals hides process and Buffer while loading, then restores them", async () => {
  const before = descriptors();
  for (const d of before) assert.ok(d?.get, "Deno's Node globals are lazy accessors");
  let seen: unknown[] = [];
  const result = await withoutNodeGlobals(async () => {
    await Promise.resolve();
    seen = [(globalThis as Globals).process, (globalThis as Globals).Buffer];
    return 42;
  });
  assert.equal(result, 42);
  assert.deepEqual(seen, [undefined, undefined]);
  assertRestored(before);
});

Deno.test("withoutNodeGlobals restores the globals when the load fails, and passes the error on", async () => {
  const before = descriptors();
  await assert.rejects(
    withoutNodeGlobals(() => Promise.reject(new Error("import failed"))),
    /import failed/,
  );
  assertRestored(before);
});

Deno.test("withoutNodeGlobals runs a synchronous build in the window and restores at once", () => {
  const before = descriptors();
  const seen = withoutNodeGlobals(() => (globalThis as Globals).process);
  assert.equal(seen, undefined);
  assertRestored(before);
  assert.throws(() =>
    withoutNodeGlobals(() => {
      throw new Error("constructor failed");
    }), /constructor failed/);
  assertRestored(before);
});

Deno.test("withoutNodeGlobals leaves a plain (non-accessor) global alone", async () => {
  const before = Object.getOwnPropertyDescriptor(globalThis, "process")!;
  const standIn = { env: {} };
  Object.defineProperty(globalThis, "process", { value: standIn, configurable: true });
  try {
    const seen = await withoutNodeGlobals(() =>
      Promise.resolve([(globalThis as Globals).process, (globalThis as Globals).Buffer])
    );
    assert.equal(seen[0], standIn);
    assert.equal(seen[1], undefined); // Buffer, still an accessor, was hidden
  } finally {
    Object.defineProperty(globalThis, "process", before);
  }
});
