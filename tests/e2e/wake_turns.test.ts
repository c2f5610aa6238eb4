/**
 * The turn's edges, end to end (docs/context.md#the-step-budget,
 * docs/context.md#speech-and-the-no-reply-nudge) and the claim rules a real process must honour
 * (docs/home-layout.md#claims, docs/operating.md#the-delivery-guarantee): the no-reply nudge fires
 * once — for a mention on a multi-viewer timeline, for a one-on-one counterpart — and never for a
 * task; the step counter escalates and a spent budget ends in an unspoken reserve summary (or the
 * canned `stuck` note); a turn a compaction destroyed is abandoned; a live wake's claim is never
 * passed; a dead take-over is followed; a legacy empty claim reads as done.
 */
import assert from "node:assert/strict";
import { MENTION_NUDGE_HEAD, ONE_ON_ONE_NUDGE_HEAD } from "../../lib/wake/nudge.ts";
import { ClaimStore } from "../../lib/home/claims.ts";
import { chatCompletion } from "../support/model_mock.ts";
import {
  activatedTask,
  agentPosts,
  chatMessages,
  claimOf,
  mark,
  say,
  session,
  sessionPath,
  wakeFor,
  type World,
  world,
} from "./wake_support.ts";

const SILENT = { json: chatCompletion({ content: "Staying quiet." }) };

/** Nudges in request `i` after its newest user turn (the turn being engaged). */
function nudges(w: World, i: number): string[] {
  const all = chatMessages(w.model, i);
  return all.slice(all.findLastIndex((m) => m.role === "user")).filter((m) =>
    m.role === "system" &&
    (String(m.content).startsWith(MENTION_NUDGE_HEAD) ||
      String(m.content).startsWith(ONE_ON_ONE_NUDGE_HEAD))
  ).map((m) => String(m.content));
}

Deno.test("a mention on a multi-viewer timeline is nudged exactly once", async () => {
  await using w = await world({ third: true, routed: true });
  w.model.reply("chat", SILENT, SILENT);
  const asked = await say(w, "@ADA can you check this?");
  await w.settle();
  const result = wakeFor(w, asked.content.uuid);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 2); // one extra step, never a second nudge
  assert.deepEqual(nudges(w, 0), []);
  assert.equal(nudges(w, 1).length, 1);
  assert.ok(nudges(w, 1)[0].startsWith(MENTION_NUDGE_HEAD));
  assert.match(result.stderr, /step 1\/24: hook continue/);
  assert.deepEqual(await agentPosts(w), []); // informed, never forced
  // No mention on a multi-viewer timeline: silence is not nudged.
  w.model.reply("chat", SILENT);
  const chat = await say(w, "just chatting with carol");
  await w.settle();
  assert.equal(wakeFor(w, chat.content.uuid).code, 0);
  assert.equal(w.model.hits("chat"), 3);
});

Deno.test("a one-on-one message is nudged once; a task on a one-on-one never", async () => {
  await using w = await world({ routed: true });
  w.model.reply("chat", SILENT, SILENT);
  const hello = await say(w, "hello?");
  await w.settle();
  assert.equal(wakeFor(w, hello.content.uuid).code, 0);
  assert.equal(w.model.hits("chat"), 2);
  assert.ok(nudges(w, 1)[0].startsWith(ONE_ON_ONE_NUDGE_HEAD));
  const persisted = (await session(w)).filter((m) =>
    String(m.content ?? "").startsWith(ONE_ON_ONE_NUDGE_HEAD)
  );
  assert.equal(persisted.length, 1);

  // The agent's own task, activated: the router wakes the agent for it.
  w.model.reply("chat", SILENT);
  const activated = await activatedTask(w, "tidy up quietly");
  await w.settle();
  const task = w.history().find((r) => r.item === activated.content.uuid)!;
  assert.equal(task.event, "task.activated");
  assert.equal(task.code, 0, task.attempts[0]?.output);
  assert.equal(w.model.hits("chat"), 3); // no nudge step
  assert.deepEqual(nudges(w, 2), []);
});

