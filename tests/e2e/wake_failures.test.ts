/**
 * Provider failures, the brief, and the journal, end to end
 * (docs/operating.md#provider-failures-and-the-billing-wall,
 * docs/context.md#the-charter-and-the-brief, docs/journal.md). Faults come from the wire: the
 * scripted model answers 413 / 400-overflow / 429 insufficient_quota / a plain 400, and the sandbox
 * injects a 403 or a failing `dashboard.md`.
 */
import assert from "node:assert/strict";
import { chatCompletion, openaiError } from "../support/model_mock.ts";
import {
  agentPosts,
  chatMessages,
  claimOf,
  mark,
  say,
  scriptReply,
  session,
  upload,
  world,
} from "./wake_support.ts";

const ESC = "\x1b";

const QUOTA = {
  status: 429,
  json: openaiError(
    "You exceeded your current quota, please check your plan and billing details.",
    {
      type: "insufficient_quota",
      code: "insufficient_quota",
    },
  ),
};

Deno.test("a billing wall posts one notice, leaves work pending, and self-heals", async () => {
  await using w = await world();
  const m = await say(w, "are you there?");
  const file = await upload(w, "later.txt");
  const markerPath = `${w.home}/billing/${w.timeline}.blocked`;
  // Every wake here is the asset's event retried by the router, so each carries it as trigger.
  const wake = () => w.wake(["--asset", file.content.uuid]);

  w.model.reply("chat", QUOTA);
  const first = await wake();
  assert.equal(first.code, 0, first.stderr);
  assert.equal(w.model.hits("chat"), 1); // the asset after the wall makes no model call
  const notice = (await agentPosts(w))[0];
  assert.match(
    notice,
    /^I can't respond right now — my OpenAI account is out of credit \(You exceeded your current quota/,
  );
  assert.match(
    notice,
    /Add funds to the OpenAI account to resume; pending messages will be handled then\.$/,
  );
  assert.match(
    first.stderr,
    /ERROR wake reported_failure kind=billing reason=out_of_funds provider=openai timeline=/,
  );
  // (The `context attribution` line names its transcript source; the report line does not.)
  assert.doesNotMatch(first.stderr, /reported_failure[^\n]*source=/);
  assert.equal(await mark(w, "messages"), undefined); // pending: never passed
  assert.equal(await mark(w, "assets"), undefined);
  await Deno.stat(markerPath);

  w.model.reply("chat", QUOTA);
  const second = await wake();
  assert.equal(second.code, 0, second.stderr);
  assert.equal((await agentPosts(w)).length, 1); // no second notice
  assert.match(second.stderr, /WARNING wake billing_blocked reason=out_of_funds provider=openai/);
  assert.equal(await mark(w, "messages"), undefined);

  scriptReply(w.model, "Back now — yes!");
  w.model.reply("chat", { json: chatCompletion({ content: "Looked at the file." }) });
  const third = await wake();
  assert.equal(third.code, 0, third.stderr);
  assert.match(third.stderr, /INFO wake billing_recovered timeline=/);
  assert.equal((await agentPosts(w))[0], "Back now — yes!");
  // Still a first wake (no mark yet): the mark lands on the window's newest, the notice, which
  // is past the pending message.
  const listed = await w.peer.client.messages.list({ timeline: w.timeline }).toArray();
  const noticeUuid = listed.find((x) => x.content.body === notice)!.content.uuid;
  assert.equal(await mark(w, "messages"), noticeUuid);
  assert.ok(noticeUuid > m.content.uuid);
  assert.equal(await mark(w, "assets"), file.content.uuid);
  await assert.rejects(Deno.stat(markerPath), Deno.errors.NotFound);
  const calls = w.model.hits("chat");
  assert.equal((await wake()).code, 0);
  assert.equal(w.model.hits("chat"), calls); // nothing left behind
});

