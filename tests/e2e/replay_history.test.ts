/**
 * `harness replay --with-history` over a conversation recorded by real wakes on the sandbox
 * platform, with a scripted model whose answer depends on an earlier turn: the replay with history
 * reproduces the reply, a single-turn replay cannot; the working-state block the turn read comes
 * from the record, not today's notes; a transcript that no longer holds the turns (compacted,
 * pruned, edited) fails the turn naming what is missing and the fix.
 */
import assert from "node:assert/strict";
import { type ReplayReport, ReplayReportSchema } from "../../lib/replay/report.ts";
import { TurnRecordSchema } from "../../lib/home/records/schema.ts";
import {
  chatCompletion,
  type MockReply,
  ModelMock,
  type RecordedRequest,
} from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { say, sessionPath, type World, world } from "./wake_support.ts";

type ChatMessage = { role: string; content: string | null };

/**
 * A model that remembers only what its request shows: it posts `Noted.` (and writes the colour as
 * a note) when told a favourite colour, and answers the question from the earlier user turns it
 * was sent, or says it does not know.
 */
function rememberingModel(request: RecordedRequest): MockReply {
  const messages = (request.body as { messages: ChatMessage[] }).messages;
  // The step counter (a system line) follows the tool results: the turn's work is done.
  if (messages.findLast((m) => m.role !== "system")?.role === "tool") {
    return { json: chatCompletion({ content: "Done." }) };
  }
  const users = messages.filter((m) => m.role === "user").map((m) => m.content ?? "");
  const latest = users.at(-1) ?? "";
  const told = /favourite colour is (\w+)/.exec(latest);
  if (told) {
    return {
      json: chatCompletion({
        toolCalls: [
          { id: "t1", name: "messages", arguments: { action: "create", body: "Noted." } },
          { id: "t2", name: "note_write", arguments: { key: "colour", value: told[1] } },
        ],
      }),
    };
  }
  let body = "Noted.";
  if (/what is my favourite colour/.test(latest)) {
    const earlier = users.slice(0, -1).map((u) => /favourite colour is (\w+)/.exec(u)?.[1])
      .filter((c) => c !== undefined);
    body = earlier.length
      ? `Your favourite colour is ${earlier.at(-1)}.`
      : "I do not know your favourite colour.";
  }
  return {
    json: chatCompletion({
      toolCalls: [{ id: "a1", name: "messages", arguments: { action: "create", body } }],
    }),
  };
}

const CONVERSATION = [
  "@ada my favourite colour is teal",
  "@ada lovely weather today",
  "@ada what is my favourite colour?",
];

/** Three recorded turns; the third answers from the first. */
async function recorded(): Promise<World> {
  const w = await world({ third: true });
  w.model.always("chat", rememberingModel);
  for (const text of CONVERSATION) {
    await say(w, text);
    const woke = await w.wake();
    assert.equal(woke.code, 0, woke.stderr);
  }
  return w;
}

