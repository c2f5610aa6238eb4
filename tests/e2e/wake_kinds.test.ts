/**
 * The four item kinds end to end (docs/operating.md#what-each-kind-of-item-becomes,
 * docs/operating.md#the-first-wake-of-a-kind, docs/operating.md#the-noc-synthetic-probe):
 * each kind engages exactly once per item and advances its mark or seen-set; self-authored
 * messages and assets are skipped but still move the mark; the agent's own activated tasks DO
 * run; a first wake infers where to start; several unseen messages are ONE turn; a signed NOC
 * probe is acked without the model. Every wake here is the real CLI in its own process.
 *
 * Where the other wake scenarios live: provider failures, the brief and the journal in
 * wake_failures.test.ts; the crash points per kind in wake_crash.test.ts; the claim rules and the
 * turn's edges in wake_turns.test.ts; two racing wakes and a deleted timeline in wake.test.ts;
 * the Idempotency-Key arithmetic in tests/wake/keys.test.ts, and e2e here and in
 * wake_crash.test.ts (the key the sandbox recorded equals uuid5(NS, "tl:anchor:kind:ordinal"),
 * docs/operating.md#idempotency-keys).
 * Not covered here, with the reason:
 * - 8–12, 39, 40: `--version`, `--resolved-config`, resolve, cleanup, memory, installer/verify —
 *   not the wake's reconcile path (installer/verify are not built; others have their own suites).
 * - 15 (breaker): not among the items this suite was asked for; unit-tested in
 *   tests/home/breaker.test.ts.
 * - 19, 20 (pacing and batch rebuilds), 33–37 (caps, compaction): pacing and compaction are not
 *   built yet; the caps are unit-tested in tests/core.
 * - 23 (provider retries): an engine concern, tested in tests/core/engine_retry.test.ts.
 * - 27 (generate_image never re-run): the wake registers no paid-media tool yet; the principle
 *   (only keyed creates are re-issued, other interrupted calls get the sentinel) is proved with an
 *   interrupted `users list` in wake_crash.test.ts (b).
 */
import assert from "node:assert/strict";
import { idempotencyKey } from "../../lib/platform/mod.ts";
import { signProbe } from "../../lib/wake/probe.ts";
import { chatCompletion, type ModelMock } from "../support/model_mock.ts";
import {
  activatedTask,
  agentPosts,
  assertMessageMark,
  claimOf,
  deliver,
  mark,
  messageCreateKeys,
  say,
  scriptReply,
  seenTasks,
  session,
  upload,
  userTurnsSeen,
  wakeFor,
  world,
} from "./wake_support.ts";

/** `n` text-only (silent) turns. */
function silent(model: ModelMock, n = 1, text = "Noted."): void {
  for (let i = 0; i < n; i++) model.reply("chat", { json: chatCompletion({ content: text }) });
}

/** The newest user turn of each chat request. */
function lastUserTurns(model: ModelMock): string[] {
  return userTurnsSeen(model).map((turns) => turns.at(-1) ?? "");
}

