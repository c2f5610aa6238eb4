import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { NOW_INSTRUCTION } from "../../lib/wake/engaged/brief.ts";
import { agentPosts, assertMessageMark, say, scriptReply, wakeFor, world } from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("a peer message gets exactly one reply, bookends and an unspoken line", async () => {
  await using w = await world({ routed: true });
  scriptReply(w.model, "All good here.", "Told Bob the status.");
  const sent = await w.peer.client.messages.create(
    w.timeline,
    asUser("message", { body: "hi @ada, status?" }),
  );
  await w.settle();
  // The router delivered Bob's message (one wake, argv --timeline only) and then Ada's own
  // reply back to her, which costs at most an idle wake and never a second reply.
  const first = wakeFor(w, sent.content.uuid);
  const [asked, ...rest] = w.history();
  assert.equal(asked, first.record);
  assert.equal(asked.outcome, "woke");
  assert.ok(rest.every((r) => r.actor === w.agent.uuid && r.outcome !== "failed"));
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stderr,
    new RegExp(`INFO wake start timeline=\\S+ .* delivery=${asked.delivery}$`, "m"),
  );
  assert.deepEqual(await agentPosts(w), ["All good here."]);
  assert.match(first.stderr, /INFO wake start timeline=\S+ provider=openai model=scripted/);
  assert.match(first.stderr, /INFO posted message=\S+ timeline=\S+ kind=tool chars=14/);
  assert.match(
    first.stderr,
    /INFO unspoken timeline=\S+ kind=narration chars=20 text="Told Bob the status."/,
  );
  assert.match(
    first.stderr,
    /INFO wake end timeline=\S+ outcome=ok turns=1 steps=2\/24 posted=1 duration=\d+\.\d\ds/,
  );
  await assertMessageMark(w, sent.content.uuid);
  // The model saw the rendered line, the charter first and the brief before the user turn.
  const body = w.model.requestsTo("chat")[0].body as {
    messages: { role: string; content: string }[];
  };
  assert.equal(body.messages[0].role, "system");
  const user = body.messages.findIndex((m) => m.role === "user");
  assert.ok(body.messages[user - 1].content.startsWith("Current Time: "));
  assert.match(body.messages[user].content, /^\[\S+\] bob: hi @ada, status\?$/);
  // Neither half of the brief is persisted: not the volatile part (the step-budget statement,
  // the UTC instruction) and not the charter (initialize.md's heading). Step notes, which do
  // persist, also start with "Current Time: ", so that prefix alone proves nothing.
  const session = await Deno.readTextFile(`${w.home}/sessions/timeline%3A${w.timeline}.json`);
  assert.ok(body.messages[0].content.includes("How this runtime works"));
  for (const brief of ["Step budget:", NOW_INSTRUCTION, "How this runtime works"]) {
    assert.ok(!session.includes(brief), `persisted: ${brief}`);
  }

  // Another wake with nothing new: no model call, nothing posted, exit 0.
  const calls = w.model.hits("chat");
  const second = await w.wake();
  assert.equal(second.code, 0, second.stderr);
  assert.equal(w.model.hits("chat"), calls);
  assert.match(second.stderr, /wake end timeline=\S+ outcome=ok turns=0 steps=0\/24 posted=0/);
  assert.deepEqual(await agentPosts(w), ["All good here."]);
});

Deno.test("a deleted timeline is a clean skip with exit 0 and no model call", async () => {
  await using w = await world();
  await w.peer.client.timelines.delete(w.timeline);
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /INFO wake skipped timeline=\S+ reason=timeline_deleted/);
  assert.doesNotMatch(result.stderr, /wake start/);
  assert.equal(w.model.hits(), 0);
});

Deno.test("bad configuration exits 1 with one stderr line and a wake failed line", async () => {
  await using w = await world();
  const result = await w.wake([], { HARNESS_HOME: "" });
  assert.equal(result.code, 1);
  const lines = result.stderr.trim().split("\n");
  assert.equal(lines.filter((l) => l.startsWith("ERROR harness wake: ")).length, 1);
  // The last line carries a level the fleet's log parser extracts (as journald shows it, after
  // `<identifier>[pid]:`), like every journal line before it.
  const fleetLevel = / (CRITICAL|ERROR|WARNING|INFO|DEBUG) /;
  assert.match(lines.at(-1)!, /^ERROR harness wake: HARNESS_HOME is required/);
  for (const line of lines) assert.match(`basecradle-wake-ada[1]: ${line}`, fleetLevel, line);
  assert.match(result.stderr, /ERROR wake failed timeline=\S+ error="HARNESS_HOME is required/);
  assert.doesNotMatch(result.stderr, /\n\s+at /); // never a stack trace
});

Deno.test("usage: a missing or malformed timeline is exit 2", async () => {
  await using w = await world();
  const bad = await w.wake(["--message", "not-a-uuid"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--message must be a uuid/);
});

Deno.test("two wakes started at once on one message reply exactly once", async () => {
  await using w = await world();
  await w.peer.client.messages.create(w.timeline, asUser("message", { body: "ping" }));
  // Slow first reply: both wakes are in flight together; only one may win the claim.
  w.model.reply("chat", { delayMs: 1500, json: chatCompletionCall("pong") });
  w.model.always("chat", { json: chatCompletion({ content: "done" }) });
  const [a, b] = await Promise.all([w.wake(), w.wake()]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  assert.deepEqual(await agentPosts(w), ["pong"]);
});

function chatCompletionCall(body: string) {
  return chatCompletion({
    toolCalls: [{ id: "call_0", name: "messages", arguments: { action: "create", body } }],
  });
}

Deno.test("HARNESS_LOG_LEVEL=CRITICAL silences the journal; the wake still replies", async () => {
  await using w = await world();
  await w.peer.client.messages.create(w.timeline, asUser("message", { body: "hi @ada" }));
  scriptReply(w.model, "Hello.", "Greeted Bob.");
  const run = await w.wake([], { HARNESS_LOG_LEVEL: "CRITICAL" });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(await agentPosts(w), ["Hello."]);
  assert.doesNotMatch(run.stderr, /^(DEBUG|INFO|WARNING|ERROR) /m);
});

Deno.test("a trigger flag wins over its stale variable: a malformed BASECRADLE_MESSAGE it overrides is not an error", async () => {
  await using w = await world();
  const asked = await say(w, "@ada are you there?");
  scriptReply(w.model, "Here.");
  const result = await w.wake(["--message", asked.content.uuid], {
    BASECRADLE_MESSAGE: "not-a-uuid-left-over",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /wake end .*outcome=ok turns=1 /);
  // Without the flag, the same variable is the usage error it always was.
  const stale = await w.wake([], { BASECRADLE_MESSAGE: "not-a-uuid-left-over" });
  assert.equal(stale.code, 2);
  assert.match(stale.stderr, /--message must be a uuid, got 'not-a-uuid-left-over'/);
});
