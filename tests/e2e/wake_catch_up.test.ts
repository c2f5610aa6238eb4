/**
 * Catch-up before exit (docs/operating.md#catch-up-before-exit), end to end: the real CLI with
 * argv `--timeline` only, as the router runs it, behind a tap that creates an item right after the
 * wake's first listing of its kind has been answered, while the wake's start second is still
 * running. A coalescing router would count that item as covered by this wake; the wake must
 * answer it before it exits — for each of the four kinds — and exactly once even when it is
 * killed inside the catch-up round. With `HARNESS_CATCH_UP=off` the same item is left for a later
 * event, which is what strands it behind a coalescing router.
 *
 * The scenario needs the wake's first listing to come back inside its start second, which a
 * process that takes most of a second to start (a loaded machine) rarely manages; so each wake is
 * told, as a launcher that starts the process ahead of the delivery would tell it, that it started
 * at the top of the second after next (`HARNESS_WAKE_STARTED_AT`), which leaves it two seconds or
 * more. On a machine so loaded that even that is too short, the attempt is repeated (its wake has
 * nothing new to do), never judged.
 */
import assert from "node:assert/strict";
import { idempotencyKey } from "../../lib/platform/mod.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { type PlatformTap, platformTap, type TappedRequest } from "./platform_tap.ts";
import {
  activatedTask,
  agentPosts,
  claimOf,
  deliver,
  type LiveWake,
  mark,
  messageCreateKeys,
  say,
  scriptReply,
  seenTasks,
  spawnWake,
  upload,
  userTurnsSeen,
  waitFor,
  type World,
  world,
} from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
/** How long before the end of the start second the item must be on its way. */
const MARGIN_MS = 300;
const ATTEMPTS = 10;
const HOLD = 30_000; // a model call held this long is always killed first

type Kind = "messages" | "assets" | "webhook_events" | "tasks";

/** A wake, and the item created just after its first listing inside its start second. */
interface LateItem {
  readonly live: LiveWake;
  /** The end of the second the wake was started in, epoch ms. */
  readonly boundary: number;
  /** The item's uuid and creation time. */
  readonly uuid: string;
  readonly createdAt: number;
}

/** Whether `r` is the listing a wake reads `kind` with. */
function listingOf(kind: Kind): (r: TappedRequest) => boolean {
  return (r) => r.method === "GET" && r.path === `/${kind}`;
}

/**
 * Starts `harness wake --timeline <t>` through the tap, its start second the one after next, and
 * creates an item of `kind` (with `create`) right after the wake's first `kind` listing is
 * answered — when that is still inside the wake's start second. Repeats while it is not (the wake
 * then has nothing to do and exits idle).
 */
async function wakeWithLateItem(
  w: World,
  tap: PlatformTap,
  kind: Kind,
  create: () => Promise<{ content: { uuid: string }; created_at: string }>,
  env: Record<string, string> = {},
): Promise<LateItem> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const startedAt = Math.floor(Date.now() / 1000) + 2; // whole seconds
    const boundary = (startedAt + 1) * 1000;
    let item: { content: { uuid: string }; created_at: string } | undefined;
    let decided = false;
    tap.afterNext(listingOf(kind), async () => {
      try {
        if (Date.now() < boundary - MARGIN_MS) item = await create();
      } finally {
        decided = true;
      }
    });
    const live = spawnWake(w, [], {
      BASECRADLE_BASE_URL: tap.baseUrl,
      HARNESS_WAKE_STARTED_AT: String(startedAt),
      ...env,
    });
    let exited = false;
    live.child.status.then(() => exited = true);
    // Until the first listing has been answered (or the wake is gone).
    await waitFor(`the wake's first ${kind} listing`, () => decided || exited, 60_000, live.stderr);
    if (item) {
      return { live, boundary, uuid: item.content.uuid, createdAt: Date.parse(item.created_at) };
    }
    const status = await live.child.status;
    await live.kill();
    assert.equal(status.code, 0, live.stderr());
    tap.requests.length = 0;
  }
  throw new Error(
    `in ${ATTEMPTS} tries the wake never listed ${kind} inside its start second: the machine is ` +
      "too slow for this scenario right now",
  );
}

