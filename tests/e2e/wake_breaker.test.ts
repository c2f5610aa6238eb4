/**
 * The wake breaker end to end (docs/operating.md#the-wake-breaker), every wake the real CLI with
 * argv `--timeline` only, as a router runs it: the breaker stops an AI↔AI loop within its cap, but
 * a burst of human messages and the agent's own posts delivered back never count and are never
 * declined; a declined wake exits 0 and holds its items back unclaimed, and they are answered by
 * the next wake the breaker lets through — at once when a human speaks, otherwise after the
 * cooldown.
 */
import assert from "node:assert/strict";
import { aiPeer, alwaysAnswer, breakerStamps } from "./wake_peers.ts";
import {
  agentPosts,
  claimOf,
  mark,
  say,
  scriptReply,
  userTurnsSeen,
  type World,
  world,
} from "./wake_support.ts";

/** A cap far from the clock: a slow machine never lets the window slide during a test. */
function cap(max: number): Record<string, string> {
  return {
    HARNESS_WAKE_BREAKER_MAX: String(max),
    HARNESS_WAKE_BREAKER_WINDOW: "3600",
    HARNESS_WAKE_BREAKER_COOLDOWN: "3600",
    HARNESS_PACE_ENABLED: "0", // an AI peer's message is answered at once, not after reading time
  };
}

const TRIPPED = /WARNING Wake breaker TRIPPED for timeline /g;
const RESET = /WARNING Wake breaker RESET for timeline /g;

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

/** Posts on the world's timeline by one author, newest first. */
async function postsBy(w: World, author: string): Promise<string[]> {
  const all = await w.peer.client.messages.list({ timeline: w.timeline }).toArray();
  return all.filter((m) => m.user.uuid === author).map((m) => m.content.body);
}

Deno.test("two agents that always answer each other are stopped within the breaker's cap", async () => {
  await using w = await world();
  const MAX = 3;
  const env = cap(MAX);
  alwaysAnswer(w.model);
  const cyd = await aiPeer(w, "cyd");
  await say(w, "@ada hello from cyd, what are you up to?", cyd);
  // The router wakes each agent for every post (its own included); here they take turns, and
  // the loop ends when a round posts nothing.
  const logs: { ada: string[]; cyd: string[] } = { ada: [], cyd: [] };
  let rounds = 0;
  for (; rounds < 4 * MAX; rounds++) {
    const before = (await w.peer.client.messages.list({ timeline: w.timeline }).toArray()).length;
    const a = await w.wake([], env);
    assert.equal(a.code, 0, a.stderr);
    logs.ada.push(a.stderr);
    const c = await cyd.wake(env);
    assert.equal(c.code, 0, c.stderr);
    logs.cyd.push(c.stderr);
    const after = (await w.peer.client.messages.list({ timeline: w.timeline }).toArray()).length;
    if (after === before) break;
  }
  assert.ok(rounds < 4 * MAX, "the loop was never stopped");
  // Each agent engaged at most MAX turns on the other's messages, and ada stopped first.
  const adaPosts = await postsBy(w, w.agent.uuid);
  const cydPosts = await postsBy(w, cyd.uuid);
  assert.equal(adaPosts.length, MAX);
  assert.equal(cydPosts.length, MAX + 1); // its opener and MAX answers
  const adaLog = logs.ada.join("\n");
  assert.equal(count(adaLog, TRIPPED), 1);
  assert.match(
    adaLog,
    new RegExp(
      `Wake breaker TRIPPED for timeline ${w.timeline}: ${MAX + 1} wakes within 3600\\.0s ` +
        `exceeds the cap of ${MAX}\\.`,
    ),
  );
  assert.match(logs.ada.at(-1)!, /wake end timeline=\S+ outcome=declined turns=0 .*posted=0/);
  assert.equal(await breakerStamps(w.home, w.timeline), MAX + 1);
  // cyd's last answer is held back, not lost: unclaimed, and ada's mark stops before it.
  const [held] = await w.peer.client.messages.list({ timeline: w.timeline, limit: 1 }).toArray();
  assert.equal(held.user.uuid, cyd.uuid);
  assert.equal(await claimOf(w, "messages", held.content.uuid), undefined);
  assert.notEqual(await mark(w, "messages"), held.content.uuid);
});

