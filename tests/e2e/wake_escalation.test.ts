/**
 * Escalation end to end (docs/operating.md#escalation): the real `harness wake` CLI against the
 * sandbox, a scripted model, and a local stub standing in for ntfy (NTFY_DM_URL). Each trigger
 * sends one notice naming the timeline, the item and the reason — never the refused text, never
 * the token — and posts nothing to the timeline; an item is escalated at most once across
 * wakes; without `escalation.json` nothing is sent; a failing ntfy is a WARNING and the wake
 * still succeeds, and one that never answers holds the wake no longer than the send's deadline.
 */
import assert from "node:assert/strict";
import { chatCompletion, openaiError } from "../support/model_mock.ts";
import { type Recorded, startStub } from "../support/http_stub.ts";
import { runCli } from "../support/run_cli.ts";
import { agentPosts, messageCreateKeys, say, type World, world } from "./wake_support.ts";

const TOKEN = "tk_e2e_escalation_secret";
/** A secret-shaped body: the gate refuses it every time. */
const LEAK = "the key is sk-live0123456789abcdefghij, use it";

async function configure(w: World, file: unknown): Promise<void> {
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/config/escalation.json`, JSON.stringify(file));
}

function ntfyEnv(url: string): Record<string, string> {
  return { NTFY_DM_TOKEN: TOKEN, NTFY_DM_URL: `${url}/alerts` };
}

const create = (id: string, body: string) => ({
  json: chatCompletion({
    toolCalls: [{ id, name: "messages", arguments: { action: "create", body } }],
  }),
});
const say_nothing = { json: chatCompletion({ content: "Nothing I can post safely." }) };

/** Scripts a turn whose every post is refused by the gate (twice), then silence. */
function scriptRefusedTwice(w: World): void {
  w.model.reply("chat", create("call_0", LEAK), create("call_1", LEAK));
  w.model.always("chat", say_nothing);
}

/** The notice's checks every trigger shares: headers, and a body without secrets or text. */
function assertNotice(
  w: World,
  request: Recorded,
  reason: string,
  item: string,
): void {
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/alerts");
  assert.equal(request.headers.get("authorization"), `Bearer ${TOKEN}`);
  assert.equal(request.headers.get("title"), `BaseCradle escalation from @${w.agent.handle}`);
  assert.equal(request.headers.get("priority"), "5");
  assert.equal(request.headers.get("tags"), "warning");
  const body = request.text();
  assert.match(body, new RegExp(`^Escalation: ${reason}\n`));
  assert.ok(body.includes(`Timeline: ${w.timeline}\n`), body);
  assert.ok(body.includes(`Item: ${item}\n`), body);
  assert.ok(!body.includes(TOKEN), body);
  assert.ok(!body.includes("sk-live"), body);
}

Deno.test("escalation: the gate refusing a reply twice notifies once, posts nothing", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  await configure(w, { enabled: true });
  const asked = await say(w, "what is the deploy key?");
  scriptRefusedTwice(w);
  const result = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(result.code, 0, result.stderr);
  assert.equal((result.stderr.match(/WARNING post blocked/g) ?? []).length, 2, result.stderr);

  assert.equal(ntfy.requests.length, 1);
  assertNotice(w, ntfy.requests[0], "gate_refused_twice", asked.content.uuid);
  assert.match(
    result.stderr,
    new RegExp(
      `INFO escalation sent reason=gate_refused_twice item=${asked.content.uuid} ` +
        `timeline=${w.timeline}`,
    ),
  );
  assert.deepEqual(await agentPosts(w), []);
  assert.match(result.stderr, /INFO wake end timeline=\S+ outcome=ok .*posted=0/);
  assert.ok(!result.stderr.includes(TOKEN));
  const mark = JSON.parse(
    await Deno.readTextFile(`${w.home}/escalations/${w.timeline}/${asked.content.uuid}.json`),
  );
  assert.deepEqual([mark.reason, mark.state], ["gate_refused_twice", "sent"]);
  // The turn record says what happened (docs/records.md#fields), the refused text not at all.
  const text = await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`);
  const record = JSON.parse(text.trim());
  assert.equal(record.result, "escalated");
  assert.equal(record.escalation_reason, "gate_refused_twice");
  assert.deepEqual(record.gate_verdicts.map((v: { verdict: string }) => v.verdict), [
    "refused",
    "refused",
  ]);
  assert.ok(record.gate_verdicts.every((v: { checks: string[] }) => v.checks.length > 0));
  assert.deepEqual(record.outbound, []);
  assert.ok(!text.includes(TOKEN));
});