/** Waits for a live wake to exit; returns its code and stderr. */
async function finished(live: LiveWake): Promise<{ code: number; stderr: string }> {
  const status = await live.child.status;
  await live.kill();
  return { code: status.code, stderr: live.stderr() };
}

/** A timeline where the agent has answered once: every later wake with nothing new is idle. */
async function answeredOnce(): Promise<World> {
  const w = await world();
  await say(w, "hello @ada");
  scriptReply(w.model, "Hello, Bob.");
  const first = await w.wake();
  assert.equal(first.code, 0, first.stderr);
  return w;
}

Deno.test({
  name: "an item of each kind created inside the wake's start second is answered by that wake",
  ...loose,
  async fn() {
    await using w = await answeredOnce();
    await using tap = platformTap(w.sandbox.baseUrl);
    const endpoint = await w.agent.client.webhookEndpoints.create(
      w.timeline,
      asUser("webhook_endpoint", {
        description: "hook",
      }),
    );
    const creators: Record<Kind, () => Promise<{ content: { uuid: string }; created_at: string }>> =
      {
        messages: () => say(w, "one more thing, @ada"),
        assets: () => upload(w, "late.txt"),
        webhook_events: () => deliver(w, '{"late":true}', endpoint.content.ingest_url),
        tasks: () => activatedTask(w, "the late chore"),
      };
    const seen: Record<Kind, string> = {
      messages: "one more thing",
      assets: "late.txt",
      webhook_events: "late",
      tasks: "the late chore",
    };
    const lateItems: Partial<Record<Kind, string>> = {};
    for (const kind of ["messages", "assets", "webhook_events", "tasks"] as const) {
      scriptReply(w.model, `Got the late ${kind}.`);
      tap.requests.length = 0;
      const late = await wakeWithLateItem(w, tap, kind, creators[kind]);
      lateItems[kind] = late.uuid;
      const result = await finished(late.live);
      assert.equal(result.code, 0, result.stderr);
      // The item belongs to the wake's start second: a coalescing router counts it as covered.
      assert.ok(
        late.createdAt < late.boundary,
        `${kind}: created ${late.createdAt - late.boundary}`,
      );
      // The first listing did not hold it; the last one came after the second had passed.
      const listings = tap.requests.filter(listingOf(kind));
      assert.ok(listings[0].at < late.boundary, `${kind}: first listing after the boundary`);
      assert.ok(listings.at(-1)!.at >= late.boundary, `${kind}: no listing after the boundary`);
      // And the same wake answered it, once.
      assert.match(result.stderr, /wake end timeline=\S+ outcome=ok turns=1 .*posted=1/, kind);
      assert.equal((await claimOf(w, kind, late.uuid))?.phase, "done", kind);
      assert.equal((await agentPosts(w))[0], `Got the late ${kind}.`);
      const turn = userTurnsSeen(w.model).at(-1)!.at(-1)!;
      assert.ok(turn.includes(seen[kind]), `${kind} was not the turn's item: ${turn}`);
    }
    assert.equal(await mark(w, "assets"), lateItems.assets);
    assert.equal(await mark(w, "webhook_events"), lateItems.webhook_events);
    assert.deepEqual(await seenTasks(w), [lateItems.tasks]);
    // Nothing is left: the next wake is idle.
    const calls = w.model.hits("chat");
    const idle = await w.wake();
    assert.match(idle.stderr, /turns=0 steps=0\/24 posted=0/);
    assert.equal(w.model.hits("chat"), calls);
    // The messages mark has moved on past the agent's own replies.
    const [newest] = await w.peer.client.messages.list({ timeline: w.timeline, limit: 1 })
      .toArray();
    assert.equal(await mark(w, "messages"), newest.content.uuid);
  },
});

