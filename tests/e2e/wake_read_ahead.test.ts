/**
 * Read-ahead (lib/wake/read_ahead.ts), end to end through the real CLI: a wake with nothing new
 * lists the four kinds at once — one round trip instead of four — and a kind's read-ahead is
 * dropped once an earlier kind engaged a turn, so an item that arrived during that turn is still
 * answered by the same wake.
 *
 * A wake that finishes inside the second it started in lists every kind once more after that
 * second (the catch-up, tests/e2e/wake_catch_up.test.ts), which depends on the clock; the tests
 * that count one kind's listings switch it off (`HARNESS_CATCH_UP=off`, {@link FIRST_ROUND}) so
 * they count only the reads their subject makes.
 */
import assert from "node:assert/strict";
import type { Asset } from "../../lib/platform/mod.ts";
import type { RequestRecord } from "../../lib/sandbox/mod.ts";
import { chatCompletion, type ModelMock } from "../support/model_mock.ts";
import {
  activatedTask,
  deliver,
  mark,
  say,
  spawnWake,
  upload,
  userTurnsSeen,
  type World,
  world,
} from "./wake_support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
/** Only the first round's reads: no catch-up listing, whatever second the wake started in. */
const FIRST_ROUND = { HARNESS_CATCH_UP: "off" };
const LISTS = /^\/(messages|assets|webhook_events|tasks)$/;

/** `n` text-only (silent) turns. */
function silent(model: ModelMock, n: number): void {
  for (let i = 0; i < n; i++) model.reply("chat", { json: chatCompletion({ content: "Noted." }) });
}

/**
 * A message, an asset, a webhook event and a task, so every kind has a mark: the message, the
 * event and the task are answered; the asset is the agent's own, so the self-filter only marks it.
 */
async function everyKindMarked(w: World): Promise<void> {
  await say(w, "hello");
  await upload(w, "notes.txt", { who: w.agent });
  await deliver(w, '{"ping":1}');
  await activatedTask(w, "water the plants");
  silent(w.model, 3);
  const first = await w.wake();
  assert.equal(first.code, 0, first.stderr);
  for (const kind of ["messages", "assets", "webhook_events"] as const) {
    assert.ok(await mark(w, kind), `no ${kind} mark after the first wake:\n${first.stderr}`);
  }
}

