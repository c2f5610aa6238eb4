/**
 * Crash points (docs/operating.md#if-a-wake-dies-mid-turn-the-work-is-not-lost; invariants 3 and
 * 4 of docs/invariants.md): a real wake process is SIGKILLed at a named point, then a recovery wake
 * runs, and the test proves ZERO duplicate posts and ZERO lost items — from the sandbox's own
 * records (the messages on the timeline, `GET /_sandbox/events`, the Idempotency-Key on every
 * create it served) and the recovery's journal lines.
 *
 * The kill points are reached without any hook in production code:
 * - (a) before the model answered: the scripted model holds its reply (`delayMs`) and the kill
 *   lands while the call is pending;
 * - (b) after the assistant turn naming the create is on disk but before the create ran: the
 *   same turn first calls a slow non-create tool (`users list`, held by a sandbox `delay_ms`);
 * - (c) while the create is in flight: a sandbox `delay_ms` fault on the create's path; and the
 *   lost-response variant, where the dead wake's create commits after the kill;
 * - (d) after the create returned: the SECOND model call is held and the kill lands there;
 * - (e) before the mark / seen-set advanced: a two-item wake is killed in item 2's model call,
 *   after item 1 was committed (and, for messages, a turn that finished but was never committed).
 *
 * Polling the transcript file tells the test when the assistant turn is saved.
 */
import assert from "node:assert/strict";
import { ClaimStore } from "../../lib/home/claims.ts";
import { idempotencyKey } from "../../lib/platform/mod.ts";
import { chatCompletion, type ModelMock } from "../support/model_mock.ts";
import { SideBySide } from "../support/side_by_side.ts";
import {
  activatedTask,
  agentPosts,
  chatMessages,
  claimOf,
  deliver,
  mark,
  messageCreateKeys,
  NO_CATCH_UP,
  say,
  seenTasks,
  session,
  spawnWake,
  upload,
  waitFor,
  type World,
  world,
} from "./wake_support.ts";

const HOLD = 30_000; // long enough never to answer: the kill always lands first

/**
 * Starts a wake (with `args`) and SIGKILLs it once the model has been asked `calls` times: the
 * scripts hold that call, so the wake dies with it in flight.
 */
async function killAtModelCall(
  w: World,
  calls: number,
  what: string,
  args: string[] = [],
): Promise<void> {
  const dying = spawnWake(w, args);
  await waitFor(what, () => w.model.hits("chat") >= calls, 20_000, dying.stderr);
  await dying.kill();
}

/** Each scenario has its own world; most of their time is spent waiting on a wake process. */
const sideBySide = new SideBySide(4);

function createCall(body: string, id = "call_0") {
  return { id, name: "messages", arguments: { action: "create", body } };
}

function calls(...list: ReturnType<typeof createCall>[]) {
  return { json: chatCompletion({ toolCalls: list }) };
}

function text(content: string, delayMs?: number) {
  return { json: chatCompletion({ content }), delayMs };
}

/**
 * Waits until the sandbox holds the dying wake's create (`POST /timelines/<t>/<kind>`): its delay
 * fault keeps the request unanswered, so a kill now lands while the create is in flight.
 */
async function held(w: World, kind: "messages" | "tasks"): Promise<void> {
  const path = `/timelines/${w.timeline}/${kind}`;
  await waitFor(
    `the ${kind} create to reach the sandbox`,
    () => w.sandbox.pending.some((r) => r.method === "POST" && r.path === path),
    10_000,
  );
}

/** Whether the saved transcript holds an assistant turn calling `tool`. */
async function assistantCalled(w: World, tool: string): Promise<boolean> {
  return (await session(w)).some((m) =>
    m.role === "assistant" &&
    (m.tool_calls as { name: string }[] | undefined)?.some((c) => c.name === tool)
  );
}

/** Agent-authored `message.created` events the sandbox emitted. */
function agentMessageEvents(w: World): number {
  return w.sandbox.events().filter((e) => e.event === "message.created" && e.actor === w.agent.uuid)
    .length;
}

