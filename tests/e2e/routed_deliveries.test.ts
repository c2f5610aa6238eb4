/**
 * Single deliveries through the router twin with every rule on (docs/sandbox.md#the-router-twin):
 * the harness from source with the production permission set, woken with argv `--timeline`
 * only, the sandbox platform, a scripted model that names the items it answers.
 *
 * - The first file and the first webhook event on a fresh timeline are each answered, once: the
 *   router passes no trigger, so the first wake of each kind acts on its newest item.
 * - A delivery whose wake fails (exit 1: a broken config file) is retried by the router and
 *   recorded as failed; re-delivered after the fix, it is answered once, and a further
 *   re-delivery of the same id is dropped by the router's dedup.
 */
import assert from "node:assert/strict";
import {
  answerTags,
  assertAnsweredOnce,
  assertCleanHistory,
  engagedTags,
  fleetWorld,
  settled,
} from "./routed_support.ts";
import { agentPosts, claimOf, deliver, mark, say, upload, wakeFor } from "./wake_support.ts";

Deno.test("the first file and the first webhook event on a fresh timeline are each answered once", async () => {
  await using w = await fleetWorld();
  answerTags(w.model);

  const file = await upload(w, "notes-tag-a1.txt");
  await settled(w);
  const fileWake = wakeFor(w, file.content.uuid);
  assert.equal(fileWake.record.outcome, "woke");
  assert.equal(fileWake.code, 0, fileWake.stderr);
  assert.match(fileWake.stderr, /wake end timeline=\S+ outcome=ok turns=1 .*posted=1/);
  assert.equal((await claimOf(w, "assets", file.content.uuid))?.phase, "done");
  assert.equal(await mark(w, "assets"), file.content.uuid);

  const event = await deliver(w, '{"note":"tag-w1"}');
  await settled(w);
  const eventWake = wakeFor(w, event.content.uuid);
  assert.equal(eventWake.record.outcome, "woke");
  assert.equal(eventWake.record.actor, null);
  assert.match(eventWake.stderr, /wake end timeline=\S+ outcome=ok turns=1 .*posted=1/);
  assert.equal((await claimOf(w, "webhook_events", event.content.uuid))?.phase, "done");
  assert.equal(await mark(w, "webhook_events"), event.content.uuid);

  // One turn each, one reply each; the replies delivered back cost at most an idle wake.
  assert.deepEqual(engagedTags(w.model), [["tag-a1"], ["tag-w1"]]);
  assert.deepEqual(await agentPosts(w), ["re tag-w1", "re tag-a1"]);
  await assertAnsweredOnce(w, ["tag-a1", "tag-w1"]);
  assertCleanHistory(w);
  const own = w.history().filter((r) => r.actor === w.agent.uuid);
  assert.equal(own.length, 2, "both replies were delivered back");
  for (const r of own) {
    const stderr = r.attempts.map((a) => a.output ?? "").join("");
    assert.doesNotMatch(stderr, /turns=[1-9]/, "an own post engaged a turn");
  }
});

Deno.test("a delivery that failed with exit 1 and is re-delivered after the fix is answered once", async () => {
  await using w = await fleetWorld();
  answerTags(w.model);
  await say(w, "hello tag-f0");
  await settled(w);

  // An operator breaks a config file the wake loads: every attempt refuses to start.
  const params = `${w.home}/config/model_params.json`;
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(params, "{ not json");
  const calls = w.model.hits("chat");
  const asked = await say(w, "are you there? tag-f1");
  await settled(w);
  const failed = wakeFor(w, asked.content.uuid).record;
  assert.equal(failed.outcome, "failed");
  assert.deepEqual(failed.attempts.map((a) => a.code), [1, 1, 1]);
  for (const attempt of failed.attempts) {
    const last = (attempt.output ?? "").trim().split("\n").at(-1)!;
    assert.match(last, /^ERROR harness wake: .*model_params\.json/);
    assert.doesNotMatch(attempt.output ?? "", /\n\s+at /); // never a stack trace
  }
  assert.match(w.routerLines().join("\n"), /sandbox wake failed .* attempts=3 code=1/);
  assert.equal(w.model.hits("chat"), calls, "no model call while the config is broken");
  assert.equal(await claimOf(w, "messages", asked.content.uuid), undefined);
  assert.deepEqual(await agentPosts(w), ["re tag-f0"]);

  // Fixed, then re-delivered (same id): answered once.
  await Deno.remove(params);
  assert.ok(w.sandbox.router!.redeliver(failed.delivery));
  await settled(w);
  const again = w.history().filter((r) => r.delivery === failed.delivery);
  assert.deepEqual(again.map((r) => r.outcome), ["failed", "woke"]);
  const stderr = again[1].attempts.map((a) => a.output ?? "").join("");
  assert.equal(again[1].attempts.length, 1);
  assert.match(stderr, new RegExp(`wake start timeline=\\S+ .*delivery=${failed.delivery}`));
  assert.match(stderr, /wake end timeline=\S+ outcome=ok turns=1 .*posted=1/);
  assert.equal((await claimOf(w, "messages", asked.content.uuid))?.phase, "done");
  assert.deepEqual(await agentPosts(w), ["re tag-f1", "re tag-f0"]);

  // Delivered once more, the id has woken the agent: the router drops it, nothing runs.
  const wakes = w.wakes().length;
  assert.ok(w.sandbox.router!.redeliver(failed.delivery));
  await settled(w);
  assert.equal(w.history().at(-1)!.outcome, "dedup");
  assert.equal(w.wakes().length, wakes);
  await assertAnsweredOnce(w, ["tag-f0", "tag-f1"]);
  assert.equal(w.history().filter((r) => r.outcome === "failed").length, 1);
});