Deno.test("a burst of human messages and the agent's own posts delivered back are never declined", async () => {
  await using w = await world({ third: true });
  const env = cap(2);
  alwaysAnswer(w.model);
  const humans = [w.peer, w.third!];
  // The agent has spoken before, so its first wake answers everything after its own last post.
  await say(w, "hello, I'm around", w.agent);
  let asked = 0;
  const wakes: string[] = [];
  const wake = async () => {
    const run = await w.wake([], env);
    assert.equal(run.code, 0, run.stderr);
    wakes.push(run.stderr);
  };
  // Three rounds: the humans post a burst, one wake per delivery (the later ones find what the
  // first already answered), then one wake per post of the agent's own, delivered back to it.
  for (let round = 0; round < 3; round++) {
    const posted = [];
    for (let i = 0; i < 4; i++) {
      posted.push(await say(w, `question ${++asked} for @ada`, humans[i % 2]));
    }
    const before = (await agentPosts(w)).length;
    for (let i = 0; i < posted.length; i++) await wake();
    const replies = (await agentPosts(w)).length - before;
    assert.ok(replies >= 1, `round ${round} was not answered`);
    for (let i = 0; i < replies; i++) await wake();
    for (const m of posted) {
      assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "done", m.content.body);
    }
  }
  const log = wakes.join("\n");
  assert.equal(count(log, TRIPPED), 0);
  assert.doesNotMatch(log, /outcome=declined/);
  assert.equal((log.match(/wake end .*outcome=ok/g) ?? []).length, wakes.length);
  // No wake counted: each either answered humans or found nothing new.
  assert.equal(await breakerStamps(w.home, w.timeline), 0);
  const [newest] = await w.peer.client.messages.list({ timeline: w.timeline, limit: 1 })
    .toArray();
  assert.equal(await mark(w, "messages"), newest.content.uuid);
});

Deno.test("a declined delivery exits 0 and is answered by the next wake the breaker lets through", async () => {
  await using w = await world({ third: true }); // not a 1-on-1: silence is not nudged
  const env = cap(1);
  const cyd = await aiPeer(w, "cyd");
  await say(w, "ping 1", cyd);
  scriptReply(w.model, "pong 1");
  const first = await w.wake([], env);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /outcome=ok turns=1 /);

  // The second AI-driven wake exceeds the cap of 1: declined, yet exit 0, nothing claimed.
  const ping2 = await say(w, "ping 2", cyd);
  const calls = w.model.hits("chat");
  const declined = await w.wake([], env);
  assert.equal(declined.code, 0, declined.stderr);
  assert.equal(count(declined.stderr, TRIPPED), 1);
  assert.match(declined.stderr, /wake end timeline=\S+ outcome=declined turns=0 .*posted=0/);
  assert.equal(w.model.hits("chat"), calls);
  assert.equal(await claimOf(w, "messages", ping2.content.uuid), undefined);
  assert.notEqual(await mark(w, "messages"), ping2.content.uuid);
  // Any later wake still holds it back while tripped (no second TRIPPED line).
  const again = await w.wake([], env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /outcome=declined/);
  assert.equal(count(again.stderr, TRIPPED), 0);
  assert.equal(w.model.hits("chat"), calls);

  // A human speaks: the breaker is still tripped, but that wake answers both in one turn.
  const question = await say(w, "ada, are you still there?");
  scriptReply(w.model, "Here, and pong 2.");
  const human = await w.wake([], env);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stderr, /outcome=ok turns=1 /);
  const turn = userTurnsSeen(w.model).at(-1)!.at(-1)!;
  assert.match(turn, /^\[\S+\] cyd: ping 2\n\[\S+\] bob: ada, are you still there\?$/);
  assert.equal((await claimOf(w, "messages", ping2.content.uuid))?.phase, "done");
  assert.equal(await mark(w, "messages"), question.content.uuid);

  // Otherwise the held item waits for the first wake after the cooldown (here: a window and
  // cooldown of 0, so that wake needs no waiting), which RESETs and answers it.
  const ping3 = await say(w, "ping 3", cyd);
  const held = await w.wake([], env);
  assert.match(held.stderr, /outcome=declined/);
  scriptReply(w.model, "pong 3");
  const after = await w.wake([], {
    ...env,
    HARNESS_WAKE_BREAKER_WINDOW: "0",
    HARNESS_WAKE_BREAKER_COOLDOWN: "0",
  });
  assert.equal(after.code, 0, after.stderr);
  assert.equal(count(after.stderr, RESET), 1);
  assert.match(after.stderr, /wake end timeline=\S+ outcome=ok turns=1 .*posted=1/);
  assert.equal((await claimOf(w, "messages", ping3.content.uuid))?.phase, "done");
  assert.deepEqual((await postsBy(w, w.agent.uuid)).slice(0, 3), [
    "pong 3",
    "Here, and pong 2.",
    "pong 1",
  ]);
});
