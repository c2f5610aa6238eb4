import assert from "node:assert/strict";
import { concatBytes } from "../../lib/base/bytes.ts";

Deno.test("concatBytes joins the parts in order into a new buffer", () => {
  const a = new Uint8Array([1, 2]);
  const b = new Uint8Array([3]);
  const joined = concatBytes([a, new Uint8Array(0), b, a.subarray(1)]);
  assert.deepEqual([...joined], [1, 2, 3, 2]);
  joined[0] = 9;
  assert.equal(a[0], 1, "a copy, not a view of a part");
  assert.deepEqual([...concatBytes([])], []);
});