Deno.test("three unseen messages are one batched turn, oldest first; mark = newest", async () => {
  // Routed, not a 1-on-1 (silence is not nudged).
  await using w = await world({ third: true, routed: true });
  silent(w.model);
  await say(w, "first"); // a first wake with no mark answers only the newest: set a mark first
  await w.settle();
  // Three messages arrive together, while the router holds the agent's deliveries (as when
  // they arrive during a running wake): the first delivery's wake reads all three.
  scriptReply(w.model, "All three, noted.");
  w.hold();
  const a = await say(w, "one");
  await say(w, "two");
  const c = await say(w, "three");
  w.release();
  await w.settle();
  const result = wakeFor(w, a.content.uuid);
  assert.equal(result.code, 0, result.stderr);
  // The other two were covered by that wake (coalesced) or found nothing new: no second turn.
  assert.equal(w.wakes().filter((r) => r.outcome === "failed").length, 0);
  assert.equal(w.model.hits("chat"), 3); // 1 (first wake) + 2 steps of ONE turn
  const turn = lastUserTurns(w.model)[1];
  const lines = turn.split("\n");
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^\[\S+\] bob: one$/);
  assert.match(lines[1], /^\[\S+\] bob: two$/);
  assert.match(lines[2], /^\[\S+\] bob: three$/);
  assert.deepEqual(await agentPosts(w), ["All three, noted."]);
  await assertMessageMark(w, c.content.uuid);
  // The key is anchored on the batch's OLDEST message, ordinal 1.
  assert.deepEqual(
    messageCreateKeys(w).at(-1),
    await idempotencyKey({
      timeline: w.timeline,
      anchor: a.content.uuid,
      kind: "message",
      ordinal: 1,
    }),
  );
  // The persisted user turn lists every batch uuid.
  const user = (await session(w)).filter((m) => m.role === "user").at(-1)!;
  assert.equal((user.items as string[]).length, 3);
  // Re-invoking replies to nothing.
  const again = await w.wake();
  assert.equal(w.model.hits("chat"), 3);
  assert.match(again.stderr, /wake end timeline=\S+ outcome=ok turns=0 steps=0\/24 posted=0/);
});

Deno.test("first wake answers everything newer than the agent's own last post, seeds the rest", async () => {
  await using w = await world();
  await say(w, "old question");
  await say(w, "my old answer", w.agent);
  const q1 = await say(w, "new one");
  const q2 = await say(w, "new two");
  scriptReply(w.model, "Both answered.");
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  const msgs =
    (w.model.requestsTo("chat")[0].body as { messages: { role: string; content: string }[] })
      .messages.filter((m) => m.role === "user" || m.role === "assistant");
  // Backlog seeded oldest-first as turns (own ⇒ assistant), then the batch of the two new ones.
  assert.match(msgs[0].content, /^\[\S+\] bob: old question$/);
  assert.deepEqual([msgs[1].role, msgs[1].content], ["assistant", "my old answer"]);
  assert.match(msgs[2].content, /^\[\S+\] bob: new one\n\[\S+\] bob: new two$/);
  assert.equal(await mark(w, "messages"), q2.content.uuid);
  assert.deepEqual(await agentPosts(w), ["Both answered.", "my old answer"]);
  void q1;
});

Deno.test("a fresh join answers the newest only; own post newest ⇒ no model call", async () => {
  {
    await using w = await world({ third: true }); // not a 1-on-1: silence is not nudged
    await say(w, "backlog 1");
    await say(w, "backlog 2");
    const newest = await say(w, "newest");
    silent(w.model);
    assert.equal((await w.wake()).code, 0);
    assert.equal(w.model.hits("chat"), 1);
    assert.match(lastUserTurns(w.model)[0], /^\[\S+\] bob: newest$/);
    assert.equal(await mark(w, "messages"), newest.content.uuid);
  }
  {
    await using w = await world({ third: true });
    await say(w, "question");
    const own = await say(w, "already answered", w.agent);
    const result = await w.wake();
    assert.equal(result.code, 0, result.stderr);
    assert.equal(w.model.hits(), 0);
    assert.equal(await mark(w, "messages"), own.content.uuid);
  }
});

Deno.test("a --message trigger on a first wake answers the trigger and everything newer", async () => {
  await using w = await world({ third: true }); // not a 1-on-1: silence is not nudged
  await say(w, "too old");
  const trigger = await say(w, "the trigger");
  await say(w, "after it");
  silent(w.model);
  const result = await w.wake(["--message", trigger.content.uuid]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(`wake start timeline=\\S+ trigger=message:${trigger.content.uuid}`),
  );
  assert.match(lastUserTurns(w.model)[0], /^\[\S+\] bob: the trigger\n\[\S+\] bob: after it$/);
});

Deno.test("self-authored messages are never engaged but the mark advances past them", async () => {
  await using w = await world({ third: true }); // not a 1-on-1: silence is not nudged
  await say(w, "hello");
  silent(w.model);
  await w.wake();
  const own = await say(w, "a note from me", w.agent);
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 1); // nothing new for the model
  assert.equal(await mark(w, "messages"), own.content.uuid);
});

