/**
 * The breaker's policy in the wake (docs/operating.md#the-wake-breaker): who counts as a human,
 * when a message batch carries a human's word, and that a wake takes its verdict once. The
 * counting against real breaker files, through triage, is in triage.test.ts; end to end in
 * tests/e2e/wake_breaker.test.ts.
 */
import assert from "node:assert/strict";
import type { BreakerVerdict } from "../../lib/home/breaker.ts";
import { BreakerGate, carriesHuman, humanAuthored } from "../../lib/wake/breaker_gate.ts";

const SELF = "self-uuid";

Deno.test("only an author the platform calls human is human; an AI, a null or no author is not", () => {
  assert.equal(humanAuthored({ kind: "human" }), true);
  assert.equal(humanAuthored({ kind: "ai" }), false);
  assert.equal(humanAuthored({ kind: null }), false);
  assert.equal(humanAuthored({ kind: "Human" }), false); // the platform's word, exactly
  assert.equal(humanAuthored(undefined), false); // a webhook delivery has no author
  assert.equal(humanAuthored(null), false);
});

Deno.test("a batch carries a human's word when a human other than the agent wrote one message", () => {
  const msg = (uuid: string, kind: string) => ({ user: { uuid, kind } });
  assert.equal(carriesHuman([msg("ai-1", "ai"), msg("bob", "human")], SELF), true);
  assert.equal(carriesHuman([msg("ai-1", "ai"), msg("ai-2", "ai")], SELF), false);
  assert.equal(carriesHuman([], SELF), false);
  // The agent's own posts never make a batch human, whatever its account says.
  assert.equal(carriesHuman([msg(SELF, "human"), msg("ai-1", "ai")], SELF), false);
});

Deno.test("a wake takes its verdict once and counts every item it holds back", async () => {
  const checks: BreakerVerdict[] = [];
  const check = (verdict: BreakerVerdict) => () => {
    checks.push(verdict);
    return Promise.resolve(verdict);
  };
  const open = new BreakerGate();
  assert.equal(open.counted, false);
  assert.equal(await open.allows(check("proceed")), true);
  assert.equal(await open.allows(check("declined")), true); // the first verdict stands
  assert.deepEqual(checks, ["proceed"]);
  assert.equal(open.counted, true);
  assert.equal(open.declined, 0);

  const shut = new BreakerGate();
  const [a, b] = await Promise.all([shut.allows(check("declined")), shut.allows(check("proceed"))]);
  assert.deepEqual([a, b], [false, false]); // asked together, still one verdict
  assert.deepEqual(checks, ["proceed", "declined"]);
  assert.equal(shut.declined, 2);
});
