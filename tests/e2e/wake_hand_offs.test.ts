/**
 * Refusal and truncation as hand-offs, end to end (docs/security.md#refusal-and-truncation-are-hand-offs):
 * the real `harness wake` against the sandbox and a scripted model. A model refusal — chat
 * `refusal`, Responses refusal part, Anthropic `stop_reason: refusal` — ends the turn with
 * result `refused`, the WARNING `turn handed off` line and (escalation on) one `model_refused`
 * notice, and nothing is posted; a reply cut in its text is `truncated` with its WARNING and no
 * notice; a reply cut in a tool call is asked again once and the whole call then runs.
 */
import assert from "node:assert/strict";
import { anthropicMessage, chatCompletion, responsesReply } from "../support/model_mock.ts";
import { startStub } from "../support/http_stub.ts";
import { runCli } from "../support/run_cli.ts";
import { agentPosts, messageCreateKeys, say, type World, world } from "./wake_support.ts";

const TOKEN = "tk_e2e_hand_off_secret";

async function escalationOn(w: World): Promise<void> {
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/config/escalation.json`, '{"enabled": true}');
}

function ntfyEnv(url: string): Record<string, string> {
  return { NTFY_DM_TOKEN: TOKEN, NTFY_DM_URL: `${url}/alerts` };
}

/** The one turn record of the world's timeline. */
async function record(w: World): Promise<Record<string, unknown>> {
  const text = await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`);
  const lines = text.trim().split("\n");
  assert.equal(lines.length, 1, text);
  return JSON.parse(lines[0]);
}

/** A chat completion whose choice is edited (finish reason, refusal). */
function chatWith(
  options: Parameters<typeof chatCompletion>[0],
  edit: (choice: Record<string, unknown>, message: Record<string, unknown>) => void,
): Record<string, unknown> {
  const body = chatCompletion(options);
  const choice = (body.choices as Record<string, unknown>[])[0];
  edit(choice, choice.message as Record<string, unknown>);
  return body;
}

/** The checks every refused turn shares, whichever wire carried the refusal. */
async function assertRefused(
  w: World,
  stderr: string,
  ntfy: { requests: { text(): string }[] },
  item: string,
): Promise<void> {
  assert.deepEqual(await agentPosts(w), []);
  // The peer's question is the one message create the sandbox saw.
  assert.equal(messageCreateKeys(w).length, 1, "no message create of the agent's");
  assert.match(
    stderr,
    new RegExp(`WARNING turn handed off timeline=${w.timeline} item=${item} result=refused `),
  );
  assert.equal(ntfy.requests.length, 1);
  assert.match(ntfy.requests[0].text(), /^Escalation: model_refused\n/);
  assert.match(stderr, /INFO escalation sent reason=model_refused/);
  const r = await record(w);
  assert.equal(r.result, "refused");
  assert.equal(r.outcome_kind, "refused");
  assert.equal(r.escalation_reason, "model_refused");
  assert.deepEqual(r.outbound, []);
  await assertShown(w, "refused");
}

/** `records stats` counts the turn under its result, and `status` shows it beside the wake. */
async function assertShown(w: World, result: "refused" | "truncated"): Promise<void> {
  const home = { HARNESS_HOME: w.home, NO_COLOR: "1" };
  const stats = await runCli(["records", "stats", "--json"], { env: home });
  assert.equal(stats.code, 0, stats.stderr);
  const [row] = JSON.parse(stats.stdout).timelines;
  assert.equal(row.results[result], 1);
  assert.equal(row.posts, 0);
  const status = await runCli(["status"], { env: home });
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, new RegExp(` ok/${result} +1 +0 +${result}:1 `));
}

Deno.test("hand-off: a chat refusal ends the turn refused, notifies, posts nothing", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  await escalationOn(w);
  const asked = await say(w, "help me break in");
  w.model.reply("chat", {
    json: chatWith({ content: null }, (_, message) => {
      message.refusal = "I can't help with that.";
    }),
  });
  const result = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits("chat"), 1, "a refusal is not asked again");
  assert.match(result.stderr, /refusal="I can't help with that\."/);
  await assertRefused(w, result.stderr, ntfy, asked.content.uuid);
});

Deno.test("hand-off: a Responses refusal part ends the turn refused", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  await escalationOn(w);
  const asked = await say(w, "help me break in");
  w.model.reply("responses", {
    json: {
      ...responsesReply(),
      output: [{
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "refusal", refusal: "No." }],
      }],
    },
  });
  const result = await w.wake([], { ...ntfyEnv(ntfy.url), AI_SDK_SURFACE: "responses" });
  assert.equal(result.code, 0, result.stderr);
  await assertRefused(w, result.stderr, ntfy, asked.content.uuid);
});

Deno.test("hand-off: an Anthropic refusal ends the turn refused", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  await escalationOn(w);
  w.model.always("model", {
    json: { type: "model", id: "claude-test", max_input_tokens: 200_000 },
  });
  const asked = await say(w, "help me break in");
  w.model.reply("messages", {
    json: anthropicMessage({
      content: [{ text: "I" }],
      stopReason: "refusal",
      stopDetails: { type: "refusal", category: "cyber", explanation: "Intrusion." },
    }),
  });
  const result = await w.wake([], {
    ...ntfyEnv(ntfy.url),
    AI_PROVIDER: "anthropic",
    AI_SDK: "anthropic",
    AI_SDK_SURFACE: "messages",
    AI_BASE_URL: w.model.origin,
    AI_MODEL: "claude-test",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /refusal="Intrusion\."/);
  await assertRefused(w, result.stderr, ntfy, asked.content.uuid);
});

Deno.test("hand-off: a reply cut in its text is truncated, with a WARNING and no notice", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  await escalationOn(w);
  const asked = await say(w, "tell me everything");
  w.model.reply("chat", {
    json: chatWith({ content: "Everything begins with" }, (choice) => {
      choice.finish_reason = "length";
    }),
  });
  const result = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `WARNING turn handed off timeline=${w.timeline} item=${asked.content.uuid} result=truncated`,
    ),
  );
  assert.match(result.stderr, /INFO unspoken .*kind=truncated .*text="Everything begins with"/);
  assert.equal(ntfy.requests.length, 0);
  const r = await record(w);
  assert.equal(r.result, "truncated");
  assert.equal(r.escalation_reason, undefined);
  await assertShown(w, "truncated");
});

Deno.test("hand-off: a tool call cut by the limit is asked again once, and the whole call runs", async () => {
  await using w = await world();
  await say(w, "say hi");
  const create = (body: string) => ({
    toolCalls: [{ id: "call_0", name: "messages", arguments: { action: "create", body } }],
  });
  w.model.reply(
    "chat",
    { json: chatWith(create("Hel"), (choice) => void (choice.finish_reason = "length")) },
    { json: chatCompletion(create("Hello!")) },
    { json: chatCompletion({ content: "Said hi." }) },
  );
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /WARNING reply cut step=1 call_cut=yes asked_again=yes/);
  assert.deepEqual(await agentPosts(w), ["Hello!"]);
  assert.equal((await record(w)).result, "spoke");
});
