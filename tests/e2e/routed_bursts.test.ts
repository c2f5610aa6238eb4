/**
 * Bursts of human messages through the router twin with every rule on
 * (docs/sandbox.md#the-router-twin), coalescing included: the harness from source with the
 * production permission set, woken with argv `--timeline` only, a scripted model that names the
 * messages each reply answers.
 *
 * - 5 messages in one second: the router collapses the deliveries of the messages created after
 *   the first wake started (coalesced, "covered" by it), and that wake answers them anyway — it
 *   reads past its start second (docs/operating.md#catch-up-before-exit). Every message reaches
 *   the model once and is answered by exactly one reply.
 * - 3 humans, 30 messages, posted round after round while the agent's wakes run, and the agent's
 *   own replies delivered back: when the router settles after the last post, every message has
 *   been answered once, no later event needed; the breaker declined nothing.
 */
import assert from "node:assert/strict";
import type { PlatformClient } from "../../lib/platform/mod.ts";
import {
  answerTags,
  assertAnsweredOnce,
  assertCleanHistory,
  fleetWorld,
  seatHuman,
  settled,
} from "./routed_support.ts";
import { claimOf, type RoutedWorld, say, waitFor } from "./wake_support.ts";

/**
 * Bursts are tried up to this many times (a fresh world each) until one shows a message that the
 * covering wake could only have found by reading again after its start second.
 */
const BURST_ATTEMPTS = 2;
/** Posts after the first wake's listing must be on their way this long before the second ends. */
const MARGIN_MS = 250;

/** The agent has spoken once, so a wake answers everything after its own last post. */
async function greeted(w: RoutedWorld): Promise<void> {
  await say(w, "hello tag-h0");
  await settled(w);
}

/** The sandbox's answered `GET /messages` listings (only the agent's wakes list here). */
function listings(w: RoutedWorld): number {
  return w.sandbox.requests.filter((r) => r.method === "GET" && r.path === "/messages").length;
}

/** What one burst showed. */
interface Burst {
  /** The burst's tags and message uuids, in posting order. */
  readonly tags: string[];
  readonly uuids: string[];
  /** The messages posted after the first wake's first listing had been answered. */
  readonly afterListing: Set<string>;
}

/**
 * Posts 5 messages within one second: the first at the top of a second, the second right after
 * it, the other three as soon as the wake the first started has answered its first listing (or
 * 750 ms into the second, whichever is first). All five are created after that wake started;
 * when the machine starts the wake quickly, the last three also after it first read the timeline.
 */
async function burst(w: RoutedWorld, n: number): Promise<Burst> {
  const second = Math.floor(Date.now() / 1000);
  await waitFor("the next whole second", () => Math.floor(Date.now() / 1000) > second, 5_000);
  const top = Math.floor(Date.now() / 1000) * 1000;
  const known = listings(w);
  const tags = [1, 2, 3, 4, 5].map((i) => `tag-b${n}x${i}`);
  const uuids = [(await say(w, `question ${tags[0]}`)).content.uuid];
  uuids.push((await say(w, `and ${tags[1]}`)).content.uuid);
  const deadline = top + 1000 - MARGIN_MS;
  await waitFor(
    "the first wake's listing, or the end of the burst's second",
    () => listings(w) > known || Date.now() >= deadline,
    5_000,
  );
  const listed = listings(w) > known && Date.now() < deadline;
  const afterListing = new Set<string>();
  for (const tag of tags.slice(2)) {
    const m = await say(w, `and ${tag}`);
    uuids.push(m.content.uuid);
    if (listed) afterListing.add(m.content.uuid);
  }
  return { tags, uuids, afterListing };
}

