/**
 * OpenRouterProvider against the wire-level mock: the real @openrouter/sdk (strict response
 * validation included), real HTTP, asserted payloads.
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import type { ToolSpec } from "../../lib/core/types/tool.ts";
import { ProviderError } from "../../lib/core/types/faults.ts";
import {
  OpenRouterProvider,
  type OpenRouterProviderOptions,
} from "../../lib/providers/openrouter.ts";
import {
  chatCompletion,
  endpointsListing,
  listingEndpoint,
  ModelMock,
} from "../support/model_mock.ts";

const LOOKUP: ToolSpec = {
  name: "lookup",
  description: "Look a word up.",
  parameters: { type: "object", properties: { word: { type: "string" } } },
};
const IMAGE = { alt: "a dot", mimeType: "image/jpeg", data: "/9j/4AAQ" };

function provider(mock: ModelMock, extra: Partial<OpenRouterProviderOptions> = {}) {
  return new OpenRouterProvider({
    model: "author/model",
    apiKey: "sk-or-test",
    baseURL: mock.baseURL,
    ...extra,
  });
}

Deno.test("openrouter: a tool-call loop with parallel calls; snake_case on the wire", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [
          { id: "t1", name: "lookup", arguments: { word: "deno" } },
          { id: "t2", name: "lookup", arguments: { word: "node" } },
        ],
      }),
    },
    { json: chatCompletion({ content: "Both are runtimes." }) },
  );
  const p = provider(mock);
  const history: Message[] = [Message.system("sys"), Message.user("define both")];
  const first = await p.chat(history, [LOOKUP]);
  assert.deepEqual(first.toolCalls, [
    { id: "t1", name: "lookup", arguments: { word: "deno" } },
    { id: "t2", name: "lookup", arguments: { word: "node" } },
  ]);
  history.push(first, Message.tool("t1", "a runtime"), Message.tool("t2", "a runtime"));
  const second = await p.chat(history, [LOOKUP]);
  assert.equal(second.content, "Both are runtimes.");

  const body = mock.lastBody("chat");
  assert.equal(body.model, "author/model");
  assert.equal(body.stream, false);
  assert.deepEqual(body.messages, [
    { role: "system", content: "sys" },
    { role: "user", content: "define both" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "t1", type: "function", function: { name: "lookup", arguments: '{"word":"deno"}' } },
        { id: "t2", type: "function", function: { name: "lookup", arguments: '{"word":"node"}' } },
      ],
    },
    { role: "tool", tool_call_id: "t1", content: "a runtime" },
    { role: "tool", tool_call_id: "t2", content: "a runtime" },
  ]);
  assert.deepEqual(body.tools, [{
    type: "function",
    function: { name: "lookup", description: "Look a word up.", parameters: LOOKUP.parameters },
  }]);
  const headers = mock.requests[0].headers;
  assert.equal(headers.get("authorization"), "Bearer sk-or-test");
  assert.equal(headers.get("x-openrouter-metadata"), "enabled");
  assert.equal(mock.hits("chat"), 2);
});

Deno.test("openrouter: images as image_url parts", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "A dot." }) });
  await provider(mock).chat([{ role: "user", content: "what?", images: [IMAGE] }]);
  assert.deepEqual(mock.lastBody("chat").messages, [{
    role: "user",
    content: [
      { type: "text", text: "what?" },
      { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AAQ" } },
    ],
  }]);
});

Deno.test("openrouter: web_search server tool carries search params; annotations survive the strict SDK", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", {
    json: chatCompletion({
      content: "News.",
      annotations: [{ url: "https://n.example/1", title: "One" }, {
        url: "https://n.example/1",
        title: "One",
      }],
    }),
  });
  const p = provider(mock, {
    builtins: ["web_search"],
    searchParams: { max_results: 3, engine: "exa" },
  });
  assert.deepEqual(p.builtins, ["web_search"]);
  const reply = await p.chat([Message.user("news?")], [LOOKUP]);
  assert.equal(reply.content, "News.\n\nSources:\n- One — https://n.example/1");
  const tools = mock.lastBody("chat").tools as Record<string, unknown>[];
  assert.deepEqual(tools[0], {
    type: "openrouter:web_search",
    parameters: { max_results: 3, engine: "exa" },
  });
  assert.equal(tools[1].type, "function");
});

Deno.test("openrouter: web_search with no search params is the bare tool", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "ok" }) });
  await provider(mock, { builtins: ["web_search"] }).chat([Message.user("x")]);
  assert.deepEqual(mock.lastBody("chat").tools, [{ type: "openrouter:web_search" }]);
});

Deno.test("openrouter: usage, cached tokens, cost and the selected endpoint", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", {
    json: chatCompletion({
      content: "ok",
      usage: { prompt: 900, completion: 12, cached: 512, cost: 0.0031 },
      provider: "NotThis",
      metadataSelected: "Fireworks",
    }),
  });
  const p = provider(mock);
  const reply = await p.chat([Message.user("x")]);
  assert.deepEqual(reply.usage, {
    tokensIn: 900,
    tokensOut: 12,
    tokensTotal: 912,
    cachedTokens: 512,
    cost: 0.0031,
    endpoint: "Fireworks",
  });
  assert.equal(p.lastTokensIn, 900);
});

Deno.test("openrouter: model_params pass through in SDK form; owned keys dropped", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", { json: chatCompletion({ content: "ok" }) });
  const p = provider(mock, {
    params: {
      max_tokens: 100,
      temperature: 0.5,
      provider: { only: ["deepinfra"], allow_fallbacks: false },
      model: "evil/model",
      http_headers: { x: "y" },
      extra_body: { z: 1 },
    },
  });
  await p.chat([Message.user("x")]);
  const body = mock.lastBody("chat");
  assert.equal(body.model, "author/model");
  assert.equal(body.max_tokens, 100);
  assert.equal(body.temperature, 0.5);
  assert.deepEqual(body.provider, { only: ["deepinfra"], allow_fallbacks: false });
  assert.equal(body.z, undefined);
});

Deno.test("openrouter: an unknown model_params key is refused naming model_params.json, before any request", async () => {
  await using mock = await ModelMock.start();
  const p = provider(mock, { params: { temprature: 0.5 } });
  const error = await p.chat([Message.user("x")]).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ProviderError);
  assert.match(error.message, /model_params\.json.*chat\.send.*'temprature'/);
  assert.equal(mock.hits(), 0);
});

Deno.test("openrouter: contextLimit is the max over routable endpoints of min(context, max prompt)", async () => {
  await using mock = await ModelMock.start();
  mock.always("endpoints", {
    json: endpointsListing([
      listingEndpoint({ tag: "deepinfra/fp8", contextLength: 131072, maxPromptTokens: 100000 }),
      listingEndpoint({ tag: "together", contextLength: 65536 }),
      listingEndpoint({ tag: "down", contextLength: 1_000_000, status: -2 }),
    ], ["text", "image"]),
  });
  const p = provider(mock, { model: "author/model:free" });
  assert.equal(await p.contextLimit(), 100000);
  assert.deepEqual(p.contextLimitSource, { kind: "reported", via: "endpoints.list" });
  assert.equal(mock.requestsTo("endpoints")[0].path, "/v1/models/author/model/endpoints");
  assert.equal(await p.supportsVision(), true);
  assert.equal(mock.hits("endpoints"), 1, "one listing serves both questions");

  const onlyTogether = provider(mock, { params: { provider: { only: ["Together"] } } });
  assert.equal(await onlyTogether.contextLimit(), 65536);
  const orderStrict = provider(mock, {
    params: { provider: { order: ["together"], allow_fallbacks: false } },
  });
  assert.equal(await orderStrict.contextLimit(), 65536);
  const orderLoose = provider(mock, { params: { provider: { order: ["together"] } } });
  assert.equal(await orderLoose.contextLimit(), 100000);
});

Deno.test("openrouter: contextLimit falls to the floor on a failed or empty listing; vision unknown", async () => {
  await using mock = await ModelMock.start();
  mock.reply("endpoints", {
    status: 404,
    json: { error: { code: 404, message: "no such model" } },
  });
  mock.reply("endpoints", { json: endpointsListing([], []) });
  const failing = provider(mock);
  assert.equal(await failing.contextLimit(), 128_000);
  assert.equal(failing.contextLimitSource?.kind, "floor");
  const empty = provider(mock);
  assert.equal(await empty.contextLimit(), 128_000);
  assert.equal(await empty.supportsVision(), undefined);
  const noSlash = provider(mock, { model: "justamodel" });
  assert.equal(await noSlash.contextLimit(), 128_000);
  assert.match(JSON.stringify(noSlash.contextLimitSource), /author\/slug/);
});

Deno.test("openrouter: a text-only model says no to vision", async () => {
  await using mock = await ModelMock.start();
  mock.always("endpoints", {
    json: endpointsListing([listingEndpoint({ tag: "a", contextLength: 8192 })], ["text"]),
  });
  assert.equal(await provider(mock).supportsVision(), false);
});

Deno.test("openrouter: a refusal and a cut reply come through the SDK's camelCase as endings", async () => {
  await using mock = await ModelMock.start();
  const edited = (
    options: Parameters<typeof chatCompletion>[0],
    edit: (choice: Record<string, unknown>, message: Record<string, unknown>) => void,
  ) => {
    const body = chatCompletion(options);
    const choice = (body.choices as Record<string, unknown>[])[0];
    edit(choice, choice.message as Record<string, unknown>);
    return body;
  };
  mock.reply(
    "chat",
    {
      json: edited({ content: null }, (_, message) => {
        message.refusal = "Not that.";
      }),
    },
    {
      json: edited(
        { toolCalls: [{ id: "t1", name: "lookup", arguments: { word: "de" } }] },
        (c) => {
          c.finish_reason = "length";
        },
      ),
    },
  );
  const p = provider(mock);
  const refused = await p.chat([Message.user("x")], [LOOKUP]);
  assert.equal(refused.ending, "refused");
  assert.equal(refused.refusal, "Not that.");
  const cut = await p.chat([Message.user("x")], [LOOKUP]);
  assert.equal(cut.ending, "truncated");
  assert.equal(cut.cutCall, true);
  assert.equal(cut.toolCalls, undefined);
});