function key(w: World, anchor: string, kind: "message" | "task" | "asset", ordinal = 1) {
  return idempotencyKey({ timeline: w.timeline, anchor, kind, ordinal });
}

/** Runs the recovery wake and a follow-up idle wake; returns the recovery's stderr. */
async function recover(w: World, model: ModelMock): Promise<string> {
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  const before = model.hits("chat");
  const idle = await w.wake();
  assert.equal(idle.code, 0, idle.stderr);
  assert.equal(model.hits("chat"), before, "a third wake finds nothing left to do");
  assert.match(idle.stderr, /turns=0 steps=0\/24 posted=0/);
  return result.stderr;
}

// ---------------------------------------------------------------------------------------------
// Messages

Deno.test(
  sideBySide.test("crash (a) messages: killed while the model call is pending ⇒ re-driven, one reply", async () => {
    await using w = await world(NO_CATCH_UP);
    const m = await say(w, "ping");
    w.model.reply(
      "chat",
      { ...calls(createCall("pong")), delayMs: HOLD },
      calls(createCall("pong")),
    );
    w.model.reply("chat", text("Answered."));
    await killAtModelCall(w, 1, "the model call");
    // The user turn was on disk before the model saw it; the claim is left in flight.
    const turn = (await session(w)).find((x) => x.role === "user");
    assert.deepEqual(turn?.items, [m.content.uuid]);
    assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "in-flight");
    assert.deepEqual(await agentPosts(w), []);

    const log = await recover(w, w.model);
    assert.match(
      log,
      new RegExp(
        `WARNING re-driving item=${m.content.uuid} kind=message timeline=${w.timeline} handle=bob ` +
          `reason="the wake died inside the model call"`,
      ),
    );
    assert.deepEqual(await agentPosts(w), ["pong"]);
    assert.equal(agentMessageEvents(w), 1);
    assert.deepEqual(messageCreateKeys(w).slice(1), [await key(w, m.content.uuid, "message")]);
    assert.equal(await mark(w, "messages"), await newest(w));
    assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "done");
    // The dead turn was excised: exactly one user turn carries the item.
    const carrying = (await session(w)).filter((x) =>
      x.role === "user" && (x.items as string[] | undefined)?.includes(m.content.uuid)
    );
    assert.equal(carrying.length, 1);
  }),
);

