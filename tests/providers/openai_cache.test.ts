/**
 * Explicit prompt-cache breakpoint on the chat wire (docs/models.md#prompt-caching): the real
 * openai SDK against the wire mock, fed the view `briefView` builds, shows exactly one
 * `cache_control` part, on the last frozen turn — the charter on a first wake — never on the
 * volatile brief or the new turn. And `prompt_cache_key` on OpenAI's Responses surface.
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { briefView } from "../../lib/wake/engaged/brief.ts";
import { chatCompletion, ModelMock, responsesReply } from "../support/model_mock.ts";
import { promptCacheKey } from "../../lib/providers/cache_key.ts";

function provider(mock: ModelMock, cacheMode?: "automatic" | "explicit" | "none") {
  return new OpenAIProvider({
    model: "gpt-test",
    apiKey: "sk-test",
    baseURL: mock.baseURL,
    surface: "chat",
    cacheMode,
  });
}

type WireMessage = { role: string; content: unknown };

/** `[index, part]` of every content part carrying `cache_control` in a recorded chat body. */
function cacheParts(body: Record<string, unknown>): [number, Record<string, unknown>][] {
  const out: [number, Record<string, unknown>][] = [];
  (body.messages as WireMessage[]).forEach((message, i) => {
    if (!Array.isArray(message.content)) return;
    for (const part of message.content as Record<string, unknown>[]) {
      if ("cache_control" in part) out.push([i, part]);
    }
  });
  return out;
}

Deno.test("cacheMode defaults to automatic and is an operator option", () => {
  const base = { model: "m", apiKey: "sk-test" };
  assert.equal(new OpenAIProvider(base).cacheMode, "automatic");
  assert.equal(new OpenAIProvider({ ...base, cacheMode: "explicit" }).cacheMode, "explicit");
});

Deno.test("explicit, first wake: the one cache_control part is on the charter", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "hi" }) });
  const p = provider(mock, "explicit");
  const live = [Message.user("[t] bob: hi", { items: ["a"] })];
  await p.chat(briefView("CHARTER", "VOLATILE", p.cacheMode)(live));
  const body = mock.lastBody("chat");
  assert.deepEqual(cacheParts(body), [
    [0, { type: "text", text: "CHARTER", cache_control: { type: "ephemeral" } }],
  ]);
  assert.deepEqual((body.messages as WireMessage[]).slice(1), [
    { role: "system", content: "VOLATILE" },
    { role: "user", content: "[t] bob: hi" },
  ]);
  assert.equal(live[0].cacheAnchor, undefined);
});

Deno.test("explicit, later wake: the one cache_control part is on the last frozen turn", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "ok" }) });
  const p = provider(mock, "explicit");
  const live: Message[] = [
    Message.user("[t] bob: weather?", { items: ["a"] }),
    Message.assistant({ content: null, toolCalls: [{ id: "c1", name: "w", arguments: {} }] }),
    Message.tool("c1", "-5 C"),
    Message.assistant({ content: "It is cold." }),
    Message.user("[t] bob: again", { items: ["b"] }),
  ];
  await p.chat(briefView("CHARTER", "VOLATILE", p.cacheMode)(live));
  const body = mock.lastBody("chat");
  const messages = body.messages as WireMessage[];
  assert.deepEqual(cacheParts(body), [
    [4, { type: "text", text: "It is cold.", cache_control: { type: "ephemeral" } }],
  ]);
  assert.equal(messages[4].role, "assistant");
  assert.equal(messages[0].content, "CHARTER");
  assert.deepEqual(messages.slice(5), [
    { role: "system", content: "VOLATILE" },
    { role: "user", content: "[t] bob: again" },
  ]);
});

Deno.test("automatic (the default): no cache_control is ever sent", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "ok" }) });
  const p = provider(mock);
  const live = [Message.assistant({ content: "x" }), Message.user("[t] bob: y", { items: ["a"] })];
  await p.chat(briefView("CHARTER", "VOLATILE", p.cacheMode)(live));
  assert.deepEqual(cacheParts(mock.lastBody("chat")), []);
  assert.ok(!JSON.stringify(mock.lastBody("chat")).includes("cache_control"));
});

Deno.test("prompt_cache_key rides the OpenAI Responses surface only; model_params wins", async () => {
  await using mock = await ModelMock.start();
  mock.always("responses", { json: responsesReply({ text: "ok" }) });
  mock.always("chat", { json: chatCompletion({ content: "ok" }) });
  const key = promptCacheKey(
    "0197a6b2-aaaa-7e4f-8a9b-0c1d2e3f4a5b",
    "0197a6b2-bbbb-7e4f-8a9b-0c1d2e3f4a5b",
  );
  const make = (extra: Record<string, unknown>) =>
    new OpenAIProvider({
      model: "gpt-test",
      apiKey: "sk-test",
      baseURL: mock.baseURL,
      promptCacheKey: key,
      ...extra,
    });
  await make({}).chat([Message.user("hi")]);
  assert.equal(mock.lastBody("responses").prompt_cache_key, key);
  await make({ params: { prompt_cache_key: "mine" } }).chat([Message.user("hi")]);
  assert.equal(mock.lastBody("responses").prompt_cache_key, "mine");
  await make({ surface: "chat" }).chat([Message.user("hi")]);
  assert.equal(mock.lastBody("chat").prompt_cache_key, undefined);
  await make({ providerLabel: "xai" }).chat([Message.user("hi")]);
  assert.equal(mock.lastBody("responses").prompt_cache_key, undefined);
});

Deno.test("promptCacheKey: stable per agent and timeline, distinct otherwise, names neither", () => {
  const agent = "0197A6B2-AAAA-7E4F-8A9B-0C1D2E3F4A5B";
  const timeline = "0197a6b2-bbbb-7e4f-8a9b-0c1d2e3f4a5b";
  const key = promptCacheKey(agent, timeline);
  assert.match(key, /^bc-[0-9a-f]{32}$/);
  assert.equal(promptCacheKey(agent.toLowerCase(), timeline), key);
  assert.notEqual(promptCacheKey(agent, agent), key);
  assert.notEqual(promptCacheKey(timeline, agent), key);
  assert.ok(!key.includes(agent.toLowerCase().slice(0, 8)));
});
