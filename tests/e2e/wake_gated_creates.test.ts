/**
 * A real `harness wake` whose model puts the agent's own platform token into every other text
 * surface: a file's content, a file's description, a task's instructions and a webhook
 * endpoint's description. The outbound gate refuses each before anything is sent (the sandbox's
 * request log holds no such create), the model reads which check and which field, the journal
 * says `post blocked` with the surface and `tool … outcome=blocked`, the transcript keeps the
 * calls redacted, and the turn record holds each refusal. A clean create still goes out while
 * the refusals stay under `max_refusals_per_turn`; at the limit the turn's speaking closes.
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { chatMessages, say, sessionPath, wakeFor, type World, world } from "./wake_support.ts";

/** The asset, task and webhook-endpoint creates the sandbox received (what reached the platform). */
function agentTextCreates(w: World) {
  return w.sandbox.requests.filter((r) =>
    r.method === "POST" && /\/timelines\/[^/]+\/(assets|tasks|webhook_endpoints)$/.test(r.path)
  );
}

Deno.test("wake: the agent's token in an asset, a task or a webhook endpoint never reaches the platform", async () => {
  await using w = await world({ routed: true });
  const token = w.env.BASECRADLE_TOKEN;
  // Four refusals in one turn: the limit is raised so each surface is screened on its own (the
  // default of two closes the turn's speaking, tests/e2e/wake_escalation.test.ts).
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(
    `${w.home}/config/guardrails.json`,
    JSON.stringify({ max_refusals_per_turn: 5 }),
  );
  const call = (id: string, name: string, args: Record<string, string>) => ({
    id,
    name,
    arguments: { action: "create", ...args },
  });
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [
          call("c0", "assets", { content: `key=${token}\n`, filename: "notes.txt" }),
          call("c1", "assets", {
            content: "nothing secret",
            filename: "ok.txt",
            description: `my token is ${token}`,
          }),
          call("c2", "tasks", { instructions: `log in with ${token}`, activate_at: "+1h" }),
          call("c3", "webhook_endpoints", { description: `ci hook (auth ${token})` }),
          call("c4", "assets", { content: "plain notes", filename: "fine.txt" }),
        ],
      }),
    },
    { json: chatCompletion({ content: "Done." }) },
  );
  const asked = await say(w, "@ada please file these");
  await w.settle();
  const result = wakeFor(w, asked.content.uuid);
  assert.equal(result.code, 0, result.stderr);

  // Nothing refused reached the platform: one asset create (the clean one), no task, no endpoint.
  const creates = agentTextCreates(w);
  assert.deepEqual(creates.map((r) => r.path.split("/").at(-1)), ["assets"]);
  const assets = await w.peer.client.assets.list({ timeline: w.timeline }).toArray();
  assert.deepEqual(assets.map((a) => a.content.file?.filename), ["fine.txt"]);
  assert.deepEqual(await w.peer.client.tasks.list({ timeline: w.timeline }).toArray(), []);

  // The journal: one `post blocked` per refused create, naming the surface; outcome blocked.
  for (const kind of ["asset", "asset", "task", "webhook_endpoint"]) {
    assert.match(result.stderr, new RegExp(`WARNING post blocked timeline=\\S+ kind=${kind} `));
  }
  assert.equal((result.stderr.match(/WARNING post blocked/g) ?? []).length, 4, result.stderr);
  assert.equal((result.stderr.match(/ tool name=\S+ .*outcome=blocked/g) ?? []).length, 4);
  assert.ok(!result.stderr.includes(token), "the journal never carries the token");

  // The model read each refusal, naming the field and the check, never the token.
  const next = JSON.stringify(chatMessages(w.model, 1));
  assert.ok(!next.includes(token), "the model's next view holds no token");
  for (
    const field of ["the file's content", "the asset's description", "the task's instructions"]
  ) {
    assert.ok(next.includes(`blocked ${field} (failed checks: known_secrets`), field);
  }
  assert.ok(
    next.includes("blocked the webhook endpoint's description (failed checks: known_secrets"),
  );

  // The transcript keeps the refused calls, redacted.
  const transcript = await Deno.readTextFile(sessionPath(w));
  assert.ok(!transcript.includes(token), "the transcript must not keep the token");
  assert.match(transcript, /key=\[redacted\]/);

  // The turn record: every refusal, by surface, then the clean asset passed.
  const record = JSON.parse(
    (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim().split("\n").at(-1)!,
  );
  assert.deepEqual(
    record.gate_verdicts.map((v: { kind: string; verdict: string }) => `${v.kind}:${v.verdict}`),
    ["asset:refused", "asset:refused", "task:refused", "webhook_endpoint:refused", "asset:passed"],
  );
  assert.ok(!JSON.stringify(record).includes(token));
  // Honest outcomes: the refused creates are `blocked` in the record too, never `ok`.
  assert.deepEqual(
    record.tool_calls.map((c: { name: string; outcome: string }) => `${c.name}:${c.outcome}`),
    [
      "assets:blocked",
      "assets:blocked",
      "tasks:blocked",
      "webhook_endpoints:blocked",
      "assets:ok",
    ],
  );
});

Deno.test("wake: at the default limit the second refused create closes the turn, the rest are not sent", async () => {
  await using w = await world({ routed: true });
  const token = w.env.BASECRADLE_TOKEN;
  const call = (id: string, name: string, args: Record<string, string>) => ({
    id,
    name,
    arguments: { action: "create", ...args },
  });
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [
          call("c0", "tasks", { instructions: `log in with ${token}`, activate_at: "+1h" }),
          call("c1", "webhook_endpoints", { description: `ci hook (auth ${token})` }),
          call("c2", "assets", { content: "plain notes", filename: "fine.txt" }),
        ],
      }),
    },
    { json: chatCompletion({ content: "Done." }) },
  );
  const asked = await say(w, "@ada please file these");
  await w.settle();
  const result = wakeFor(w, asked.content.uuid);
  assert.equal(result.code, 0, result.stderr);
  const creates = agentTextCreates(w);
  assert.deepEqual(creates, [], "the clean asset after the second refusal was not sent");
  assert.match(result.stderr, /WARNING speaking closed timeline=\S+ refusals=2/);
  assert.match(result.stderr, /WARNING post blocked timeline=\S+ kind=asset check=speaking_closed/);
  const record = JSON.parse(
    (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim().split("\n").at(-1)!,
  );
  assert.equal(record.result, "escalated");
  // A closed turn is not nudged to speak: the model was asked twice, not a third time.
  assert.equal(w.model.hits("chat"), 2);
  assert.deepEqual(
    record.gate_verdicts.map((v: { kind: string; verdict: string }) => `${v.kind}:${v.verdict}`),
    ["task:refused", "webhook_endpoint:refused"],
  );
  assert.deepEqual(record.tool_calls.map((c: { outcome: string }) => c.outcome), [
    "blocked",
    "blocked",
    "blocked",
  ]);
});