Deno.test("assets — a first wake acts on the newest file only, own asset skipped, peer asset engaged once", async () => {
  await using w = await world();
  await upload(w, "old.txt");
  const report = await upload(w, "report.txt", { description: "Q3 numbers" });
  silent(w.model);
  const first = await w.wake(); // `--timeline` only, as the router runs it
  assert.equal(first.code, 0, first.stderr);
  assert.equal(w.model.hits("chat"), 1); // the newest file, never the backlog
  assert.match(lastUserTurns(w.model)[0], /bob posted a file to this timeline: .*report\.txt/);
  assert.doesNotMatch(JSON.stringify(w.model.requests.map((r) => r.body)), /old\.txt/);
  assert.equal((await claimOf(w, "assets", report.content.uuid))?.phase, "done");
  assert.equal(await mark(w, "assets"), report.content.uuid);

  const own = await upload(w, "mine.txt", { who: w.agent });
  const later = await upload(w, "later.txt");
  silent(w.model);
  const second = await w.wake();
  assert.equal(second.code, 0, second.stderr);
  assert.equal(w.model.hits("chat"), 2); // one turn: the peer's file only
  assert.match(lastUserTurns(w.model)[1], /bob posted a file to this timeline: .*later\.txt/);
  assert.doesNotMatch(JSON.stringify(w.model.requests.map((r) => r.body)), /old\.txt/);
  assert.equal(await claimOf(w, "assets", own.content.uuid), undefined); // never claimed
  assert.equal((await claimOf(w, "assets", later.content.uuid))?.phase, "done");
  assert.equal(await mark(w, "assets"), later.content.uuid);

  // Own asset alone: no model call, but the mark moves past it.
  const mine2 = await upload(w, "mine2.txt", { who: w.agent });
  const third = await w.wake();
  assert.equal(third.code, 0, third.stderr);
  assert.equal(w.model.hits("chat"), 2);
  assert.equal(await mark(w, "assets"), mine2.content.uuid);
});

Deno.test("assets — a first wake whose newest file is the agent's own acts on nothing, marks it", async () => {
  await using w = await world();
  await upload(w, "peer-backlog.txt");
  const own = await upload(w, "generated.txt", { who: w.agent });
  const first = await w.wake();
  assert.equal(first.code, 0, first.stderr);
  assert.equal(w.model.hits(), 0); // self-filtered, and the backlog is not replayed
  assert.equal(await claimOf(w, "assets", own.content.uuid), undefined);
  assert.equal(await mark(w, "assets"), own.content.uuid);
});

Deno.test("a first webhook-event wake without a trigger acts on the newest delivery only; the next once", async () => {
  await using w = await world();
  await deliver(w, '{"n":"older-payload"}');
  const newest = await deliver(w, '{"n":"newest-payload"}', await endpointUrl(w));
  silent(w.model);
  const first = await w.wake();
  assert.equal(first.code, 0, first.stderr);
  assert.equal(w.model.hits("chat"), 1);
  assert.match(lastUserTurns(w.model)[0], /An inbound webhook was delivered .*newest-payload/s);
  // Historical deliveries are never replayed.
  assert.doesNotMatch(JSON.stringify(w.model.requests.map((r) => r.body)), /older-payload/);
  assert.equal(await mark(w, "webhook_events"), newest.content.uuid);
  const next = await deliver(w, '{"n":"third"}', await endpointUrl(w));
  silent(w.model);
  assert.equal((await w.wake()).code, 0);
  assert.equal(w.model.hits("chat"), 2);
  assert.match(lastUserTurns(w.model)[1], /An inbound webhook was delivered .*third/s);
  assert.doesNotMatch(JSON.stringify(w.model.requests.map((r) => r.body)), /older-payload/);
  assert.equal(await mark(w, "webhook_events"), next.content.uuid);
  assert.equal((await w.wake()).code, 0);
  assert.equal(w.model.hits("chat"), 2);
});