Deno.test({
  name: "with HARNESS_CATCH_UP=off the same message is left for a later event (what strands it)",
  ...loose,
  async fn() {
    await using w = await answeredOnce();
    await using tap = platformTap(w.sandbox.baseUrl);
    const late = await wakeWithLateItem(
      w,
      tap,
      "messages",
      () => say(w, "one more thing, @ada"),
      { HARNESS_CATCH_UP: "off" },
    );
    const result = await finished(late.live);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /wake end .*turns=0 steps=0\/24 posted=0/);
    assert.equal(tap.requests.filter(listingOf("messages")).length, 1);
    assert.equal(await claimOf(w, "messages", late.uuid), undefined);
    // Only another wake — which a coalescing router would not run for it — answers it.
    scriptReply(w.model, "Sorry, only now.");
    const next = await w.wake();
    assert.match(next.stderr, /turns=1 /);
    assert.equal((await claimOf(w, "messages", late.uuid))?.phase, "done");
  },
});

Deno.test({
  name: "crash inside the catch-up round: the late message is still answered exactly once",
  ...loose,
  async fn() {
    await using w = await answeredOnce();
    await using tap = platformTap(w.sandbox.baseUrl);
    // The catch-up turn's model call is held, and the wake is killed while it waits.
    w.model.reply("chat", {
      json: chatCompletion({
        toolCalls: [{
          id: "call_0",
          name: "messages",
          arguments: { action: "create", body: "Got it." },
        }],
      }),
      delayMs: HOLD,
    });
    const calls = w.model.hits("chat");
    const late = await wakeWithLateItem(w, tap, "messages", () => say(w, "one more, @ada"));
    await waitFor(
      "the catch-up turn's model call",
      () => w.model.hits("chat") > calls,
      60_000,
      () => late.live.stderr(),
    );
    await late.live.kill();
    assert.equal((await claimOf(w, "messages", late.uuid))?.phase, "in-flight");
    assert.deepEqual(await agentPosts(w), ["Hello, Bob."]);

    // The next wake re-drives it: one reply, under the key anchored on the late message.
    scriptReply(w.model, "Got it.");
    const recovery = await w.wake();
    assert.equal(recovery.code, 0, recovery.stderr);
    assert.match(
      recovery.stderr,
      new RegExp(`WARNING re-driving item=${late.uuid} kind=message .*inside the model call`),
    );
    assert.deepEqual(await agentPosts(w), ["Got it.", "Hello, Bob."]);
    assert.equal((await claimOf(w, "messages", late.uuid))?.phase, "done");
    const key = await idempotencyKey({
      timeline: w.timeline,
      anchor: late.uuid,
      kind: "message",
      ordinal: 1,
    });
    assert.deepEqual(messageCreateKeys(w).filter((k) => k === key), [key]);
    const before = w.model.hits("chat");
    const idle = await w.wake();
    assert.match(idle.stderr, /turns=0 steps=0\/24 posted=0/);
    assert.equal(w.model.hits("chat"), before);
  },
});

Deno.test("a HARNESS_WAKE_STARTED_AT far after the process's start refuses, naming the variable", async () => {
  await using w = await world();
  const result = await w.wake([], { HARNESS_WAKE_STARTED_AT: String(Date.now() / 1000 + 3600) });
  assert.equal(result.code, 1, result.stderr);
  const line = result.stderr.trim().split("\n").at(-1)!;
  assert.match(line, /^ERROR harness wake: HARNESS_WAKE_STARTED_AT is \S+, 3\d{3}\.\d s after/);
  assert.match(line, /at most 10 s after the process's start/);
  assert.match(result.stderr, /ERROR wake failed timeline=\S+ error=/);
  assert.equal(w.model.hits(), 0);
  // Malformed: the environment's own refusal, with the range.
  const bad = await w.wake([], { HARNESS_WAKE_STARTED_AT: "soon" });
  assert.equal(bad.code, 1, bad.stderr);
  assert.match(
    bad.stderr,
    /HARNESS_WAKE_STARTED_AT must be a number from 0 to \d+ \(epoch seconds/,
  );
});