Deno.test("payload too large is reported verbatim, committed, never re-driven", async () => {
  await using w = await world();
  const file = await upload(w, "huge.png");
  w.model.reply("chat", {
    status: 413,
    json: openaiError("Request entity too large: 31457280 bytes exceeds the limit."),
  });
  const result = await w.wake(["--asset", file.content.uuid], { NO_COLOR: "", FORCE_COLOR: "1" });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 1);
  // No image rode the request (the file is not a decodable PNG), so nothing is replayed.
  assert.doesNotMatch(result.stderr, /replaying once without them/);
  assert.deepEqual(await agentPosts(w), [
    "I couldn't process the file you shared (huge.png): OpenAI rejected the request — Request " +
    "entity too large: 31457280 bytes exceeds the limit.. The original file is untouched; a " +
    "smaller or cropped version may work.",
  ]);
  // Exactly one reported_failure line, head RED as a whole token, never `source=`.
  const lines = result.stderr.split("\n").filter((l) => l.includes("reported_failure"));
  assert.equal(lines.length, 1);
  assert.ok(
    lines[0].startsWith(
      "ERROR \x1b[31mwake reported_failure\x1b[0m kind=permanent reason=payload_too_large provider=openai",
    ),
    lines[0],
  );
  assert.doesNotMatch(result.stderr, /wake reported_failure kind=/); // the reset byte sits in the gap
  assert.equal((await claimOf(w, "assets", file.content.uuid))?.phase, "done");
  assert.equal(await mark(w, "assets"), file.content.uuid);
  const next = await w.wake();
  assert.equal(next.code, 0);
  assert.equal(w.model.hits("chat"), 1); // never re-driven
});

Deno.test("an uncompactable context overflow is reported, not looped", async () => {
  await using w = await world();
  const m = await say(w, "a long story");
  w.model.reply("chat", {
    status: 400,
    json: openaiError(
      "This model's maximum context length is 128000 tokens. Please reduce the length of the messages.",
      { code: "context_length_exceeded" },
    ),
  });
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  const [report] = await agentPosts(w);
  assert.match(
    report,
    /^I couldn't process your message: OpenAI rejected the request — This model's maximum context length/,
  );
  assert.match(report, /This conversation has grown too long for my context window here\.$/);
  assert.match(
    result.stderr,
    /ERROR wake reported_failure kind=permanent reason=context_length provider=openai item=/,
  );
  assert.equal(await mark(w, "messages"), m.content.uuid);
  const calls = w.model.hits("chat");
  assert.equal((await w.wake()).code, 0);
  assert.equal(w.model.hits("chat"), calls);
});

Deno.test("an idle wake composes no brief: no dashboard.md, no model call", async () => {
  await using w = await world();
  await say(w, "hi");
  scriptReply(w.model, "hello");
  assert.equal((await w.wake()).code, 0);
  const dashboards = () =>
    w.sandbox.requests.filter((r) => r.path === "/users/dashboard.md").length;
  assert.equal(dashboards(), 1); // the engaged wake fetched it once
  const idle = await w.wake();
  assert.equal(idle.code, 0, idle.stderr);
  assert.equal(dashboards(), 1);
  assert.equal(w.model.hits(), 2);
});

