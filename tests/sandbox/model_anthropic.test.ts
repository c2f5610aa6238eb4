/**
 * The sandbox demo model on Anthropic's Messages wire, driven by the real anthropic SDK: a
 * `tool_use` for the newest peer line, narration after the `tool_result`, harness notes read as
 * notes, Anthropic-shaped refusals, and the prompt cache it keeps (a write, then a read; an entry
 * gone after five minutes; the markers themselves never part of the cached bytes).
 */
import { strict as assert } from "node:assert";
import Anthropic from "@anthropic-ai/sdk";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import {
  CACHE_TTL_MS,
  DEMO_MODEL_ID,
  DemoPromptCache,
  renderPrefixes,
} from "../../lib/sandbox/model/mod.ts";

const TOOLS = [{
  name: "messages",
  description: "Post to the timeline.",
  input_schema: { type: "object" as const, properties: { action: { type: "string" } } },
}];
const PEER = "[2026-01-01T09:01:00.000Z] ada: What is the capital of France?";
const CHARTER = [{
  type: "text" as const,
  text: "You are a peer.",
  cache_control: { type: "ephemeral" as const },
}];

async function withModel(fn: (client: Anthropic, sandbox: Sandbox) => Promise<void>) {
  const sandbox = await Sandbox.start({ port: 0, log: () => {} });
  try {
    await fn(
      new Anthropic({ baseURL: sandbox.anthropicModelUrl, apiKey: "x", maxRetries: 0 }),
      sandbox,
    );
  } finally {
    await sandbox.close();
  }
}

Deno.test("anthropic wire: tool_use for the newest peer line, then narration after its result", async () => {
  await withModel(async (client) => {
    const note =
      "<system-note>\nCurrent Time: 2026-01-01 09:01:01 UTC\n\nStep 1 of 24.\n</system-note>";
    const first = await client.messages.create({
      model: DEMO_MODEL_ID,
      max_tokens: 1024,
      tools: TOOLS,
      system: CHARTER,
      messages: [{
        role: "user",
        content: [{ type: "text", text: PEER }, { type: "text", text: note }],
      }],
    });
    assert.equal(first.stop_reason, "tool_use");
    const [call] = first.content;
    assert.equal(call.type, "tool_use");
    if (call.type !== "tool_use") return;
    assert.equal(call.name, "messages");
    assert.match(JSON.stringify(call.input), /@ada thanks for the question/);
    const second = await client.messages.create({
      model: DEMO_MODEL_ID,
      max_tokens: 1024,
      tools: TOOLS,
      system: CHARTER,
      messages: [
        { role: "user", content: [{ type: "text", text: PEER }, { type: "text", text: note }] },
        { role: "assistant", content: first.content },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: call.id, content: "posted" },
            { type: "text", text: note.replace("Step 1", "Step 2") },
          ],
        },
      ],
    });
    assert.equal(second.stop_reason, "end_turn");
    assert.deepEqual(second.content.map((b) => b.type === "text" && b.text), [
      "Answered @ada's question on the timeline.",
    ]);
  });
});

Deno.test("anthropic wire: usage counts a cache write, then a read of the same prefix", async () => {
  await withModel(async (client) => {
    const ask = () =>
      client.messages.create({
        model: DEMO_MODEL_ID,
        max_tokens: 64,
        tools: TOOLS,
        system: CHARTER,
        messages: [{ role: "user", content: PEER }],
      });
    const first = await ask();
    assert.equal(first.usage.cache_read_input_tokens, 0);
    assert.ok((first.usage.cache_creation_input_tokens ?? 0) > 0);
    const second = await ask();
    assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
    assert.equal(second.usage.cache_creation_input_tokens, 0);
  });
});

Deno.test("anthropic wire: refusals in Anthropic's error shape; the models route states a window", async () => {
  await withModel(async (client, sandbox) => {
    const url = `${sandbox.anthropicModelUrl}/v1/messages`;
    const noKey = await fetch(url, { method: "POST", body: "{}" });
    assert.equal(noKey.status, 401);
    assert.equal((await noKey.json()).error.type, "authentication_error");
    const post = (body: unknown) =>
      fetch(url, { method: "POST", headers: { "x-api-key": "k" }, body: JSON.stringify(body) });
    const noTokens = await post({ model: "m", messages: [{ role: "user", content: "hi" }] });
    assert.equal(noTokens.status, 400);
    assert.deepEqual(await noTokens.json(), {
      type: "error",
      error: { type: "invalid_request_error", message: "max_tokens: Field required" },
    });
    const streamed = await post({
      model: "m",
      max_tokens: 1,
      stream: true,
      messages: [{ role: "user", content: "x" }],
    });
    assert.equal(streamed.status, 400);
    assert.match((await streamed.json()).error.message, /does not stream/);
    const untooled = await post({
      model: "m",
      max_tokens: 1,
      messages: [
        { role: "user", content: "x" },
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "n", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "r" }] },
      ],
    });
    assert.equal(untooled.status, 400);
    assert.match((await untooled.json()).error.message, /must define tools/);
    const model = await client.models.retrieve("claude-anything");
    assert.equal(model.id, "claude-anything");
    assert.equal(model.max_input_tokens, 128_000);
  });
});

Deno.test("the demo prompt cache: prefixes without markers, a read within five minutes, none after", () => {
  let now = 0;
  const cache = new DemoPromptCache(() => now);
  const body = (tail: string) => ({
    tools: [{ name: "t", input_schema: { type: "object" } }],
    system: [{ type: "text", text: "CHARTER", cache_control: { type: "ephemeral" } }],
    messages: [{ role: "user", content: [{ type: "text", text: tail }] }],
  });
  const { prefixes, whole } = renderPrefixes(body("one"));
  assert.equal(prefixes.length, 1);
  assert.doesNotMatch(prefixes[0], /cache_control/);
  assert.ok(whole.startsWith(prefixes[0]) && whole.endsWith('"text":"one"}\n'));
  const written = cache.use(body("one"));
  assert.equal(written.read, 0);
  assert.ok(written.written > 0);
  now += CACHE_TTL_MS - 1;
  assert.deepEqual(cache.use(body("two")), { ...written, read: written.written, written: 0 });
  now += CACHE_TTL_MS; // the read refreshed it; five more minutes without one expire it
  assert.equal(cache.use(body("three")).read, 0);
});
