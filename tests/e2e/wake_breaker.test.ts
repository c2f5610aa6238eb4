/**
 * The wake breaker end to end (docs/operating.md#the-wake-breaker): with a cap of 2 wakes
 * per 60 s window the third wake of a burst self-declines — `outcome=declined`, no model call,
 * nothing posted — and logs `Wake breaker TRIPPED` once; further wakes inside the burst decline
 * silently; once the burst has left the window and the cooldown has passed, a wake logs
 * `Wake breaker RESET` and proceeds.
 */
import assert from "node:assert/strict";
import { agentPosts, say, scriptReply, world } from "./wake_support.ts";

const BURST = {
  HARNESS_WAKE_BREAKER_MAX: "2",
  HARNESS_WAKE_BREAKER_WINDOW: "60",
  HARNESS_WAKE_BREAKER_COOLDOWN: "1",
};

const TRIPPED = /Wake breaker TRIPPED for timeline /g;
const RESET = /Wake breaker RESET for timeline /g;

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

Deno.test("the 3rd wake of a burst declines, trips once, and resets after cooldown", async () => {
  await using w = await world();
  const t = w.timeline;
  const declined = new RegExp(`wake end timeline=${t} outcome=declined turns=0 .*posted=0`);

  // Wakes 1 and 2 are within the cap and proceed.
  await say(w, "first");
  scriptReply(w.model, "one");
  const first = await w.wake([], BURST);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /outcome=ok/);
  const second = await w.wake([], BURST);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /outcome=ok/);
  assert.deepEqual(await agentPosts(w), ["one"]);
  const calls = w.model.hits("chat");

  // Wake 3 declines with work waiting: no model call, nothing posted, TRIPPED logged once.
  await say(w, "second");
  scriptReply(w.model, "two");
  const third = await w.wake([], BURST);
  assert.equal(third.code, 0, third.stderr);
  assert.match(third.stderr, declined);
  assert.equal(count(third.stderr, TRIPPED), 1);
  assert.match(third.stderr, new RegExp(`Wake breaker TRIPPED for timeline ${t}: 3 wakes within`));

  // Further wakes inside the burst decline without logging TRIPPED again (even past the
  // cooldown: the burst is still in the window).
  const later = [];
  for (let i = 0; i < 2; i++) later.push(await w.wake([], BURST));
  for (const run of later) {
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, declined);
    assert.equal(count(run.stderr, TRIPPED), 0);
    assert.equal(count(run.stderr, RESET), 0);
  }
  assert.equal(w.model.hits("chat"), calls);
  assert.deepEqual(await agentPosts(w), ["one"]);

  // After the cooldown with the burst gone from a 1 s window: RESET, and the wake proceeds.
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const after = await w.wake([], {
    ...BURST,
    HARNESS_WAKE_BREAKER_WINDOW: "1",
    HARNESS_WAKE_BREAKER_COOLDOWN: "1",
  });
  assert.equal(after.code, 0, after.stderr);
  assert.equal(count(after.stderr, RESET), 1);
  assert.match(after.stderr, new RegExp(`Wake breaker RESET for timeline ${t}`));
  assert.equal(count(after.stderr, TRIPPED), 0);
  assert.match(after.stderr, new RegExp(`wake end timeline=${t} outcome=ok turns=1 .*posted=1`));
  assert.ok(w.model.hits("chat") > calls);
  assert.deepEqual(await agentPosts(w), ["two", "one"]);
});
