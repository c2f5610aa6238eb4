/**
 * Two agents that always answer each other, both woken by the router twin with every rule on
 * (docs/sandbox.md#the-router-twin) — each the harness from source with the production permission
 * set, argv `--timeline` only, its own HARNESS_HOME — are stopped by the harness's wake breaker
 * (docs/operating.md#the-wake-breaker) within its cap. The harness's cap is set below the
 * router's own rate caps (15 wakes per agent and timeline a minute), so it is the harness, not
 * the router, that ends the loop: no delivery is refused by the router.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { aiPeer, alwaysAnswer, breakerStamps } from "./wake_peers.ts";
import { assertCleanHistory, fleetWorld, settled } from "./routed_support.ts";
import { claimOf, mark, say, type World } from "./wake_support.ts";

const MAX = 3;

/** Posts on the world's timeline by one author, newest first. */
async function postsBy(w: World, author: string): Promise<string[]> {
  const all = await w.peer.client.messages.list({ timeline: w.timeline }).toArray();
  return all.filter((m) => m.user.uuid === author).map((m) => m.content.body);
}

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

Deno.test("two agents that always answer each other are stopped by the harness breaker within its cap", async () => {
  await using w = await fleetWorld({
    env: {
      HARNESS_WAKE_BREAKER_MAX: String(MAX),
      // A window far from the clock: a slow machine never lets it slide during the test.
      HARNESS_WAKE_BREAKER_WINDOW: "3600",
      HARNESS_WAKE_BREAKER_COOLDOWN: "3600",
      HARNESS_PACE_ENABLED: "0", // an AI's message is answered at once, not after reading time
    },
  });
  assert.ok(MAX + 1 < w.sandbox.router!.rules.rateCaps!.timeline);
  alwaysAnswer(w.model);
  // cyd is woken by the twin too, in its own home beside ada's.
  const cyd = await aiPeer(w, "cyd");
  const cydHome = `${dirname(w.home)}/cyd`;
  await say(w, "@ada hello from cyd, what are you up to?", cyd);
  await settled(w);

  const stderrOf = (handle: string) =>
    w.history().filter((r) => r.handle === handle)
      .flatMap((r) => r.attempts.map((a) => a.output ?? "")).join("");
  const ada = stderrOf("ada");
  const tripped = /WARNING Wake breaker TRIPPED for timeline /g;
  // ada engaged cyd's opener and MAX answers, then its next counted wake tripped and declined.
  assert.equal(count(ada, tripped), 1);
  assert.match(
    ada,
    new RegExp(
      `Wake breaker TRIPPED for timeline ${w.timeline}: ${MAX + 1} wakes within 3600\\.0s ` +
        `exceeds the cap of ${MAX}\\.`,
    ),
  );
  assert.match(ada, /wake end timeline=\S+ outcome=declined turns=0 .*posted=0/);
  assert.equal(count(stderrOf("cyd"), tripped), 0);
  assert.equal((await postsBy(w, w.agent.uuid)).length, MAX);
  assert.equal((await postsBy(w, cyd.uuid)).length, MAX + 1); // its opener and MAX answers
  // Every counted wake stamps the window, a declined one too: the tripping wake, and any later
  // delivery (ada's own post coming back, say) that finds cyd's held answer still pending —
  // how many such deliveries run before the router settles depends on timing, each declines.
  const adaStamps = await breakerStamps(w.home, w.timeline);
  assert.ok(adaStamps >= MAX + 1, `ada stamped ${adaStamps}`);
  assert.equal(count(ada, /outcome=declined/g), adaStamps - MAX);
  assert.equal(await breakerStamps(cydHome, w.timeline), MAX);
  // cyd's last answer is held back by ada's breaker, not lost: unclaimed, behind ada's mark.
  const [held] = await w.peer.client.messages.list({ timeline: w.timeline, limit: 1 }).toArray();
  assert.equal(held.user.uuid, cyd.uuid);
  assert.equal(await claimOf(w, "messages", held.content.uuid), undefined);
  assert.notEqual(await mark(w, "messages"), held.content.uuid);
  // The router refused nothing and no wake failed: the harness ended the loop.
  assertCleanHistory(w, true);
  const wakes = w.wakes();
  for (const handle of ["ada", "cyd"]) {
    const n = wakes.filter((r) => r.handle === handle).length;
    assert.ok(n <= w.sandbox.router!.rules.rateCaps!.timeline, `${handle} woke ${n} times`);
  }
});
