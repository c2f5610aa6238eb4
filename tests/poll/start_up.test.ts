/**
 * Poll mode and replay use the wake's tone judge (lib/wake/tone_judge.ts) and load it lazily: it
 * and the judge's model call are on neither start-up module graph, so a process without a tone
 * check never reads them; with one configured they are loaded by name.
 */
import assert from "node:assert/strict";
import { LAZY_MODULES } from "../../lib/base/lazy_modules.ts";
import { staticGraph } from "../support/module_graph.ts";

const JUDGE = ["lib/wake/tone_judge.ts", "lib/providers/judge_call.ts"];

for (const entry of ["lib/poll/mod.ts", "lib/replay/mod.ts"]) {
  Deno.test(`${entry}: the tone judge is off the start-up graph`, async () => {
    const graph = await staticGraph(entry);
    assert.ok(graph.has("lib/gate/gate.ts"), "the scan must see the gate");
    assert.deepEqual(JUDGE.filter((module) => graph.has(module)), [], "loaded at start-up");
  });
}

Deno.test("the wake's tone judge is a lazy module", () => {
  assert.ok(LAZY_MODULES.includes("lib/wake/tone_judge.ts"));
});