Deno.test(
  sideBySide.test("crash (b) messages: killed after the tool-call turn was saved, before the create ran", async () => {
    await using w = await world(NO_CATCH_UP);
    const m = await say(w, "who is here?");
    w.sandbox.addFault({ path: "^/users$", method: "GET", delay_ms: HOLD });
    w.model.reply("chat", {
      json: chatCompletion({
        toolCalls: [
          { id: "call_0", name: "users", arguments: { action: "list" } },
          createCall("Just us two.", "call_1"),
        ],
      }),
    });
    w.model.reply("chat", text("Listed and answered."));
    const dying = spawnWake(w);
    // While the first tool runs, the turn naming BOTH calls is already on disk.
    await waitFor(
      "the saved tool-call turn",
      () => assistantCalled(w, "messages"),
      20_000,
      dying.stderr,
    );
    await dying.kill();
    assert.equal(messageCreateKeys(w).length, 1); // only the peer's post: the create never ran

    const log = await recover(w, w.model);
    assert.match(log, /WARNING Loaded a transcript with 2 interrupted tool call\(s\)/);
    assert.match(log, new RegExp(`WARNING resuming item=${m.content.uuid} kind=message`));
    assert.match(log, /WARNING re-issued tool=messages kind=message ordinal=1 timeline=/);
    assert.deepEqual(await agentPosts(w), ["Just us two."]);
    assert.equal(agentMessageEvents(w), 1);
    assert.deepEqual(messageCreateKeys(w).slice(1), [await key(w, m.content.uuid, "message")]);
    // The non-create call is never re-run: the model is shown the interrupted sentinel instead.
    assert.equal(w.sandbox.requests.filter((r) => r.path === "/users").length, 0);
    const resumed = chatMessages(w.model, 1);
    const results = resumed.filter((x) => x.role === "tool");
    assert.match(String(results[0].content), /^\[Interrupted: this wake was killed/);
    assert.doesNotMatch(String(results[1].content), /^\[Interrupted/);
    assert.equal(await mark(w, "messages"), await newest(w));
  }),
);

Deno.test(
  sideBySide.test("crash (c) messages: killed while the create is in flight ⇒ re-issued under the same key", async () => {
    await using w = await world(NO_CATCH_UP);
    const m = await say(w, "ping");
    const path = `^/timelines/${w.timeline}/messages$`;
    // Long enough that the kill, and the recovery after it, land while the create is held, however
    // loaded the machine.
    w.sandbox.addFault({ path, method: "POST", delay_ms: 4000 });
    w.model.reply("chat", calls(createCall("pong")), text("Answered."));
    const dying = spawnWake(w);
    await waitFor("the saved tool-call turn", () => assistantCalled(w, "messages"));
    await held(w, "messages");
    await dying.kill();
    // Recover while the dead wake's create is still held (it has not committed yet).
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING resuming item=${m.content.uuid} kind=message`));
    assert.match(log, /WARNING re-issued tool=messages kind=message ordinal=1 timeline=/);
    // The held create lands later with the SAME key and gets the original back: one message.
    await waitFor("the held create to finish", () => messageCreateKeys(w).length === 3, 20_000);
    const expected = await key(w, m.content.uuid, "message");
    assert.deepEqual(messageCreateKeys(w).slice(1), [expected, expected]);
    assert.deepEqual(await agentPosts(w), ["pong"]);
    assert.equal(agentMessageEvents(w), 1);
    assert.equal(await mark(w, "messages"), await newest(w));
  }),
);

Deno.test(
  sideBySide.test("crash (c′) messages: the create committed but its response was lost ⇒ no second post", async () => {
    await using w = await world(NO_CATCH_UP);
    const m = await say(w, "ping");
    // Delay, then process for real and answer 504: the dead wake's create commits after the kill.
    w.sandbox.addFault({
      path: `^/timelines/${w.timeline}/messages$`,
      method: "POST",
      delay_ms: 3000,
      status: 504,
      commit: true,
    });
    w.model.reply("chat", calls(createCall("pong")), text("Answered."));
    const dying = spawnWake(w);
    await waitFor(
      "the saved tool-call turn",
      () => assistantCalled(w, "messages"),
      20_000,
      dying.stderr,
    );
    await held(w, "messages");
    await dying.kill();
    await waitFor("the dead wake's create to commit", () => agentMessageEvents(w) === 1, 20_000);
    assert.deepEqual(await agentPosts(w), ["pong"]);

    const log = await recover(w, w.model);
    assert.match(log, /WARNING re-issued tool=messages kind=message ordinal=1/);
    assert.deepEqual(await agentPosts(w), ["pong"]);
    assert.equal(agentMessageEvents(w), 1);
    const expected = await key(w, m.content.uuid, "message");
    assert.deepEqual(messageCreateKeys(w).slice(1), [expected, expected]);
    // The model's continuation sees the real result (the original record), not the sentinel.
    const tool = chatMessages(w.model, 1).filter((x) => x.role === "tool").at(-1)!;
    assert.doesNotMatch(String(tool.content), /Interrupted/);
  }),
);

Deno.test(
  sideBySide.test("crash (d) messages: killed after the create returned ⇒ resumed, never re-driven", async () => {
    await using w = await world(NO_CATCH_UP);
    const m = await say(w, "ping");
    w.model.reply("chat", calls(createCall("pong")), text("never seen", HOLD));
    w.model.reply("chat", text("Answered after a restart."));
    await killAtModelCall(w, 2, "the second model call");
    assert.deepEqual(await agentPosts(w), ["pong"]);

    const primers = () => w.sandbox.requests.filter((r) => r.path === "/users/dashboard.md").length;
    const before = primers();
    const log = await recover(w, w.model);
    // The resumed turn is the wake's first: its brief still carries the dashboard primer.
    assert.equal(primers() - before, 1);
    assert.match(log, /context attribution .* brief_dashboard=\d+/);
    assert.match(
      log,
      new RegExp(
        `WARNING resuming item=${m.content.uuid} kind=message timeline=\\S+ handle=bob ` +
          `reason="the wake died mid-tool-chain; finishing the turn it started"`,
      ),
    );
    assert.doesNotMatch(log, /re-issued|re-driving/);
    assert.match(
      log,
      /unspoken timeline=\S+ kind=narration chars=\d+ text="Answered after a restart\."/,
    );
    // One POST in total; the model was shown the original turn, its call and its result.
    assert.deepEqual(await agentPosts(w), ["pong"]);
    assert.equal(agentMessageEvents(w), 1);
    assert.equal(messageCreateKeys(w).length, 2);
    const shown = chatMessages(w.model, 2);
    const user = shown.findLastIndex((x) => x.role === "user");
    assert.match(String(shown[user].content), /bob: ping$/);
    const after = shown.slice(user);
    assert.ok(after.some((x) => x.role === "assistant" && x.tool_calls?.length));
    assert.ok(after.some((x) => x.role === "tool" && /pong|uuid/i.test(String(x.content))));
    assert.equal(await mark(w, "messages"), await newest(w));
    assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "done");
  }),
);

Deno.test(
  sideBySide.test("crash (a) batched messages: both re-driven as one turn; every claim of the batch settles", async () => {
    await using w = await world(NO_CATCH_UP);
    await say(w, "hello, I'm around", w.agent); // the first wake answers all that came after it
    const first = await say(w, "one");
    const second = await say(w, "two");
    w.model.reply(
      "chat",
      { ...calls(createCall("both")), delayMs: HOLD },
      calls(createCall("both")),
    );
    w.model.reply("chat", text("Answered."));
    await killAtModelCall(w, 1, "the model call");
    for (const m of [first, second]) {
      assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "in-flight");
    }
    await recover(w, w.model);
    assert.deepEqual(await agentPosts(w), ["both", "hello, I'm around"]);
    assert.equal(agentMessageEvents(w), 2); // its greeting and the one reply;
    for (const m of [first, second]) {
      assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "done", m.content.body);
    }
    assert.equal(await mark(w, "messages"), await newest(w));
  }),
);

Deno.test(
  sideBySide.test("crash (d) batched messages: resumed mid-tool-chain; every claim of the batch settles", async () => {
    await using w = await world(NO_CATCH_UP);
    await say(w, "hello, I'm around", w.agent); // the first wake answers all that came after it
    const first = await say(w, "one");
    const second = await say(w, "two");
    const third = await say(w, "three");
    w.model.reply("chat", calls(createCall("all three")), text("never seen", HOLD));
    w.model.reply("chat", text("Answered after a restart."));
    await killAtModelCall(w, 2, "the second model call");
    const batch = [first, second, third];
    for (const m of batch) {
      assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "in-flight");
    }
    const log = await recover(w, w.model);
    assert.match(log, /WARNING resuming item=/);
    assert.deepEqual(await agentPosts(w), ["all three", "hello, I'm around"]);
    assert.equal(agentMessageEvents(w), 2); // its greeting and the one reply;
    for (const m of batch) {
      assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "done", m.content.body);
    }
    assert.equal(await mark(w, "messages"), await newest(w));
  }),
);

Deno.test(
  sideBySide.test("crash (e) messages: a turn that finished but was never committed is committed, not re-run", async () => {
    await using w = await world(NO_CATCH_UP);
    const m = await say(w, "ping");
    // The state a wake killed between its closing text and its commit leaves behind.
    const dead = await deadPid();
    await new ClaimStore(w.home, { pid: dead }).claim("messages", w.timeline, m.content.uuid);
    const line = `[${m.created_at}] bob: ping`;
    await Deno.mkdir(`${w.home}/sessions`, { recursive: true });
    await Deno.writeTextFile(
      `${w.home}/sessions/timeline%3A${w.timeline}.json`,
      JSON.stringify([
        { role: "user", content: line, items: [m.content.uuid] },
        { role: "assistant", content: "Nothing to add." },
      ]),
    );
    const log = await recover(w, w.model);
    assert.equal(w.model.hits(), 0);
    assert.match(
      log,
      new RegExp(
        `INFO recovered item=${m.content.uuid} kind=message timeline=\\S+ handle=bob action=turn-completed`,
      ),
    );
    assert.equal(await mark(w, "messages"), await newest(w));
    assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "done");
    assert.deepEqual(await agentPosts(w), []);
  }),
);

// ---------------------------------------------------------------------------------------------
// Assets

Deno.test(
  sideBySide.test("crash (a) assets: killed in the model call ⇒ re-driven once", async () => {
    await using w = await world(NO_CATCH_UP);
    const a = await upload(w, "notes.txt");
    w.model.reply("chat", { ...calls(createCall("Got the file.")), delayMs: HOLD });
    w.model.reply("chat", calls(createCall("Got the file.")), text("Acknowledged."));
    await killAtModelCall(w, 1, "the model call", ["--asset", a.content.uuid]); // the router's trigger
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING re-driving item=${a.content.uuid} kind=asset`));
    assert.deepEqual(await agentPosts(w), ["Got the file."]);
    assert.deepEqual(messageCreateKeys(w), [await key(w, a.content.uuid, "message")]);
    assert.equal(await mark(w, "assets"), a.content.uuid);
  }),
);

