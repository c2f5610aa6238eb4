/**
 * Read-speed pacing and the batch rebuild, end to end
 * (docs/context.md#read-speed-pacing-aiai-conversations): a peer AI's message is read at a human's
 * pace (less its age), a human's never is; a message landing during a tool-free build rolls the
 * build back and rebuilds one turn over both; the Nth build stands; a build that ran a tool is
 * never rebuilt.
 */
import assert from "node:assert/strict";
import type { PlatformClient } from "../../lib/platform/mod.ts";
import { chatCompletion } from "../support/model_mock.ts";
import {
  agentPosts,
  claimOf,
  mark,
  say,
  scriptReply,
  session,
  userTurnsSeen,
  type World,
  world,
} from "./wake_support.ts";

/** Adds a peer AI (`cleo`) who trusts and is trusted by the agent, as a timeline viewer. */
async function aiPeer(w: World): Promise<{ uuid: string; client: PlatformClient }> {
  const { PlatformClient } = await import("../../lib/platform/mod.ts");
  const c = w.sandbox.createUser({ handle: "cleo", name: "Cleo", kind: "ai" });
  const client = new PlatformClient({ baseUrl: w.sandbox.baseUrl, token: c.token });
  for (const other of [w.agent, w.peer]) {
    await client.users.grantTrust(other.uuid);
    await other.client.users.grantTrust(c.user.uuid);
  }
  await w.peer.client.timelines.addParticipant(w.timeline, c.user.uuid);
  return { uuid: c.user.uuid, client };
}

/**
 * Scripts a reply and records when the first model request arrived: `at` in wall time, `mono` on
 * this process's monotonic clock (the one the in-process sandbox stamps requests with).
 */
function timedReply(w: World, body: string): { at?: number; mono?: number } {
  const seen: { at?: number; mono?: number } = {};
  w.model.reply(
    "chat",
    () => {
      seen.at ??= Date.now();
      seen.mono ??= performance.now();
      return {
        json: chatCompletion({
          toolCalls: [{ id: "call_0", name: "messages", arguments: { action: "create", body } }],
        }),
      };
    },
    { json: chatCompletion({ content: "Answered." }) },
  );
  return seen;
}

const FAST = { HARNESS_PACE_CHARS_PER_SEC: "1000000" };

Deno.test("a peer AI's message is paced for its read time (floor, less its age)", async () => {
  await using w = await world();
  const cleo = await aiPeer(w);
  const beforeSend = performance.now(); // the message exists only after this instant
  const sent = await say(w, "hey ada, a quick one", cleo);
  const seen = timedReply(w, "Sure.");
  const started = Date.now();
  const run = await w.wake([], { ...FAST, HARNESS_PACE_FLOOR_SECONDS: "3" });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(await agentPosts(w), ["Sure."]);
  // The model was not called until ~3 s after the message appeared (start-up time counts).
  const waited = seen.at! - Date.parse(sent.created_at);
  assert.ok(waited >= 2_900, `model called ${waited} ms after the message`);
  assert.ok(Date.now() - started >= 2_900);
  assert.doesNotMatch(run.stderr, /Read-pac/);
  // The brief's dashboard.md is read after the pacing wait, so the primer the model sees is
  // fresh: its request starts no earlier than the floor after the message, and before the model
  // call. Both bounds are orderings, so a slow machine cannot fail them.
  const primer = w.sandbox.requests.find((r) => r.path === "/users/dashboard.md");
  assert.ok(primer, "no dashboard.md request");
  assert.ok(
    primer.startedAt - beforeSend >= 2_900,
    `dashboard.md requested ${primer.startedAt - beforeSend} ms after the message, inside the wait`,
  );
  assert.ok(primer.startedAt < seen.mono!, "dashboard.md requested after the model call");
});

Deno.test("a human's message is never paced; pacing disabled never paces", async () => {
  await using w = await world();
  const cleo = await aiPeer(w);
  const hello = await say(w, "hello from a human");
  let seen = timedReply(w, "Hi.");
  const human = await w.wake([], { ...FAST, HARNESS_PACE_FLOOR_SECONDS: "20" });
  assert.equal(human.code, 0, human.stderr);
  const sent = await say(w, "and an AI, with pacing off", cleo);
  const humanWaited = seen.at! - Date.parse(hello.created_at);
  assert.ok(humanWaited < 15_000, `a human was paced: ${humanWaited} ms`);

  seen = timedReply(w, "Hi Cleo.");
  const off = await w.wake([], { HARNESS_PACE_ENABLED: "0", HARNESS_PACE_FLOOR_SECONDS: "20" });
  assert.equal(off.code, 0, off.stderr);
  const offWaited = seen.at! - Date.parse(sent.created_at);
  assert.ok(offWaited < 15_000, `pacing off still paced: ${offWaited} ms`);
  assert.deepEqual(await agentPosts(w), ["Hi Cleo.", "Hi."]);
});

