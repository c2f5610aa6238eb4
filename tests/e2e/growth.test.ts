/**
 * Persisted transcript growth, a short run of `bench/growth_bench.ts`: three real wakes whose
 * first step reads a long message through the `messages` tool, at 1× and at 50× the output
 * (issue target: ≤ 6 KB per step, and the file does not move when the output grows 50×).
 */
import assert from "node:assert/strict";
import { measureGrowth, STEP_CAP_BYTES } from "../../bench/growth_bench.ts";

const WAKES = 3;
const CHARS = 6000;

Deno.test("growth: each step adds ≤ 6 KB to the transcript, and 50× the tool output adds no more", async () => {
  const one = await measureGrowth(WAKES, CHARS);
  const fifty = await measureGrowth(WAKES, CHARS * 50);
  // The signal is live: the model was shown the whole output, 50× longer in the second run.
  assert.ok(one.toolChars > CHARS && fifty.toolChars > CHARS * 50, `${one.toolChars}`);
  assert.equal(one.steps.length, WAKES * 3);
  assert.equal(fifty.steps.length, WAKES * 3);
  assert.ok(Math.max(...one.steps) <= STEP_CAP_BYTES, `1×: ${one.steps}`);
  assert.ok(Math.max(...fifty.steps) <= STEP_CAP_BYTES, `50×: ${fifty.steps}`);
  // The same bytes but for the elision marker's two numbers (cut and total), each two digits
  // longer at 50× (6077 → 300077): 4 bytes per capped result, one capped result per wake.
  const [a, b] = [one.fileBytes.at(-1)!, fifty.fileBytes.at(-1)!];
  assert.ok(b <= a + 4 * WAKES, `1×: ${a} B, 50×: ${b} B`);
});