Deno.test(
  sideBySide.test("crash (c) assets: killed while the reply's create is in flight ⇒ one reply", async () => {
    await using w = await world(NO_CATCH_UP);
    const a = await upload(w, "notes.txt");
    w.sandbox.addFault({
      path: `^/timelines/${w.timeline}/messages$`,
      method: "POST",
      delay_ms: 3000,
    });
    w.model.reply("chat", calls(createCall("Got the file.")), text("Acknowledged."));
    const dying = spawnWake(w, ["--asset", a.content.uuid]); // the router's trigger
    await waitFor(
      "the saved tool-call turn",
      () => assistantCalled(w, "messages"),
      20_000,
      dying.stderr,
    );
    await held(w, "messages");
    await dying.kill();
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING resuming item=${a.content.uuid} kind=asset`));
    assert.match(log, /WARNING re-issued tool=messages kind=message ordinal=1/);
    await waitFor("the held create to finish", () => messageCreateKeys(w).length === 2, 20_000);
    const expected = await key(w, a.content.uuid, "message");
    assert.deepEqual(messageCreateKeys(w), [expected, expected]);
    assert.deepEqual(await agentPosts(w), ["Got the file."]);
    assert.equal(await mark(w, "assets"), a.content.uuid);
  }),
);

Deno.test(
  sideBySide.test("crash (d) assets: killed after the create returned ⇒ resumed, one reply", async () => {
    await using w = await world(NO_CATCH_UP);
    const a = await upload(w, "notes.txt");
    w.model.reply("chat", calls(createCall("Got the file.")), text("x", HOLD), text("Done."));
    await killAtModelCall(w, 2, "the second model call", ["--asset", a.content.uuid]); // the router's trigger
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING resuming item=${a.content.uuid} kind=asset`));
    assert.doesNotMatch(log, /re-issued/);
    assert.deepEqual(await agentPosts(w), ["Got the file."]);
    assert.equal((await claimOf(w, "assets", a.content.uuid))?.phase, "done");
    assert.equal(await mark(w, "assets"), a.content.uuid);
  }),
);