Deno.test("a burst of 5 human messages in 1 s is answered completely, once, though the router coalesced it", async () => {
  const seen: string[] = [];
  for (let attempt = 1; attempt <= BURST_ATTEMPTS; attempt++) {
    await using w = await fleetWorld();
    answerTags(w.model);
    await greeted(w);
    const { tags, uuids, afterListing } = await burst(w, attempt);
    await settled(w);

    // Complete and exactly once, whatever the router did with the deliveries.
    await assertAnsweredOnce(w, ["tag-h0", ...tags]);
    for (const uuid of uuids) {
      assert.equal((await claimOf(w, "messages", uuid))?.phase, "done", uuid);
    }
    assertCleanHistory(w);

    // The deliveries the router collapsed as covered by the wake the first message started,
    // although their messages did not exist when that wake started. No wake ran for them: that
    // wake answered them.
    const firstWake = w.history().find((r) => r.item === uuids[0])!;
    assert.equal(firstWake.outcome, "woke");
    const coalesced = w.history().filter((r) =>
      uuids.includes(r.item) && r.outcome === "coalesced" &&
      r.detail?.startsWith(`covered by ${firstWake.delivery},`)
    );
    const ranFor = new Set(w.wakes().map((r) => r.item));
    for (const r of coalesced) {
      assert.ok(Date.parse(r.occurredAt) >= Date.parse(firstWake.startedAt), r.occurredAt);
      assert.ok(!ranFor.has(r.item));
    }
    // Created after that wake's first listing, too: only reading again after its start second
    // (the catch-up) could have found them.
    const late = coalesced.filter((r) => afterListing.has(r.item)).length;
    seen.push(`burst ${attempt}: ${coalesced.length} of 4 coalesced, ${late} after the listing`);
    if (late > 0) return console.log(seen.join("\n"));
  }
  console.log(seen.join("\n"));
  // A wake that starts slowly first reads the timeline after its start second has passed, and
  // then nothing the router counts as covered can be missed; the catch-up itself is proved in
  // wake_catch_up.test.ts. The router must still have coalesced.
  assert.ok(
    seen.some((line) => !line.includes(": 0 of 4")),
    `the router never coalesced a delivery:\n${seen.join("\n")}`,
  );
});

Deno.test("3 humans posting 30 messages, and the agent's own posts delivered back, are all answered when the router settles", async () => {
  await using w = await fleetWorld({ third: true });
  answerTags(w.model);
  await greeted(w);
  const dave = await seatHuman(w, "dave");
  const humans: { client: PlatformClient }[] = [w.peer, w.third!, dave];
  const startsOf = () => w.routerLines().filter((l) => l.startsWith("sandbox wake start")).length;

  // Five rounds of six messages (two per human, the three posting at once). Each next round is
  // posted as soon as a wake has started after the last one — while the agent is at work — or,
  // if the router counted everything as covered, once it is idle.
  const tags: string[] = [];
  const uuids: string[] = [];
  for (let round = 1; round <= 5; round++) {
    const starts = startsOf();
    const posted = await Promise.all(humans.map(async (who, h) => {
      const mine = [];
      for (let i = 1; i <= 2; i++) {
        const tag = `tag-r${round}h${h}m${i}`;
        mine.push({ tag, m: await say(w, `${tag}: a thought from me`, who) });
      }
      return mine;
    }));
    for (const { tag, m } of posted.flat()) {
      tags.push(tag);
      uuids.push(m.content.uuid);
    }
    let idle = false;
    w.settle().then(() => idle = true);
    await waitFor("a wake after the round, or an idle router", () => startsOf() > starts || idle);
  }
  await settled(w);

  assert.equal(tags.length, 30);
  await assertAnsweredOnce(w, ["tag-h0", ...tags]);
  for (const uuid of uuids) {
    assert.equal((await claimOf(w, "messages", uuid))?.phase, "done", uuid);
  }
  assertCleanHistory(w);
  // The agent's own replies were delivered back to it (a wake they started may well have found
  // new human messages; no reply ever answered an own post, as assertAnsweredOnce shows).
  const own = w.history().filter((r) => r.actor === w.agent.uuid);
  assert.ok(own.length >= 2, `only ${own.length} own posts delivered back`);
  const outcomes: Record<string, number> = {};
  for (const r of w.history()) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  console.log(`30 messages: deliveries ${JSON.stringify(outcomes)}`);
});