Deno.test("the brief reaches the model every wake and is never persisted, even on failure", async () => {
  await using w = await world();
  const primer = (await w.agent.client.users.dashboardMarkdown()).trim().split("\n")[0];
  await say(w, "one");
  scriptReply(w.model, "reply one");
  assert.equal((await w.wake()).code, 0);
  await say(w, "two");
  scriptReply(w.model, "reply two");
  assert.equal((await w.wake()).code, 0);
  for (const i of [0, 2]) {
    const msgs = chatMessages(w.model, i);
    const user = msgs.findLastIndex((m) => m.role === "user");
    const brief = msgs[user - 1];
    assert.equal(brief.role, "system");
    assert.match(
      String(brief.content),
      /^Current Time: .*\n[\s\S]*Step budget: [\s\S]*# Start here/,
    );
    assert.ok(String(brief.content).includes(primer));
  }
  // A failing wake (plain 400) persists no brief either.
  await say(w, "three");
  w.model.reply("chat", { status: 400, json: openaiError("Unknown parameter: 'foo'.") });
  const failed = await w.wake();
  assert.equal(failed.code, 1);
  const text = JSON.stringify(await session(w));
  assert.doesNotMatch(text, /Step budget:|# Start here|Current Time: \S+ \S+ UTC \(/);
  assert.match(text, /\[turn failed: /);
});

Deno.test("a dashboard.md failure only omits that part; the wake still replies", async () => {
  await using w = await world();
  await say(w, "hi there");
  w.sandbox.addFault({ path: "^/users/dashboard\\.md$", status: 500 });
  scriptReply(w.model, "hello!");
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(await agentPosts(w), ["hello!"]);
  const msgs = chatMessages(w.model, 0);
  const brief = String(msgs[msgs.findLastIndex((m) => m.role === "user") - 1].content);
  assert.match(brief, /^Current Time: /);
  assert.match(brief, /Step budget: /);
  assert.doesNotMatch(brief, /# Start here/);
  assert.ok(w.sandbox.requests.some((r) => r.path === "/users/dashboard.md" && r.status === 500));
});

Deno.test("bookends are colored whole tokens, carry delivery=, and NO_COLOR strips ESC", async () => {
  await using w = await world();
  await say(w, "hi");
  scriptReply(w.model, "hey");
  const colored = await w.wake([], {
    NO_COLOR: "",
    FORCE_COLOR: "1",
    BASECRADLE_DELIVERY_ID: "dlv-42",
  });
  assert.equal(colored.code, 0, colored.stderr);
  const lines = colored.stderr.split("\n");
  const start = lines.find((l) => l.includes("wake start"))!;
  assert.match(start, /timeline=\S+ provider=openai model=scripted delivery=dlv-42$/);
  assert.ok(start.startsWith(`INFO ${ESC}[32mwake start${ESC}[0m timeline=`), start);
  const end = lines.find((l) => l.includes("wake end"))!;
  assert.ok(
    end.startsWith(`INFO ${ESC}[34mwake end${ESC}[0m timeline=`) &&
      end.includes(` ${ESC}[32moutcome=ok${ESC}[0m turns=1 steps=2/24 posted=1 duration=`) &&
      end.endsWith(" delivery=dlv-42"),
    end,
  );
  const plain = await w.wake();
  assert.ok(!plain.stderr.includes(ESC));
  assert.doesNotMatch(plain.stderr, /delivery=/);
  assert.match(plain.stderr, /INFO wake end timeline=\S+ outcome=ok turns=0 steps=0\/24 posted=0/);
});

Deno.test("a provider error still ends `outcome=error`; a 403 timeline fails loudly", async () => {
  await using w = await world();
  await say(w, "hi");
  w.model.reply("chat", { status: 400, json: openaiError("Unsupported value: 'temperature'.") });
  const broke = await w.wake();
  assert.equal(broke.code, 1);
  assert.match(
    broke.stderr,
    /INFO wake end timeline=\S+ outcome=error turns=1 steps=1\/24 posted=0/,
  );
  assert.match(broke.stderr, /ERROR wake failed timeline=\S+ error=/);
  assert.equal(
    broke.stderr.split("\n").filter((l) => l.startsWith("ERROR harness wake: ")).length,
    1,
  );

  w.sandbox.addFault({ path: `^/timelines/${w.timeline}$`, method: "GET", status: 403 });
  const forbidden = await w.wake();
  assert.equal(forbidden.code, 1);
  assert.match(forbidden.stderr, /ERROR wake failed timeline=\S+ error=/);
  assert.doesNotMatch(forbidden.stderr, /wake skipped/);
});