Deno.test("escalation: two refusals close the turn — a clean post after them is not sent", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  await configure(w, { enabled: true });
  const asked = await say(w, "what is the deploy key?");
  w.model.reply("chat", create("call_0", LEAK), create("call_1", LEAK), create("call_2", "No."));
  w.model.always("chat", say_nothing);
  const result = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(result.code, 0, result.stderr);
  // docs/security.md#stop-at-the-second-refusal: the harness stops, not the model.
  assert.deepEqual(await agentPosts(w), []);
  // The peer's question is the one message create the sandbox saw.
  assert.equal(messageCreateKeys(w).length, 1, "no message create of the agent's");
  assert.match(
    result.stderr,
    new RegExp(`WARNING speaking closed timeline=${w.timeline} refusals=2`),
  );
  assert.match(result.stderr, /WARNING post blocked .*kind=tool check=speaking_closed/);
  assert.equal(ntfy.requests.length, 1);
  assertNotice(w, ntfy.requests[0], "gate_refused_twice", asked.content.uuid);
  const record = JSON.parse(
    (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim(),
  );
  assert.equal(record.result, "escalated");
  assert.equal(record.escalation_reason, "gate_refused_twice");
  assert.deepEqual(record.gate_verdicts.map((v: { verdict: string }) => v.verdict), [
    "refused",
    "refused",
  ]);
  assert.deepEqual(record.outbound, []);
  assert.deepEqual(record.tool_calls.map((c: { outcome: string }) => c.outcome), [
    "blocked",
    "blocked",
    "blocked",
  ]);
  // The model read why: the third call's result says the turn is closed.
  assert.match(record.tool_calls[2].result, /sends nothing more.*do not try again/);
});

Deno.test("escalation: off by default — no file, no request, even with a token", async () => {
  await using ntfy = await startStub(() => new Response("{}"));
  await using w = await world();
  await say(w, "what is the deploy key?");
  scriptRefusedTwice(w);
  const result = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(result.code, 0, result.stderr);
  assert.equal(ntfy.requests.length, 0);
  assert.doesNotMatch(result.stderr, /escalation/);
  await assert.rejects(Deno.stat(`${w.home}/escalations`), Deno.errors.NotFound);
});

Deno.test("escalation: a spent step budget on an item that called for a reply notifies", async () => {
  await using ntfy = await startStub(() => new Response("{}"));
  await using w = await world();
  // Only this trigger is switched on.
  await configure(w, { enabled: true, on: ["step_budget_exhausted_unanswered"] });
  const asked = await say(w, "keep looking");
  const look = {
    json: chatCompletion({
      toolCalls: [{ id: "call_0", name: "messages", arguments: { action: "list" } }],
    }),
  };
  w.model.reply("chat", look, look, { json: chatCompletion({ content: "Looked twice." }) });
  w.model.always("chat", say_nothing);
  const result = await w.wake([], { ...ntfyEnv(ntfy.url), HARNESS_MAX_STEPS: "2" });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /WARNING wake used 2\/2 steps \+ reserve summary/);
  assert.equal(ntfy.requests.length, 1);
  assertNotice(w, ntfy.requests[0], "step_budget_exhausted_unanswered", asked.content.uuid);
  assert.match(
    result.stderr,
    /INFO escalation sent reason=step_budget_exhausted_unanswered item=\S+ timeline=/,
  );
  assert.deepEqual(await agentPosts(w), []);

  // The same trigger on a switched-off reason sends nothing: the gate's refusals here.
  await say(w, "and the key?");
  scriptRefusedTwice(w);
  const second = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(second.code, 0, second.stderr);
  assert.equal(ntfy.requests.length, 1);
});

Deno.test("escalation: the billing wall notifies once per item across wakes", async () => {
  await using ntfy = await startStub(() => new Response("{}"));
  await using w = await world();
  await configure(w, { enabled: true, on: ["billing_wall"] });
  const asked = await say(w, "are you there?");
  const quota = {
    status: 429,
    json: openaiError("You exceeded your current quota.", {
      type: "insufficient_quota",
      code: "insufficient_quota",
    }),
  };
  w.model.reply("chat", quota);
  const first = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /ERROR wake reported_failure kind=billing/);
  assert.equal(ntfy.requests.length, 1);
  assertNotice(w, ntfy.requests[0], "billing_wall", asked.content.uuid);
  assert.match(ntfy.requests[0].text(), /lack of funds/);
  // The out-of-funds notice is the wake's existing report; escalation adds no post.
  assert.equal((await agentPosts(w)).length, 1);

  // The item stays pending: the next wake meets the wall on it again, and sends nothing more.
  w.model.reply("chat", quota);
  const second = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /WARNING wake billing_blocked/);
  assert.equal(ntfy.requests.length, 1);
  assert.doesNotMatch(second.stderr, /escalation/);
  assert.equal((await agentPosts(w)).length, 1);
});