Deno.test(
  sideBySide.test("crash (e) assets: killed in item 2 after item 1 committed ⇒ item 1 not re-run, mark catches up", async () => {
    await using w = await world(NO_CATCH_UP);
    // The agent's own file: the first wake marks it without a turn (the self-filter).
    await upload(w, "zero.txt", { who: w.agent });
    assert.equal((await w.wake()).code, 0);
    const a1 = await upload(w, "one.txt");
    const a2 = await upload(w, "two.txt");
    w.model.reply("chat", calls(createCall("Got one.")), text("One done."));
    w.model.reply("chat", { ...calls(createCall("Got two.")), delayMs: HOLD });
    w.model.reply("chat", calls(createCall("Got two.")), text("Two done."));
    await killAtModelCall(w, 3, "item 2's model call");
    assert.equal((await claimOf(w, "assets", a1.content.uuid))?.phase, "done");
    assert.notEqual(await mark(w, "assets"), a2.content.uuid); // died before the mark advanced
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING re-driving item=${a2.content.uuid} kind=asset`));
    assert.equal(w.model.hits("chat"), 5); // only item 2 went back to the model
    assert.deepEqual(await agentPosts(w), ["Got two.", "Got one."]);
    assert.equal(await mark(w, "assets"), a2.content.uuid);
  }),
);

// ---------------------------------------------------------------------------------------------
// Tasks (the create here is a follow-up task: a keyed `tasks` create)

function scheduleCall(instructions: string) {
  return {
    json: chatCompletion({
      toolCalls: [{
        id: "call_0",
        name: "tasks",
        arguments: { action: "create", instructions, activate_at: "+1d" },
      }],
    }),
  };
}

async function pendingTasks(w: World, instructions: string): Promise<number> {
  const all = await w.agent.client.tasks.list({ timeline: w.timeline, status: "pending" })
    .toArray();
  return all.filter((t) => t.content.instructions === instructions).length;
}

function taskCreateKeys(w: World): (string | null)[] {
  return w.sandbox.requests
    .filter((r) => r.method === "POST" && r.path === `/timelines/${w.timeline}/tasks`)
    .map((r) => r.idempotencyKey);
}

Deno.test(
  sideBySide.test("crash (a) tasks: killed in the model call ⇒ re-driven; seen-set gets it once", async () => {
    await using w = await world(NO_CATCH_UP);
    const t = await activatedTask(w, "check the build");
    w.model.reply("chat", { ...scheduleCall("check again"), delayMs: HOLD });
    w.model.reply("chat", scheduleCall("check again"), text("Rescheduled."));
    await killAtModelCall(w, 1, "the model call");
    assert.deepEqual(await seenTasks(w), []);
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING re-driving item=${t.content.uuid} kind=task`));
    assert.equal(await pendingTasks(w, "check again"), 1);
    assert.deepEqual(await seenTasks(w), [t.content.uuid]);
  }),
);