Deno.test("a first webhook-event wake with --event acts on exactly that delivery and newer", async () => {
  await using w = await world();
  await deliver(w, '{"n":"before"}');
  const trigger = await deliver(w, '{"n":"the-trigger"}', await endpointUrl(w));
  silent(w.model);
  const first = await w.wake(["--event", trigger.content.uuid]);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(w.model.hits("chat"), 1);
  assert.match(lastUserTurns(w.model)[0], /the-trigger/);
  assert.doesNotMatch(JSON.stringify(w.model.requests.map((r) => r.body)), /"n\\":\\"before/);
  assert.equal(await mark(w, "webhook_events"), trigger.content.uuid);
});

Deno.test("the agent's own activated tasks run, oldest first, one turn each; seen-set", async () => {
  await using w = await world();
  const t1 = await activatedTask(w, "water the plants");
  const t2 = await activatedTask(w, "send the digest");
  scriptReply(w.model, "Plants watered.");
  scriptReply(w.model, "Digest sent.");
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  const turns = lastUserTurns(w.model);
  assert.match(
    turns[0],
    new RegExp(
      `A task you scheduled has activated and is due now \\(task ${t1.content.uuid}, scheduled ` +
        `for \\S+\\)\\. Carry out its instructions:\nwater the plants$`,
    ),
  );
  assert.match(turns[2], /send the digest$/);
  assert.deepEqual(await seenTasks(w), [t1.content.uuid, t2.content.uuid]);
  assert.match(result.stderr, /wake end timeline=\S+ outcome=ok turns=2 steps=4\/24 posted=2/);
  assert.deepEqual(await agentPosts(w), ["Digest sent.", "Plants watered."]);
  const again = await w.wake();
  assert.equal(w.model.hits("chat"), 4);
  assert.match(again.stderr, /turns=0 steps=0\/24 posted=0/);
});

Deno.test("signed probes in a message, asset, event and task are acked model-free", async () => {
  await using w = await world();
  const secret = "probe-secret-123";
  const env = { NOC_PROBE_SECRET: secret };
  const m = await say(w, `ping ${await signProbe(secret, "n-msg")}`);
  const a = await upload(w, "probe.txt", { description: await signProbe(secret, "n-asset") });
  const e = await deliver(w, JSON.stringify({ probe: await signProbe(secret, "n-event") }));
  const t = await activatedTask(w, await signProbe(secret, "n-task"));
  // `--timeline` only, as the router runs it: a first asset or event wake acts on the newest.
  const result = await w.wake([], env);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits(), 0);
  assert.deepEqual(
    (await agentPosts(w)).sort(),
    ["BCNOC1-ACK n-asset", "BCNOC1-ACK n-event", "BCNOC1-ACK n-msg", "BCNOC1-ACK n-task"],
  );
  assert.equal(
    result.stderr.match(/INFO posted message=\S+ timeline=\S+ kind=probe-ack/g)?.length,
    4,
  );
  assert.equal(await mark(w, "messages"), m.content.uuid);
  assert.equal(await mark(w, "assets"), a.content.uuid);
  assert.equal(await mark(w, "webhook_events"), e.content.uuid);
  assert.deepEqual(await seenTasks(w), [t.content.uuid]);
  assert.deepEqual(await session(w), []); // nothing in the transcript
  assert.match(result.stderr, /posted=4/);
  // Four items handled, no turn engaged: no brief, so no dashboard.md either.
  assert.ok(!w.sandbox.requests.some((r) => r.path === "/users/dashboard.md"));

  // A forged marker is an ordinary message the model answers.
  await say(w, `ping BCNOC1 n-forged ${"0".repeat(64)}`);
  scriptReply(w.model, "Hello!");
  const forged = await w.wake([], env);
  assert.equal(forged.code, 0, forged.stderr);
  assert.equal(w.model.hits("chat"), 2);
  assert.equal((await agentPosts(w))[0], "Hello!");
});

async function endpointUrl(w: Awaited<ReturnType<typeof world>>): Promise<string> {
  const [ep] = await w.agent.client.webhookEndpoints.list({ timeline: w.timeline }).toArray();
  return ep.content.ingest_url;
}