Deno.test("the counter escalates; a spent budget ends in an unspoken reserve, not a post", async () => {
  await using w = await world({ third: true });
  await say(w, "keep looking");
  const look = {
    json: chatCompletion({
      toolCalls: [{ id: "call_0", name: "messages", arguments: { action: "list" } }],
    }),
  };
  w.model.reply("chat", look, look, {
    json: chatCompletion({ content: "Looked twice; more to do." }),
  });
  const result = await w.wake([], { HARNESS_MAX_STEPS: "2" });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 3);
  const note = chatMessages(w.model, 0).findLast((m) => m.role === "system")!;
  assert.match(String(note.content), /\n\nStep 1 of 2\. Steps are running low\./);
  assert.equal((w.model.requestsTo("chat")[2].body as { tools?: unknown }).tools, undefined);
  assert.match(result.stderr, /WARNING wake used 2\/2 steps \+ reserve summary/);
  assert.match(
    result.stderr,
    /INFO unspoken timeline=\S+ kind=reserve chars=\d+ text="Looked twice; more to do\."/,
  );
  assert.deepEqual(await agentPosts(w), []);

  // A reserve that produces no text degrades to the canned note, logged `stuck`.
  await say(w, "again");
  w.model.reply("chat", look, look, { json: chatCompletion({ content: "" }) });
  const stuck = await w.wake([], { HARNESS_MAX_STEPS: "2" });
  assert.equal(stuck.code, 0, stuck.stderr);
  assert.match(stuck.stderr, /WARNING degraded timeline=\S+ reason=/);
  assert.match(
    stuck.stderr,
    /unspoken timeline=\S+ kind=stuck chars=\d+ text="I got stuck working/,
  );
  assert.deepEqual(await agentPosts(w), []);
});