Deno.test(
  sideBySide.test("crash (c) tasks: killed while the follow-up task create is in flight ⇒ one task", async () => {
    await using w = await world(NO_CATCH_UP);
    const t = await activatedTask(w, "check the build");
    w.sandbox.addFault({
      path: `^/timelines/${w.timeline}/tasks$`,
      method: "POST",
      delay_ms: 3000,
    });
    w.model.reply("chat", scheduleCall("check again"), text("Rescheduled."));
    const dying = spawnWake(w);
    await waitFor(
      "the saved tool-call turn",
      () => assistantCalled(w, "tasks"),
      20_000,
      dying.stderr,
    );
    await held(w, "tasks");
    await dying.kill();
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING resuming item=${t.content.uuid} kind=task`));
    assert.match(log, /WARNING re-issued tool=tasks kind=task ordinal=1 timeline=/);
    await waitFor("the held create to finish", () => taskCreateKeys(w).length === 3, 20_000);
    const expected = await key(w, t.content.uuid, "task");
    // [the test's own schedule (unkeyed), the dead wake's, the re-issue] — one key, one task.
    assert.deepEqual(taskCreateKeys(w).slice(1).sort(), [expected, expected]);
    assert.equal(await pendingTasks(w, "check again"), 1);
    assert.deepEqual(await seenTasks(w), [t.content.uuid]);
  }),
);

Deno.test(
  sideBySide.test("crash (d) tasks: killed after the create returned ⇒ resumed, one task", async () => {
    await using w = await world(NO_CATCH_UP);
    const t = await activatedTask(w, "check the build");
    w.model.reply("chat", scheduleCall("check again"), text("x", HOLD), text("Rescheduled."));
    await killAtModelCall(w, 2, "the second model call");
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING resuming item=${t.content.uuid} kind=task`));
    assert.doesNotMatch(log, /re-issued/);
    assert.equal(await pendingTasks(w, "check again"), 1);
    assert.deepEqual(await seenTasks(w), [t.content.uuid]);
  }),
);

