/**
 * OpenAIProvider against the wire-level mock: real openai SDK, real HTTP, asserted payloads.
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import type { ToolSpec } from "../../lib/core/types/tool.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { RAW_ARGUMENTS_KEY } from "../../lib/providers/wire.ts";
import { chatCompletion, ModelMock, responsesReply } from "../support/model_mock.ts";

const WEATHER: ToolSpec = {
  name: "weather",
  description: "Weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } } },
};
const IMAGE = { alt: "a dot", mimeType: "image/png", data: "iVBORw0KGgo=" };

function provider(
  mock: ModelMock,
  extra: Partial<ConstructorParameters<typeof OpenAIProvider>[0]> = {},
) {
  return new OpenAIProvider({
    model: "gpt-test",
    apiKey: "sk-test",
    baseURL: mock.baseURL,
    ...extra,
  });
}

Deno.test("responses: a tool-call loop round-trips ids, args and results", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "responses",
    {
      json: responsesReply({
        toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Oslo" } }],
      }),
    },
    { json: responsesReply({ text: "It is cold." }) },
  );
  const p = provider(mock);
  const history: Message[] = [Message.system("Be brief."), Message.user("Weather in Oslo?")];
  const first = await p.chat(history, [WEATHER]);
  assert.equal(first.content, null);
  assert.deepEqual(first.toolCalls, [{
    id: "call_1",
    name: "weather",
    arguments: { city: "Oslo" },
  }]);

  history.push(first, Message.tool("call_1", "-5 C"));
  const second = await p.chat(history, [WEATHER]);
  assert.equal(second.content, "It is cold.");
  assert.equal(second.toolCalls, undefined);

  const body = mock.lastBody("responses");
  assert.equal(body.model, "gpt-test");
  assert.deepEqual(body.input, [
    { role: "developer", content: "Be brief." },
    { role: "user", content: "Weather in Oslo?" },
    { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' },
    { type: "function_call_output", call_id: "call_1", output: "-5 C" },
  ]);
  assert.deepEqual(body.tools, [{
    type: "function",
    name: "weather",
    description: "Weather for a city.",
    parameters: WEATHER.parameters,
    strict: false,
  }]);
  assert.equal(mock.hits("responses"), 2);
  assert.equal(mock.requests[0].headers.get("authorization"), "Bearer sk-test");
});

Deno.test("responses: parallel calls in one reply keep their order", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", {
    json: responsesReply({
      text: "Checking both.",
      toolCalls: [
        { id: "a", name: "weather", arguments: { city: "Oslo" } },
        { id: "b", name: "weather", arguments: { city: "Rome" } },
      ],
    }),
  });
  const reply = await provider(mock).chat([Message.user("Oslo and Rome?")], [WEATHER]);
  assert.equal(reply.content, "Checking both.");
  assert.deepEqual(reply.toolCalls?.map((c) => [c.id, c.arguments.city]), [["a", "Oslo"], [
    "b",
    "Rome",
  ]]);
});

Deno.test("responses: images go as input_image data URLs", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", { json: responsesReply({ text: "A dot." }) });
  const user: Message = { role: "user", content: "What is this?", images: [IMAGE] };
  await provider(mock).chat([user]);
  assert.deepEqual(mock.lastBody("responses").input, [{
    role: "user",
    content: [
      { type: "input_text", text: "What is this?" },
      { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
    ],
  }]);
});

Deno.test("responses: web_search built-in rides tools; citations become the footer", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", {
    json: responsesReply({
      text: "Deno 2 shipped.",
      annotations: [
        { url: "https://deno.com/blog", title: "Deno blog" },
        { url: "https://deno.com/blog", title: "Deno blog (again)" },
        { url: "https://example.org/x" },
      ],
    }),
  });
  const p = provider(mock, { builtins: ["web_search", "not_a_builtin"] });
  assert.deepEqual(p.builtins, ["web_search"]);
  const reply = await p.chat([Message.user("news?")], [WEATHER]);
  assert.equal(
    reply.content,
    "Deno 2 shipped.\n\nSources:\n- Deno blog — https://deno.com/blog\n- https://example.org/x",
  );
  const tools = mock.lastBody("responses").tools as { type: string }[];
  assert.deepEqual(tools.map((t) => t.type), ["web_search", "function"]);
});

Deno.test("responses: usage, cached tokens and lastTokensIn", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", {
    json: responsesReply({ text: "hi", usage: { prompt: 1200, completion: 30, cached: 1024 } }),
  });
  const p = provider(mock);
  assert.equal(p.lastTokensIn, undefined);
  const reply = await p.chat([Message.user("hi")]);
  assert.deepEqual(reply.usage, {
    tokensIn: 1200,
    tokensOut: 30,
    tokensTotal: 1230,
    cachedTokens: 1024,
  });
  assert.equal(p.lastTokensIn, 1200);
  assert.equal(p.cacheMode, "automatic");
});

Deno.test("chat surface: tool-call turn has content null, tools are function-wrapped, no built-ins", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [
          { id: "c1", name: "weather", arguments: { city: "Oslo" } },
          { id: "c2", name: "weather", arguments: { city: "Rome" } },
        ],
      }),
    },
    {
      json: chatCompletion({
        content: "Cold and warm.",
        usage: { prompt: 50, completion: 5, cached: 0 },
      }),
    },
  );
  const p = provider(mock, { surface: "chat", builtins: ["web_search"] });
  assert.deepEqual(p.builtins, []);
  const history: Message[] = [Message.system("sys"), Message.user("Oslo and Rome?")];
  const first = await p.chat(history, [WEATHER]);
  assert.equal(first.toolCalls?.length, 2);
  history.push(first, Message.tool("c1", "-5"), Message.tool("c2", "20"));
  const second = await p.chat(history, [WEATHER]);
  assert.equal(second.content, "Cold and warm.");
  assert.deepEqual(second.usage, { tokensIn: 50, tokensOut: 5, tokensTotal: 55, cachedTokens: 0 });

  const body = mock.lastBody("chat");
  assert.deepEqual(body.messages, [
    { role: "system", content: "sys" },
    { role: "user", content: "Oslo and Rome?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
        { id: "c2", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "-5" },
    { role: "tool", tool_call_id: "c2", content: "20" },
  ]);
  assert.deepEqual(body.tools, [{
    type: "function",
    function: {
      name: "weather",
      description: "Weather for a city.",
      parameters: WEATHER.parameters,
    },
  }]);
});

Deno.test("chat surface: images as image_url parts; annotations become the footer", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", {
    json: chatCompletion({
      content: "A dot.",
      annotations: [{ url: "https://a.example", title: "A" }],
    }),
  });
  const reply = await provider(mock, { surface: "chat" }).chat([
    { role: "user", content: "What is this?", images: [IMAGE] },
  ]);
  assert.equal(reply.content, "A dot.\n\nSources:\n- A — https://a.example");
  assert.deepEqual(mock.lastBody("chat").messages, [{
    role: "user",
    content: [
      { type: "text", text: "What is this?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
    ],
  }]);
  assert.equal(mock.lastBody("chat").tools, undefined, "no tools key when there are no tools");
});

Deno.test("arguments that are not JSON or not an object do not crash: the _raw marker", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", {
    json: chatCompletion({
      toolCalls: [
        { id: "bad", name: "weather", arguments: '{"city": "Os' },
        { id: "arr", name: "weather", arguments: "[1,2]" },
        { id: "empty", name: "weather", arguments: "" },
      ],
    }),
  });
  const reply = await provider(mock, { surface: "chat" }).chat([Message.user("x")], [WEATHER]);
  assert.deepEqual(reply.toolCalls?.map((c) => c.arguments), [
    { [RAW_ARGUMENTS_KEY]: '{"city": "Os' },
    { [RAW_ARGUMENTS_KEY]: "[1,2]" },
    {},
  ]);
});

Deno.test("params pass through; owned keys are dropped; extra_body merges; extra_headers become headers", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "ok" }) });
  const p = provider(mock, {
    surface: "chat",
    params: {
      temperature: 0.2,
      model: "evil-model",
      stream: true,
      max_retries: 9,
      extra_body: { reasoning_effort: "low" },
      extra_headers: { "X-Team": "blue" },
    },
    extraHeaders: { "X-Harness": "1" },
  });
  await p.chat([Message.user("x")]);
  const body = mock.lastBody("chat");
  assert.equal(body.model, "gpt-test");
  assert.equal(body.temperature, 0.2);
  assert.equal(body.reasoning_effort, "low");
  assert.equal(body.stream, undefined);
  assert.equal(body.max_retries, undefined);
  assert.equal(body.extra_body, undefined);
  const headers = mock.requests[0].headers;
  assert.equal(headers.get("x-team"), "blue");
  assert.equal(headers.get("x-harness"), "1");
});

Deno.test("xAI: built-ins become search_parameters (never tools); bare citations join the footer", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", {
    json: chatCompletion({
      content: "Found it.",
      extra: { citations: ["https://x.com/a", "https://x.com/a"] },
    }),
  });
  mock.reply("responses", { json: responsesReply({ text: "ok" }) });
  const chat = provider(mock, {
    providerLabel: "xai",
    surface: "chat",
    builtins: ["web_search", "x_search", "code_execution"],
    params: { extra_body: { search_parameters: { mode: "off" }, foo: 1 } },
  });
  assert.deepEqual(chat.builtins, ["web_search", "x_search"]);
  const reply = await chat.chat([Message.user("news")], [WEATHER]);
  assert.equal(reply.content, "Found it.\n\nSources:\n- https://x.com/a");
  const body = mock.lastBody("chat");
  assert.deepEqual(body.search_parameters, {
    mode: "on",
    sources: [{ type: "web" }, { type: "x" }],
    return_citations: true,
  });
  assert.equal(body.foo, 1);
  assert.equal((body.tools as unknown[]).length, 1, "only the function tool");

  const responses = provider(mock, { providerLabel: "xai", builtins: ["web_search"] });
  await responses.chat([Message.user("news")]);
  const rbody = mock.lastBody("responses");
  assert.equal(rbody.tools, undefined);
  assert.deepEqual(rbody.search_parameters, {
    mode: "on",
    sources: [{ type: "web" }],
    return_citations: true,
  });
});

Deno.test("OpenRouter over the openai SDK: chat only, metadata header, cost and endpoint", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", {
    json: chatCompletion({
      content: "ok",
      usage: { prompt: 10, completion: 2, cost: 0.00042 },
      provider: "TopLevelIsNotTheEndpoint",
      metadataSelected: "DeepInfra",
    }),
  });
  assert.throws(
    () => new OpenAIProvider({ model: "a/b", apiKey: "k", providerLabel: "openrouter" }),
    /chat-only.*AI_SDK_SURFACE=chat/,
  );
  const p = provider(mock, {
    providerLabel: "openrouter",
    surface: "chat",
    builtins: ["web_search"],
  });
  assert.deepEqual(p.builtins, []);
  const reply = await p.chat([Message.user("x")]);
  assert.deepEqual(reply.usage, {
    tokensIn: 10,
    tokensOut: 2,
    tokensTotal: 12,
    cost: 0.00042,
    endpoint: "DeepInfra",
  });
  assert.equal(mock.requests[0].headers.get("x-openrouter-metadata"), "enabled");
});

Deno.test("a missing API key is refused at construction", () => {
  assert.throws(() => new OpenAIProvider({ model: "m", apiKey: "" }), /No API key/);
});

Deno.test("contextLimit: first positive int of models.retrieve, once per instance", async () => {
  await using mock = await ModelMock.start();
  mock.reply("model", {
    json: { id: "gpt-test", object: "model", context_length: 0, context_window: 32768 },
  });
  const p = provider(mock);
  assert.equal(await p.contextLimit(), 32768);
  assert.equal(await p.contextLimit(), 32768);
  assert.equal(mock.hits("model"), 1);
  assert.deepEqual(p.contextLimitSource, { kind: "reported", via: "models.retrieve" });
  assert.equal(mock.requests[0].path, "/v1/models/gpt-test");
});

Deno.test("contextLimit: the 128,000 floor when none is stated or the call fails", async () => {
  await using mock = await ModelMock.start();
  mock.reply("model", { json: { id: "gpt-test", object: "model", owned_by: "openai" } });
  mock.reply("model", { status: 404, json: { error: { message: "no such model" } } });
  const silent = provider(mock);
  assert.equal(await silent.contextLimit(), 128_000);
  assert.equal(silent.contextLimitSource?.kind, "floor");
  const failing = provider(mock);
  assert.equal(await failing.contextLimit(), 128_000);
  assert.match(JSON.stringify(failing.contextLimitSource), /models.retrieve failed: 404/);
});