async function records(w: World) {
  const text = await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`);
  return text.trim().split("\n").map((line) => TurnRecordSchema.parse(JSON.parse(line)));
}

/** `harness replay` of the question turn against `model`, with `args`. */
async function replayQuestion(w: World, model: ModelMock, args: string[] = []) {
  const [, , question] = await records(w);
  const ids = `${w.home}/question.txt`;
  await Deno.writeTextFile(ids, `${question.record_id}\n`);
  const env: Record<string, string> = { ...w.env, AI_API_KEY: "sk-replay-0000000000" };
  const result = await runCli([
    "replay",
    "--turns",
    ids,
    "--model",
    question.model,
    "--base-url",
    model.baseURL,
    "--surface",
    "chat",
    ...args,
  ], { env });
  return result;
}

function report(stdout: string): ReplayReport {
  return ReplayReportSchema.parse(JSON.parse(stdout));
}

Deno.test("replay --with-history reproduces a reply that depends on an earlier turn; a single-turn replay cannot", async () => {
  await using w = await recorded();
  const [told, , question] = await records(w);
  assert.deepEqual(question.outbound?.map((p) => p.text), ["Your favourite colour is teal."]);
  // The record measured the conversation before the question: two user turns, and the note.
  assert.equal(told.history?.history_turns, 0);
  assert.equal(question.history?.history_turns, 2);
  assert.match(question.history?.working_state ?? "", /colour/);
  assert.match(question.history?.working_state ?? "", /teal/);

  await using single = await ModelMock.start();
  single.always("chat", rememberingModel);
  const alone = await replayQuestion(w, single, ["--json"]);
  assert.equal(alone.code, 0, alone.stderr);
  const [aloneTurn] = report(alone.stdout).turns;
  assert.equal(report(alone.stdout).against.with_history, false);
  assert.equal(aloneTurn.history, undefined);
  assert.deepEqual(aloneTurn.replay?.texts, ["I do not know your favourite colour."]);
  assert.equal(aloneTurn.diff?.text_changed, true);

  // Today's notes are gone: the replay must use the block the record kept.
  await Deno.remove(`${w.home}/working_state`, { recursive: true });
  await using whole = await ModelMock.start();
  whole.always("chat", rememberingModel);
  const before = w.sandbox.requests.length;
  const withHistory = await replayQuestion(w, whole, ["--with-history", "--json"]);
  assert.equal(withHistory.code, 0, withHistory.stderr);
  assert.deepEqual(w.sandbox.requests.slice(before), []);
  const full = report(withHistory.stdout);
  assert.equal(full.against.with_history, true);
  const [turn] = full.turns;
  assert.equal(turn.status, "replayed", turn.reason);
  assert.deepEqual(turn.replay?.texts, ["Your favourite colour is teal."]);
  assert.equal(turn.diff?.changed, false, JSON.stringify(turn.diff));
  assert.equal(turn.history?.turns, 2);
  assert.equal(turn.history?.messages, question.history?.history_messages);
  assert.equal(turn.history?.sha256, question.history?.history_sha256);
  assert.equal(turn.history?.bytes, question.history?.history_bytes);
  assert.equal(
    turn.history?.working_state_bytes,
    new TextEncoder().encode(question.history?.working_state ?? "").length,
  );
  // The request carried the earlier turns and the recorded working-state block, before the question.
  const sent = (whole.requestsTo("chat")[0].body as { messages: ChatMessage[] }).messages;
  const users = sent.filter((m) => m.role === "user").map((m) => m.content ?? "");
  assert.equal(users.length, 3);
  assert.match(users[0], /favourite colour is teal/);
  const block = sent.findIndex((m) =>
    m.role === "system" && m.content === question.history?.working_state
  );
  assert.ok(block > 0, "the recorded working-state block was sent");
  assert.ok(block < sent.findLastIndex((m) => m.role === "user"));

  const table = await replayQuestion(w, whole, ["--with-history"]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /after the recorded history/);
  assert.match(table.stdout, new RegExp(`2 turns ${question.history?.history_bytes}B`));
});

Deno.test("replay --with-history fails a turn whose transcript no longer holds its history, naming what is missing and the fix", async () => {
  await using w = await recorded();
  await using model = await ModelMock.start();
  model.always("chat", rememberingModel);
  const path = sessionPath(w);
  const saved = JSON.parse(await Deno.readTextFile(path)) as ChatMessage[];

  // Compacted: the earlier turns are gone, the question leads the file.
  const at = saved.findIndex((m) =>
    m.role === "user" && /what is my favourite/.test(m.content ?? "")
  );
  await Deno.writeTextFile(path, JSON.stringify(saved.slice(at)));
  const compacted = await replayQuestion(w, model, ["--with-history", "--json"]);
  assert.equal(compacted.code, 1, compacted.stderr);
  const [cut] = report(compacted.stdout).turns;
  assert.equal(cut.status, "failed");
  assert.match(
    cut.reason ?? "",
    /^no history: the transcript .*timeline%3A.*\.json no longer holds this turn/,
  );
  assert.match(
    cut.reason ?? "",
    new RegExp(`needs its ${at} earlier message\\(s\\) \\(2 user turn`),
  );
  assert.match(cut.reason ?? "", /replay this turn without --with-history/);
  assert.equal(model.hits(), 0, "a turn without its history is never sent to the model");

  // Edited: as many messages before the question, but not the ones it read.
  const edited = saved.map((m) =>
    m.role === "user" && /teal/.test(m.content ?? "")
      ? { ...m, content: (m.content ?? "").replace("teal", "mauve") }
      : m
  );
  await Deno.writeTextFile(path, JSON.stringify(edited));
  const changed = await replayQuestion(w, model, ["--with-history", "--json"]);
  assert.equal(changed.code, 1);
  assert.match(
    report(changed.stdout).turns[0].reason ?? "",
    /holds \d+ message\(s\) before this turn, but not the ones it read/,
  );
  assert.equal(model.hits(), 0);

  // Pruned: no transcript at all. Without the flag the same turn still replays.
  await Deno.remove(path);
  const pruned = await replayQuestion(w, model, ["--with-history"]);
  assert.equal(pruned.code, 1);
  assert.match(pruned.stdout, /failed: no history: the transcript .* has 0 message\(s\)/);
  const alone = await replayQuestion(w, model, ["--json"]);
  assert.equal(alone.code, 0, alone.stderr);
  assert.equal(report(alone.stdout).turns[0].status, "replayed");
});