Deno.test(
  sideBySide.test("crash (e) tasks: killed in task 2 after task 1 committed ⇒ task 1 never re-run", async () => {
    await using w = await world(NO_CATCH_UP);
    const t1 = await activatedTask(w, "first chore");
    const t2 = await activatedTask(w, "second chore");
    w.model.reply("chat", text("First done."));
    w.model.reply("chat", { ...text("Second done."), delayMs: HOLD }, text("Second done."));
    await killAtModelCall(w, 2, "task 2's model call");
    assert.equal((await claimOf(w, "tasks", t1.content.uuid))?.phase, "done");
    assert.deepEqual(await seenTasks(w), []); // died before the seen-set was written
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING re-driving item=${t2.content.uuid} kind=task`));
    assert.equal(w.model.hits("chat"), 3);
    assert.deepEqual((await seenTasks(w)).sort(), [t1.content.uuid, t2.content.uuid].sort());
  }),
);

// ---------------------------------------------------------------------------------------------
// Webhook events

Deno.test(
  sideBySide.test("crash (a)+(d) webhook events: re-driven from the model call, resumed after the create", async () => {
    await using w = await world(NO_CATCH_UP);
    const e1 = await deliver(w, '{"build":"red"}');
    w.model.reply("chat", { ...calls(createCall("Build is red.")), delayMs: HOLD });
    w.model.reply("chat", calls(createCall("Build is red.")), text("x", HOLD));
    w.model.reply("chat", text("Reported."));
    await killAtModelCall(w, 1, "the model call", ["--event", e1.content.uuid]); // the router's trigger
    // The recovery itself is killed after its create returned (point d) …
    const second = spawnWake(w);
    await waitFor(
      "the recovery's second model call",
      () => w.model.hits("chat") >= 3,
      20_000,
      second.stderr,
    );
    await second.kill();
    assert.match(
      second.stderr(),
      new RegExp(`WARNING re-driving item=${e1.content.uuid} kind=event`),
    );
    // … and a third wake finishes the turn: still exactly one post.
    const log = await recover(w, w.model);
    assert.match(log, new RegExp(`WARNING resuming item=${e1.content.uuid} kind=event`));
    assert.deepEqual(await agentPosts(w), ["Build is red."]);
    assert.deepEqual(messageCreateKeys(w), [await key(w, e1.content.uuid, "message")]);
    assert.equal(await mark(w, "webhook_events"), e1.content.uuid);
  }),
);

/** The newest message on the timeline: where the mark sits once every item is final. */
async function newest(w: World): Promise<string> {
  const [top] = await w.peer.client.messages.list({ timeline: w.timeline, limit: 1 }).toArray();
  return top.content.uuid;
}

/** A pid that is certainly not running: a finished child's. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).spawn();
  await child.status;
  return child.pid;
}