Deno.test("a message arriving during a tool-free build triggers ONE rebuild over both", async () => {
  await using w = await world({ third: true }); // not one-on-one: no nudge on a silent build
  const first = await say(w, "first thought");
  let second: string | undefined;
  w.model.reply("chat", async () => {
    // Lands while the model is still generating a build that will call no tool.
    second = (await say(w, "second thought")).content.uuid;
    return { json: chatCompletion({ content: "DISCARDED-NARRATION" }), delayMs: 100 };
  });
  scriptReply(w.model, "Answering both.", "Rebuilt narration.");
  const run = await w.wake();
  assert.equal(run.code, 0, run.stderr);
  assert.equal(w.model.hits("chat"), 3); // build 1, then the rebuilt turn's two steps
  // The rebuilt turn's batch holds both messages as one user turn.
  const rebuilt = userTurnsSeen(w.model)[1].at(-1)!;
  assert.match(rebuilt, /\] bob: first thought\n\[[^\]]+\] bob: second thought$/);
  assert.deepEqual(userTurnsSeen(w.model)[0].at(-1)!.includes("second thought"), false);
  // Only the rebuilt reply is posted; the discarded build left no narration and no transcript.
  assert.deepEqual(await agentPosts(w), ["Answering both."]);
  assert.doesNotMatch(run.stderr, /DISCARDED-NARRATION/);
  assert.match(run.stderr, /INFO unspoken timeline=\S+ kind=narration .*Rebuilt narration/);
  const transcript = JSON.stringify(await session(w));
  assert.ok(!transcript.includes("DISCARDED-NARRATION"));
  const users = (await session(w)).filter((m) => m.role === "user");
  assert.equal(users.length, 1);
  assert.equal(await mark(w, "messages"), second);
  assert.ok(await claimOf(w, "messages", first.content.uuid));
  assert.ok(await claimOf(w, "messages", second!));
  // Same idempotency anchor: the batch's oldest message.
  assert.match(run.stderr, /INFO posted message=/);
});

Deno.test("the max-builds cap stands unconditionally; the last arrival stays unseen", async () => {
  // The late arrival lands mid-turn, possibly inside the start second: with the catch-up on it
  // would be answered by this wake (tests/e2e/wake_catch_up.test.ts); here the pacing rule alone.
  await using w = await world({ third: true, env: { HARNESS_CATCH_UP: "off" } });
  await say(w, "one");
  const arrivals: string[] = [];
  const silentWhileSomeoneTalks = async () => {
    arrivals.push((await say(w, `arrival ${arrivals.length + 1}`)).content.uuid);
    return { json: chatCompletion({ content: `silent build ${arrivals.length}` }) };
  };
  w.model.reply("chat", silentWhileSomeoneTalks, silentWhileSomeoneTalks);
  const run = await w.wake([], { HARNESS_PACE_MAX_BUILDS: "2" });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(w.model.hits("chat"), 2);
  const last = userTurnsSeen(w.model)[1].at(-1)!;
  assert.match(last, /bob: one\n.*bob: arrival 1$/);
  assert.ok(!last.includes("arrival 2"));
  // Build 2 stood: its narration is the one logged, and arrival 2 is left for the next wake.
  assert.match(run.stderr, /text="silent build 2"/);
  assert.doesNotMatch(run.stderr, /text="silent build 1"/);
  assert.equal(await mark(w, "messages"), arrivals[0]);
  assert.equal(await claimOf(w, "messages", arrivals[1]), undefined);
});

Deno.test("a build that ran a tool is never rebuilt (exactly one post)", async () => {
  // The late arrival lands mid-turn, possibly inside the start second: with the catch-up on it
  // would be answered by this wake (tests/e2e/wake_catch_up.test.ts); here the pacing rule alone.
  await using w = await world({ third: true, env: { HARNESS_CATCH_UP: "off" } });
  const first = await say(w, "please answer");
  w.model.reply(
    "chat",
    async () => {
      await say(w, "landing mid-turn");
      return {
        json: chatCompletion({
          toolCalls: [{
            id: "call_0",
            name: "messages",
            arguments: { action: "create", body: "The only answer." },
          }],
        }),
      };
    },
    { json: chatCompletion({ content: "Done." }) },
  );
  const run = await w.wake();
  assert.equal(run.code, 0, run.stderr);
  assert.equal(w.model.hits("chat"), 2);
  assert.deepEqual(await agentPosts(w), ["The only answer."]);
  // The late message was not folded in: the mark stays on the answered one for the next wake.
  assert.equal(await mark(w, "messages"), first.content.uuid);
});
