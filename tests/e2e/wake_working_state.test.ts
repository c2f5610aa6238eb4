/**
 * Working state end to end (docs/context.md#working-state-notes-tasks-and-handoff): real
 * `harness wake` processes on the sandbox platform with a scripted model. A note written in one
 * wake is projected in the next wake's request, with the timeline's pending tasks; another
 * timeline sees none of it; `summarize` replaces the earlier conversation; the reminder appears
 * past 65% of the budget; the cold-start filter shortens old results after an idle hour only,
 * in the request, never on disk.
 */
import assert from "node:assert/strict";
import { chatCompletion, type FixtureCall } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { chatMessages, say, scriptReply, session, type World, world } from "./wake_support.ts";
import { workingStatePath } from "../../lib/home/working_state.ts";
import { BLOCK_HEADER } from "../../lib/wake/engaged/working_state_block.ts";
import { HANDOFF_REMINDER } from "../../lib/wake/engaged/working_state.ts";
import { coldMarker } from "../../lib/core/idle_filter.ts";
import { asUser } from "../support/cleared.ts";

/** Scripts one turn: `calls` in one step, then a closing narration. */
function scriptCalls(w: World, calls: FixtureCall[], narration = "Done."): void {
  w.model.reply(
    "chat",
    { json: chatCompletion({ toolCalls: calls }) },
    { json: chatCompletion({ content: narration }) },
  );
}

/** The chat requests so far. */
const chats = (w: World) => w.model.requestsTo("chat").length;

async function wakeOk(w: World, env: Record<string, string> = {}) {
  const result = await w.wake([], env);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /wake end .*outcome=ok/, result.stderr);
  return result;
}

Deno.test("notes: a note written in wake 1 is projected, with the pending tasks, in wake 2's request", async () => {
  await using w = await world();
  await say(w, "Please remember: the client deadline is Friday.");
  scriptCalls(w, [
    { id: "c1", name: "note_write", arguments: { key: "client/deadline", value: "Friday 17:00" } },
    { id: "c2", name: "messages", arguments: { action: "create", body: "Noted." } },
  ]);
  await wakeOk(w);
  // The tool answered with its report word.
  const second = chatMessages(w.model, 1);
  assert.equal(second.find((m) => m.role === "tool")?.content, "created");
  // Wake 1's own first request had no block: there were no notes and no tasks yet.
  assert.ok(!chatMessages(w.model, 0).some((m) => String(m.content).includes(BLOCK_HEADER)));
  const onDisk = JSON.parse(await Deno.readTextFile(workingStatePath(w.home, w.timeline)));
  assert.deepEqual(onDisk.notes, { "client/deadline": "Friday 17:00" });

  const task = await w.agent.client.tasks.create(
    w.timeline,
    asUser("task", {
      instructions: "Check in with Bob",
      activateAt: "2099-01-01T00:00:00Z",
    }),
  );
  await say(w, "What was the deadline again?");
  const before = chats(w);
  scriptReply(w.model, "Friday 17:00.");
  await wakeOk(w);
  const sent = chatMessages(w.model, before);
  const at = sent.findLastIndex((m) => m.role === "user");
  assert.equal(sent[at - 1].role, "system");
  assert.equal(
    sent[at - 1].content,
    [
      BLOCK_HEADER,
      "<working-state>",
      "<notes>",
      '<note key="client/deadline">Friday 17:00</note>',
      "</notes>",
      "<tasks>",
      `<task uuid="${task.content.uuid}" activate_at="${task.content.activate_at}">` +
      "Check in with Bob</task>",
      "</tasks>",
      "</working-state>",
    ].join("\n"),
  );
  // The block is never saved: the transcript holds no trace of it.
  assert.ok(!JSON.stringify(await session(w)).includes("<working-state>"));

  // Another timeline of the same agent sees none of this timeline's notes.
  const { timeline: other } = await w.peer.client.timelines.create({ name: "other" });
  await w.peer.client.timelines.addParticipant(other.uuid, w.agent.uuid);
  await w.peer.client.messages.create(other.uuid, asUser("message", { body: "Hello there." }));
  const otherStart = chats(w);
  scriptReply(w.model, "Hi.");
  const result = await runCli(["wake", "--timeline", other.uuid], { env: w.env });
  assert.equal(result.code, 0, result.stderr);
  const otherSent = chatMessages(w.model, otherStart);
  assert.ok(!otherSent.some((m) => String(m.content).includes("<working-state>")));
});