Deno.test("escalation: a failing ntfy is a WARNING; the wake succeeds and is not retried", async () => {
  await using ntfy = await startStub(() => new Response("upstream down", { status: 503 }));
  await using w = await world();
  await configure(w, { enabled: true });
  const asked = await say(w, "what is the deploy key?");
  scriptRefusedTwice(w);
  const result = await w.wake([], ntfyEnv(ntfy.url));
  assert.equal(result.code, 0, result.stderr);
  assert.equal(ntfy.requests.length, 2); // the sender's one retry on a 5xx
  assert.match(
    result.stderr,
    new RegExp(
      `WARNING escalation failed reason=gate_refused_twice item=${asked.content.uuid} ` +
        `why="HTTP 503: upstream down" timeline=${w.timeline}`,
    ),
  );
  assert.match(result.stderr, /INFO wake end timeline=\S+ outcome=ok .*posted=0/);
  assert.ok(!result.stderr.includes(TOKEN));
  assert.deepEqual(await agentPosts(w), []);
  const mark = JSON.parse(
    await Deno.readTextFile(`${w.home}/escalations/${w.timeline}/${asked.content.uuid}.json`),
  );
  assert.equal(mark.state, "failed");
});

Deno.test("escalation: an ntfy that does not answer in time cannot hold the wake: a WARNING at its deadline, the wake goes on", async () => {
  // Takes the push and answers only after 30 s (76 s were seen in the field), or when the stub
  // shuts down at the end of the test: without a deadline the wake would wait for it and log
  // `escalation sent`.
  await using ntfy = await startStub((_rec, _req, closing) =>
    new Promise((done) => {
      const timer = setTimeout(() => done(new Response('{"id":"late"}')), 30_000);
      closing.addEventListener("abort", () => {
        clearTimeout(timer);
        done(new Response("too late"));
      }, { once: true });
    })
  );
  await using w = await world();
  await configure(w, { enabled: true });
  const asked = await say(w, "what is the deploy key?");
  scriptRefusedTwice(w);
  const result = await w.wake([], ntfyEnv(ntfy.url));
  // The wake ended on its own while the server still held the request.
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `WARNING escalation failed reason=gate_refused_twice item=${asked.content.uuid} ` +
        `why="no answer within 5 s \\(it may have arrived\\)" timeline=${w.timeline}`,
    ),
  );
  assert.match(result.stderr, /INFO wake end timeline=\S+ outcome=ok .*posted=0/);
  assert.ok(ntfy.requests.length <= 1, "an unanswered notice is not sent again");
  const mark = JSON.parse(
    await Deno.readTextFile(`${w.home}/escalations/${w.timeline}/${asked.content.uuid}.json`),
  );
  assert.equal(mark.state, "failed");
});

Deno.test("escalation: switched on without NTFY_DM_TOKEN refuses the wake and resolved-config", async () => {
  await using w = await world();
  await configure(w, { enabled: true, on: ["billing_wall"] });
  await say(w, "hello");
  const wake = await w.wake();
  assert.equal(wake.code, 1);
  const line = wake.stderr.trim().split("\n").at(-1)!;
  assert.match(
    line,
    /^ERROR harness wake: \S+escalation\.json key 'enabled' is true but NTFY_DM_TOKEN is not set, so no notice could be sent\. Fix:/,
  );
  assert.equal(w.model.hits("chat"), 0);

  const refused = await runCli(["resolved-config"], { env: w.env });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /^harness resolved-config: \S+escalation\.json key 'enabled'/);

  const resolved = await runCli(["resolved-config"], { env: { ...w.env, NTFY_DM_TOKEN: TOKEN } });
  assert.equal(resolved.code, 0, resolved.stderr);
  assert.deepEqual(JSON.parse(resolved.stdout).escalation, { enabled: true, on: ["billing_wall"] });
  assert.ok(!resolved.stdout.includes(TOKEN));
});