/** Sends one fault to the sandbox's admin route. */
async function fault(w: World, spec: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${w.sandbox.adminUrl}/faults`, {
    method: "POST",
    headers: { "content-type": "application/json", "sandbox-admin-token": w.sandbox.adminToken },
    body: JSON.stringify(spec),
  });
  assert.equal(res.status, 201, await res.text());
}

/**
 * Runs an idle wake with every listing held 300 ms (one after another they could never overlap)
 * and asserts that each kind was listed exactly once, all four at once — and, when the wake
 * finished inside its start second and so listed again (the catch-up), that second round lists
 * each kind once more, again all four at once.
 */
async function idleWakeListsAtOnce(w: World): Promise<void> {
  await fault(w, { path: LISTS.source, method: "GET", delay_ms: 300, count: 8 });
  const before = w.sandbox.requests.length;
  const idle = await w.wake();
  assert.equal(idle.code, 0, idle.stderr);
  assert.match(idle.stderr, /wake end .*turns=0 .*posted=0/);
  const lists: RequestRecord[] = w.sandbox.requests.slice(before).filter((r) =>
    r.method === "GET" && LISTS.test(r.path)
  ).toSorted((a, b) => a.startedAt - b.startedAt);
  assert.ok(lists.length === 4 || lists.length === 8, JSON.stringify(lists.map((r) => r.path)));
  for (const round of [lists.slice(0, 4), lists.slice(4)].filter((r) => r.length)) {
    assert.deepEqual(
      round.map((r) => LISTS.exec(r.path)![1]).sort(),
      ["assets", "messages", "tasks", "webhook_events"],
    );
    const lastStart = Math.max(...round.map((r) => r.startedAt));
    const firstEnd = Math.min(...round.map((r) => r.startedAt + r.ms));
    assert.ok(lastStart < firstEnd, `the four listings did not overlap: ${JSON.stringify(round)}`);
  }
}

/** A timeline that has only ever had messages: one, answered (so only messages have a mark). */
async function messagesOnly(): Promise<World> {
  const w = await world({ third: true }); // not a 1-on-1: silence is not nudged
  await say(w, "hello");
  silent(w.model, 1);
  assert.equal((await w.wake()).code, 0);
  assert.ok(await mark(w, "messages"));
  return w;
}

Deno.test({
  name: "kinds that never had an item (no mark) are listed together with the rest",
  ...loose,
  async fn() {
    // The common timeline: messages only. Assets and webhook events never get a mark, so every
    // wake lists their first-wake window; those two listings go out with the other two.
    await using w = await messagesOnly();
    assert.equal(await mark(w, "assets"), undefined);
    assert.equal(await mark(w, "webhook_events"), undefined);
    await idleWakeListsAtOnce(w);
    // A first wake of assets still infers nothing from an empty stream: no mark.
    assert.equal(await mark(w, "assets"), undefined);
  },
});

Deno.test({
  name: "an unbounded first-wake window (HARNESS_CONTEXT_MESSAGES=all) is never listed ahead",
  ...loose,
  async fn() {
    await using w = await messagesOnly();
    // Bounded (the default): the assets window went out with the other listings, then again after
    // the message turn. Unbounded: only the listing the reconcile uses, after the turn.
    const assetListings = async (env: Record<string, string>) => {
      await say(w, "another");
      silent(w.model, 1);
      const before = w.sandbox.requests.length;
      const run = await w.wake([], { ...FIRST_ROUND, ...env });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /wake end .*turns=1 /);
      return w.sandbox.requests.slice(before).filter((r) => r.path === "/assets").length;
    };
    assert.equal(await assetListings({}), 2);
    assert.equal(await assetListings({ HARNESS_CONTEXT_MESSAGES: "all" }), 1);
  },
});

Deno.test({
  name: "a first-wake window taken from the read-ahead still answers what arrived in it",
  ...loose,
  async fn() {
    await using w = await messagesOnly();
    // The first asset ever, its event's trigger passed as a router does: the assets reconcile
    // bootstraps from the window read ahead.
    const first = await upload(w, "first.txt");
    silent(w.model, 1);
    const before = w.sandbox.requests.length;
    const run = await w.wake(["--asset", first.content.uuid], FIRST_ROUND);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /wake end .*turns=1 /);
    assert.match(
      userTurnsSeen(w.model).at(-1)!.at(-1)!,
      /posted a file to this timeline: .*filename='first\.txt'/,
    );
    assert.ok(await mark(w, "assets"));
    const assetLists = w.sandbox.requests.slice(before).filter((r) =>
      r.method === "GET" && r.path === "/assets"
    );
    assert.equal(assetLists.length, 1, "the window read ahead was the one used");
  },
});

Deno.test({
  name: "an idle wake lists messages, assets, events and tasks at once",
  ...loose,
  async fn() {
    await using w = await world({ third: true }); // not a 1-on-1: silence is not nudged
    await everyKindMarked(w);
    await idleWakeListsAtOnce(w);
  },
});

Deno.test({
  name: "an asset that arrives while the message turn runs is answered by the same wake",
  ...loose,
  async fn() {
    await using w = await world({ third: true }); // not a 1-on-1: silence is not nudged
    await everyKindMarked(w);
    await say(w, "please look at what I am about to upload");
    // The message turn's model call answers only once the asset has landed: it arrives while the
    // turn runs, after the read-ahead listed the assets.
    let late: Asset | undefined;
    w.model.reply("chat", async () => {
      late = await upload(w, "late.txt");
      return { json: chatCompletion({ content: "Waiting for it." }) };
    });
    silent(w.model, 1);
    const live = spawnWake(w);
    const status = await live.child.status;
    await live.kill();
    assert.equal(status.code, 0, live.stderr());
    assert.match(live.stderr(), /wake end .*turns=2 /);
    const turns = userTurnsSeen(w.model).map((t) => t.at(-1) ?? "");
    assert.ok(turns.some((t) => t.includes("late.txt")), `late.txt never reached the model`);
    assert.equal(await mark(w, "assets"), late?.content.uuid);
  },
});

Deno.test({
  name: "the timeline and dashboard are read together, yet a deleted timeline still just skips",
  ...loose,
  async fn() {
    await using w = await world();
    await w.peer.client.timelines.delete(w.timeline);
    // The dashboard, read alongside, fails too: the timeline's 404 decides, as before.
    await fault(w, { path: "^/users/dashboard$", method: "GET", status: 500, count: 10 });
    const result = await w.wake();
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /INFO wake skipped timeline=\S+ reason=timeline_deleted/);
    assert.doesNotMatch(result.stderr, /dashboard|wake failed/);
  },
});

Deno.test({
  name: "a refused configuration is the wake's error even when the platform reads fail too",
  ...loose,
  async fn() {
    await using w = await world();
    await fault(w, { path: "^/(timelines|users)", method: "GET", status: 500, count: 10 });
    // Refused while the configuration resolves, after the platform reads have started.
    await Deno.mkdir(`${w.home}/config`, { recursive: true });
    await Deno.writeTextFile(`${w.home}/config/model_params.json`, "{not json");
    const result = await w.wake();
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stderr.trim().split("\n").filter((l) =>
      l.startsWith("ERROR harness wake:")
    );
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0], /model_params\.json/);
    // (Whole-word 500: the temp home and uuids in the journal may hold the digits "500".)
    assert.doesNotMatch(result.stderr, /\b500\b|Internal Server Error|ServerError/);
  },
});

Deno.test({
  name: "after a message turn, assets, events and tasks are listed afresh, at once",
  ...loose,
  async fn() {
    await using w = await world({ third: true });
    await everyKindMarked(w);
    await say(w, "one more thing");
    silent(w.model, 1);
    const kinds = /^\/(assets|webhook_events|tasks)$/;
    // Slow listings for the three kinds: three at start, three again after the message turn.
    await fault(w, { path: kinds.source, method: "GET", delay_ms: 250, count: 6 });
    const before = w.sandbox.requests.length;
    const result = await w.wake([], FIRST_ROUND);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /wake end .*turns=1 /);
    // The turn's own listing of pending tasks (its working-state block) is not a read-ahead.
    const lists = w.sandbox.requests.slice(before).filter((r) =>
      r.method === "GET" && kinds.test(r.path) && !/(^|&)status=pending(&|$)/.test(r.query)
    );
    assert.equal(lists.length, 6, JSON.stringify(lists.map((r) => r.path)));
    const refreshed = lists.toSorted((a, b) => a.startedAt - b.startedAt).slice(3);
    assert.deepEqual(
      refreshed.map((r) => r.path).sort(),
      ["/assets", "/tasks", "/webhook_events"],
    );
    const lastStart = Math.max(...refreshed.map((r) => r.startedAt));
    const firstEnd = Math.min(...refreshed.map((r) => r.startedAt + r.ms));
    assert.ok(lastStart < firstEnd, `the refreshed listings did not overlap`);
  },
});

Deno.test({
  name: "a mark that cannot be read fails the wake cleanly: one stderr line, wake failed, wake end",
  ...loose,
  async fn() {
    await using w = await world({ third: true });
    await everyKindMarked(w);
    // The assets mark becomes unreadable (a directory) while the transcript loads alongside.
    const path = `${w.home}/marks/assets/${w.timeline}.txt`;
    await Deno.remove(path);
    await Deno.mkdir(path);
    const result = await w.wake();
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /Uncaught|^\s+at /m);
    assert.match(result.stderr, /wake end .*outcome=error/);
    assert.match(result.stderr, /ERROR wake failed /);
    const lines = result.stderr.split("\n").filter((l) => l.startsWith("ERROR harness wake:"));
    assert.equal(lines.length, 1, result.stderr);
  },
});