Deno.test("summarize: the earlier conversation is replaced by the narrative; the reminder shows past 65%", async () => {
  await using w = await world();
  const env = { HARNESS_MAX_CONTEXT_TOKENS: "100000" };
  await say(w, "First topic: the blue widget.");
  scriptReply(w.model, "On it.");
  await wakeOk(w, env);

  await say(w, "Second topic: wrap up, please.");
  const before = chats(w);
  w.model.reply(
    "chat",
    // 70,000 of 100,000 tokens: past the 65% reminder (and under nothing else in this step).
    {
      json: chatCompletion({
        toolCalls: [
          { id: "u1", name: "users", arguments: { action: "me" } },
          { id: "m1", name: "messages", arguments: { action: "create", body: "Wrapping up." } },
        ],
        usage: { prompt: 70_000, completion: 10 },
      }),
    },
    {
      json: chatCompletion({
        toolCalls: [{
          id: "s1",
          name: "summarize",
          arguments: {
            narrative: "I discussed the blue widget with Bob.",
            next_step: "Wrap up the second topic.",
            reconciled_notes: [],
          },
        }],
        usage: { prompt: 70_100, completion: 10 },
      }),
    },
    { json: chatCompletion({ content: "Handed off.", usage: { prompt: 300, completion: 5 } }) },
  );
  const result = await wakeOk(w, env);
  // The first step had no reminder (no call had been made); the second did.
  const stepNotes = (i: number) =>
    chatMessages(w.model, i).filter((m) =>
      m.role === "system" && String(m.content).startsWith("Current Time: ") &&
      String(m.content).includes("\n\nStep ")
    ).map((m) => String(m.content));
  assert.ok(!stepNotes(before).at(-1)!.includes(HANDOFF_REMINDER));
  assert.ok(stepNotes(before + 1).at(-1)!.endsWith(`\n\n${HANDOFF_REMINDER}`));
  // The summarize tool accepted, and the handoff replaced everything before this turn.
  const third = chatMessages(w.model, before + 2);
  assert.match(String(third.at(-2)?.content), /^Handoff accepted\./);
  assert.match(result.stderr, /context handoff messages=\d+→\d+ chars=\d+→\d+ summarized=\d+/);
  const saved = await session(w);
  const text = JSON.stringify(saved);
  assert.ok(!text.includes('the blue widget."'), "the first topic's turn is gone");
  const summary = saved.find((m) =>
    String(m.content).startsWith("[Earlier conversation compacted")
  );
  assert.ok(summary, text);
  assert.ok(String(summary.content).includes("I discussed the blue widget with Bob."));
  assert.ok(String(summary.content).includes("Next step: Wrap up the second topic."));
  assert.ok(text.includes("Second topic: wrap up, please."), "the current turn is kept");
});

Deno.test("cold start: old tool results are shortened in the request after an idle hour, never on disk", async () => {
  await using w = await world();
  const long = "L".repeat(2000);
  await say(w, "Keep this long thing.");
  scriptCalls(w, [
    { id: "n1", name: "note_write", arguments: { key: "long", value: long } },
    { id: "n2", name: "note_get", arguments: { key: "long" } },
    { id: "n3", name: "messages", arguments: { action: "create", body: "Kept." } },
  ]);
  await wakeOk(w);
  const stateFile = workingStatePath(w.home, w.timeline);
  const state = JSON.parse(await Deno.readTextFile(stateFile));
  assert.ok(state.last_response_at, "the latest response is stamped");

  // Not idle: the next wake sends the old result whole.
  await say(w, "Still there?");
  let before = chats(w);
  scriptReply(w.model, "Yes.");
  let result = await wakeOk(w);
  assert.ok(chatMessages(w.model, before).some((m) => m.role === "tool" && m.content === long));
  assert.doesNotMatch(result.stderr, /cold_start/);

  // Two idle hours: the stamp moved back stands in for the clock.
  const stamped = JSON.parse(await Deno.readTextFile(stateFile));
  stamped.last_response_at = new Date(Date.now() - 7_200_000).toISOString();
  await Deno.writeTextFile(stateFile, JSON.stringify(stamped));
  const diskBefore = await Deno.readTextFile(`${w.home}/sessions/timeline%3A${w.timeline}.json`);
  await say(w, "Back after a while.");
  before = chats(w);
  scriptReply(w.model, "Welcome back.");
  result = await wakeOk(w);
  const tools = chatMessages(w.model, before).filter((m) => m.role === "tool");
  const shortened = tools.find((m) => String(m.content).startsWith("L".repeat(240) + "\n[…"));
  assert.ok(shortened, JSON.stringify(tools.map((m) => String(m.content).slice(0, 60))));
  assert.equal(shortened.content, "L".repeat(240) + coldMarker(1760));
  assert.match(result.stderr, /cold_start shortened=1 saved_chars=\d+ idle_s=72\d\d/);
  // Every request of that wake shortened the same result, so they still share a prefix.
  assert.ok(chatMessages(w.model, before + 1).some((m) => m.content === shortened.content));
  // On disk the old result is whole: the saved copy only grew by this wake's turn.
  const diskAfter = await Deno.readTextFile(`${w.home}/sessions/timeline%3A${w.timeline}.json`);
  const oldResults = (text: string) =>
    (JSON.parse(text) as { role: string; content: string }[]).filter((m) =>
      m.role === "tool" && m.content === long
    ).length;
  assert.equal(oldResults(diskBefore), 1);
  assert.equal(oldResults(diskAfter), 1);

  // Switched off, the same idle sends the result whole.
  stamped.last_response_at = new Date(Date.now() - 7_200_000).toISOString();
  await Deno.writeTextFile(stateFile, JSON.stringify(stamped));
  await say(w, "And again.");
  before = chats(w);
  scriptReply(w.model, "Here.");
  result = await wakeOk(w, { HARNESS_COLD_START_IDLE_SECONDS: "off" });
  assert.ok(chatMessages(w.model, before).some((m) => m.role === "tool" && m.content === long));
  assert.doesNotMatch(result.stderr, /cold_start/);
});