/** A pid that is certainly not running: a finished child's. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).spawn();
  await child.status;
  return child.pid;
}

Deno.test("an orphaned item whose turn a compaction destroyed is abandoned, not re-driven", async () => {
  await using w = await world();
  const m = await say(w, "old business");
  await new ClaimStore(w.home, { pid: await deadPid() }).claim(
    "messages",
    w.timeline,
    m.content.uuid,
  );
  await Deno.mkdir(`${w.home}/sessions`, { recursive: true });
  await Deno.writeTextFile(
    `${w.home}/sessions/timeline%3A${w.timeline}.json`,
    JSON.stringify([{
      role: "system",
      content: "[Earlier conversation compacted: 4 messages replaced by these notes.]\n\nnotes",
      items: [m.content.uuid],
    }]),
  );
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits(), 0);
  assert.deepEqual(await agentPosts(w), []);
  assert.match(
    result.stderr,
    new RegExp(
      `ERROR dropped item=${m.content.uuid} kind=message timeline=\\S+ handle=bob reason=`,
    ),
  );
  assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "abandoned");
  assert.equal(await mark(w, "messages"), m.content.uuid);
  // Settled now, the uuid is no longer evidence: the summary lets it go
  // (docs/context.md#the-context-budget).
  const [summary] = await session(w);
  assert.match(String(summary.content), /^\[Earlier conversation compacted/);
  assert.equal(summary.items, undefined);
});

Deno.test("an item a LIVE wake holds is skipped and the mark never passes it", async () => {
  await using w = await world({ third: true });
  const before = await say(w, "before");
  w.model.reply("chat", SILENT);
  assert.equal((await w.wake()).code, 0);
  const held = await say(w, "held by a live wake");
  const after = await say(w, "after it");
  // This test process is alive: its in-flight claim belongs to a wake that is still running.
  await new ClaimStore(w.home).claim("messages", w.timeline, held.content.uuid);
  w.model.reply("chat", SILENT);
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.match(chatMessages(w.model, 1).findLast((m) => m.role === "user")!.content!, /after it$/);
  assert.doesNotMatch(String(chatMessages(w.model, 1).at(-1)?.content), /held by/);
  assert.equal(await mark(w, "messages"), before.content.uuid); // stays before the held item
  assert.equal((await claimOf(w, "messages", held.content.uuid))?.phase, "in-flight");
  assert.equal((await claimOf(w, "messages", after.content.uuid))?.phase, "done");
});

Deno.test("evidence release: a summary keeps the uuid a live wake holds and drops the settled", async () => {
  await using w = await world({ third: true });
  const answered = await say(w, "answered earlier");
  w.model.reply("chat", SILENT);
  assert.equal((await w.wake()).code, 0);
  assert.equal((await claimOf(w, "messages", answered.content.uuid))?.phase, "done");
  const held = await say(w, "held by a live wake");
  await new ClaimStore(w.home).claim("messages", w.timeline, held.content.uuid);
  const neverClaimed = "0190a000-0000-7000-8000-00000000ffff";
  const evidence = [answered.content.uuid, held.content.uuid, neverClaimed];
  const transcript = [
    {
      role: "system",
      content: "[Earlier conversation compacted: 4 messages replaced by these notes.]\n\nnotes",
      items: evidence,
    },
    ...await session(w),
  ];
  await Deno.writeTextFile(sessionPath(w), JSON.stringify(transcript));
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits(), 1, "the held item engaged no turn");
  const [summary, ...rest] = await session(w);
  assert.deepEqual(summary.items, [held.content.uuid]);
  assert.deepEqual(rest, transcript.slice(1), "nothing else in the transcript moved");
});

Deno.test("the next wake indexes a settled claim, and the index changes nothing it decides", async () => {
  await using w = await world({ third: true });
  const first = await say(w, "first");
  w.model.reply("chat", SILENT);
  assert.equal((await w.wake()).code, 0);
  const index = `${w.home}/claims/messages/${w.timeline}/.settled`;
  // The wake's snapshot ran before it answered: the claim was not settled yet.
  await assert.rejects(Deno.stat(index), Deno.errors.NotFound);
  const idle = await w.wake();
  assert.equal(idle.code, 0, idle.stderr);
  const indexed = (await Deno.readTextFile(index)).split("\n").filter(Boolean);
  assert.deepEqual(indexed, [`${first.content.uuid}.claim`]);
  const second = await say(w, "second");
  w.model.reply("chat", SILENT);
  assert.equal((await w.wake()).code, 0);
  assert.equal(w.model.hits(), 2, "each message answered once");
  assert.equal(await mark(w, "messages"), second.content.uuid);
  assert.equal((await claimOf(w, "messages", second.content.uuid))?.phase, "done");
});

Deno.test("a dead take-over is followed through its token; an empty claim reads as done", async () => {
  await using w = await world();
  const m = await say(w, "orphaned twice");
  const legacy = await say(w, "legacy");
  // Wake A claimed m and died; wake B won the take-over token from A and died before rewriting
  // the claim. The recovery must judge B (the effective owner), not A.
  const a = new ClaimStore(w.home, { pid: await deadPid() });
  await a.claim("messages", w.timeline, m.content.uuid);
  const b = new ClaimStore(w.home, { pid: await deadPid() });
  const dir = `${w.home}/claims/messages/${w.timeline}`;
  await Deno.writeTextFile(
    `${dir}/.${m.content.uuid}.takeover.${a.wakeId}`,
    JSON.stringify({ phase: "in-flight", pid: b.pid, wake: b.wakeId, at: Date.now() / 1000 }),
  );
  await Deno.writeTextFile(`${dir}/${legacy.content.uuid}.claim`, ""); // legacy: done
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{
          id: "call_0",
          name: "messages",
          arguments: { action: "create", body: "Got it." },
        }],
      }),
    },
    { json: chatCompletion({ content: "Answered." }) },
  );
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, new RegExp(`WARNING re-driving item=${m.content.uuid} kind=message`));
  // Only m reached the model: the legacy-done message was never re-driven.
  const turn = chatMessages(w.model, 0).findLast((x) => x.role === "user")!;
  assert.match(String(turn.content), /orphaned twice$/);
  assert.deepEqual(await agentPosts(w), ["Got it."]);
  await Deno.stat(`${dir}/.${m.content.uuid}.takeover.${b.wakeId}`); // the chain grew by one hop
  assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "done");
});
