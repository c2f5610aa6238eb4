/**
 * The Anthropic adapter through the real anthropic SDK against the wire mock: the request it
 * renders (tools → system → messages, notes, merged turns, images, the two cache breakpoints),
 * the reply it reads (text, citations, tool calls, usage with cache reads and writes), a
 * `pause_turn` resumed and bounded, a refusal and a cut reply reported on the message, the
 * model_params rules, and the context window and vision read off the models API.
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import { ProviderError } from "../../lib/core/types/faults.ts";
import type { ToolSpec } from "../../lib/core/types/tool.ts";
import {
  AnthropicProvider,
  DEFAULT_MAX_TOKENS,
  MAX_PAUSE_CONTINUATIONS,
} from "../../lib/providers/anthropic.ts";
import { briefView } from "../../lib/wake/engaged/brief.ts";
import { anthropicMessage, ModelMock } from "../support/model_mock.ts";

const TOOLS: ToolSpec[] = [
  { name: "messages", description: "post", parameters: { type: "object", properties: {} } },
  { name: "users", description: "who", parameters: { type: "object", properties: {} } },
];

function provider(
  mock: ModelMock,
  extra: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {},
) {
  return new AnthropicProvider({
    model: "claude-test",
    apiKey: "sk-ant-test",
    baseURL: mock.origin,
    ...extra,
  });
}

type Block = Record<string, unknown>;
type WireMessage = { role: string; content: Block[] };

/** Where each `cache_control` sits: `tools[i]`, `system[i]` or `messages[i][j]`. */
function breakpoints(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  (body.tools as Block[] | undefined ?? []).forEach((tool, i) => {
    if (tool.cache_control) out.push(`tools[${i}]`);
  });
  (body.system as Block[] | undefined ?? []).forEach((block, i) => {
    if (block.cache_control) out.push(`system[${i}]`);
  });
  (body.messages as WireMessage[]).forEach((message, i) => {
    message.content.forEach((block, j) => {
      if (block.cache_control) out.push(`messages[${i}][${j}]`);
    });
  });
  return out;
}

/** A saved conversation: one earlier turn with a tool call, then a new user turn. */
function conversation(): Message[] {
  return [
    Message.user("[2026-12-01T10:00:00Z] bob: weather?", { items: ["a"] }),
    Message.system("Current Time: 2026-12-01 10:00:01 UTC\n\nStep 1 of 24."),
    Message.assistant({ content: null, toolCalls: [{ id: "c1", name: "users", arguments: {} }] }),
    Message.tool("c1", "-5 C"),
    Message.system("Current Time: 2026-12-01 10:00:02 UTC\n\nStep 2 of 24."),
    Message.assistant({ content: "It is cold." }),
    Message.user("[2026-12-02T09:00:00Z] bob: again", { items: ["b"] }),
    Message.system("Current Time: 2026-12-02 09:00:01 UTC\n\nStep 1 of 24."),
  ];
}

Deno.test("anthropic: the request is tools → system → messages, with notes and merged turns", async () => {
  await using mock = await ModelMock.start();
  mock.reply("messages", { json: anthropicMessage({ content: [{ text: "hi" }] }) });
  const p = provider(mock);
  assert.equal(p.cacheMode, "explicit");
  await p.chat(briefView("CHARTER", "VOLATILE", p.cacheMode)(conversation()), TOOLS);
  const request = mock.requestsTo("messages")[0];
  assert.equal(request.path, "/v1/messages");
  const body = request.body as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), [
    "max_tokens",
    "model",
    "tools",
    "system",
    "messages",
  ]);
  assert.equal(body.max_tokens, DEFAULT_MAX_TOKENS);
  assert.equal(body.model, "claude-test");
  assert.deepEqual(body.tools, [
    { name: "messages", description: "post", input_schema: { type: "object", properties: {} } },
    { name: "users", description: "who", input_schema: { type: "object", properties: {} } },
  ]);
  assert.deepEqual(body.system, [
    { type: "text", text: "CHARTER", cache_control: { type: "ephemeral" } },
  ]);
  const note = (text: string) => `<system-note>\n${text}\n</system-note>`;
  assert.deepEqual(body.messages, [
    {
      role: "user",
      content: [
        { type: "text", text: "[2026-12-01T10:00:00Z] bob: weather?" },
        { type: "text", text: note("Current Time: 2026-12-01 10:00:01 UTC\n\nStep 1 of 24.") },
      ],
    },
    { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "users", input: {} }] },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "c1", content: "-5 C" },
        { type: "text", text: note("Current Time: 2026-12-01 10:00:02 UTC\n\nStep 2 of 24.") },
      ],
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "It is cold.", cache_control: { type: "ephemeral" } }],
    },
    {
      role: "user",
      content: [
        { type: "text", text: note("VOLATILE") },
        { type: "text", text: "[2026-12-02T09:00:00Z] bob: again" },
        { type: "text", text: note("Current Time: 2026-12-02 09:00:01 UTC\n\nStep 1 of 24.") },
      ],
    },
  ]);
  // The SDK sends the key itself; the harness adds no header of its own.
  assert.equal(request.headers.get("authorization"), "Bearer sk-ant-test");
});

Deno.test("anthropic: exactly two breakpoints — the charter, and the last turn before the new one", async () => {
  await using mock = await ModelMock.start();
  mock.always("messages", { json: anthropicMessage() });
  const p = provider(mock);
  await p.chat(briefView("CHARTER", "VOLATILE", p.cacheMode)(conversation()), TOOLS);
  assert.deepEqual(breakpoints(mock.lastBody("messages")), ["system[0]", "messages[3][0]"]);
  // A first wake has no saved turns: the charter's breakpoint is the only one.
  await p.chat(briefView("CHARTER", "VOLATILE", p.cacheMode)([Message.user("[t] bob: hi")]), TOOLS);
  assert.deepEqual(breakpoints(mock.lastBody("messages")), ["system[0]"]);
  // No charter: breakpoint 1 moves to the last tool.
  await p.chat(briefView(undefined, "VOLATILE", p.cacheMode)(conversation()), TOOLS);
  assert.deepEqual(breakpoints(mock.lastBody("messages")), ["tools[1]", "messages[3][0]"]);
  // The live transcript is never marked.
  assert.ok(conversation().every((m) => m.cacheAnchor === undefined));
});

Deno.test("anthropic: images ride as base64 blocks; a type the API cannot read becomes a note", async () => {
  await using mock = await ModelMock.start();
  mock.reply("messages", { json: anthropicMessage() });
  const user: Message = {
    role: "user",
    content: "[t] bob: look",
    images: [
      { alt: "a.png", mimeType: "image/png", data: "iVBORw0K" },
      { alt: "b.bmp", mimeType: "image/bmp", data: "Qk0=" },
    ],
  };
  await provider(mock).chat([user]);
  const [message] = mock.lastBody("messages").messages as WireMessage[];
  assert.deepEqual(message.content, [
    { type: "text", text: "[t] bob: look" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0K" } },
    {
      type: "text",
      text: "(Image not sent: b.bmp — image/bmp is not an image type this model reads.)",
    },
  ]);
});

Deno.test("anthropic: a reply's text, citations, tool calls and usage with cache reads and writes", async () => {
  await using mock = await ModelMock.start();
  mock.reply("messages", {
    json: anthropicMessage({
      content: [
        { text: "Snow ", citations: [{ url: "https://w.example/a", title: "Weather" }] },
        { raw: { type: "server_tool_use", id: "srv1", name: "web_search", input: { q: "x" } } },
        { text: "today." },
        { toolUse: { id: "toolu_1", name: "messages", arguments: { action: "create" } } },
      ],
      usage: { input: 100, output: 20, cacheRead: 4000, cacheWrite: 300 },
    }),
  });
  const p = provider(mock);
  const reply = await p.chat([Message.user("hi")], TOOLS);
  assert.equal(reply.content, "Snow today.\n\nSources:\n- Weather — https://w.example/a");
  assert.deepEqual(reply.toolCalls, [
    { id: "toolu_1", name: "messages", arguments: { action: "create" } },
  ]);
  assert.equal(reply.ending, undefined);
  assert.deepEqual(reply.usage, {
    tokensIn: 4400,
    tokensOut: 20,
    tokensTotal: 4420,
    cachedTokens: 4000,
    cacheWriteTokens: 300,
  });
  assert.equal(p.lastTokensIn, 4400);
});

Deno.test("anthropic: pause_turn is resumed with the paused content sent back as the assistant's", async () => {
  await using mock = await ModelMock.start();
  const paused = { raw: { type: "server_tool_use", id: "srv1", name: "web_search", input: {} } };
  mock.reply(
    "messages",
    {
      json: anthropicMessage({
        content: [{ text: "Searching. " }, paused],
        stopReason: "pause_turn",
        usage: { input: 10, output: 5, cacheWrite: 50 },
      }),
    },
    {
      json: anthropicMessage({
        content: [{ text: "Found it." }],
        usage: { input: 12, output: 7, cacheRead: 50 },
      }),
    },
  );
  const reply = await provider(mock).chat([Message.user("find")], TOOLS);
  const requests = mock.requestsTo("messages");
  assert.equal(requests.length, 2);
  const second = (requests[1].body as Record<string, unknown>).messages as WireMessage[];
  assert.deepEqual(second.at(-1), {
    role: "assistant",
    content: [
      { type: "text", text: "Searching. ", citations: null },
      { type: "server_tool_use", id: "srv1", name: "web_search", input: {} },
    ],
  });
  assert.deepEqual(second.slice(0, -1), (requests[0].body as Record<string, unknown>).messages);
  assert.equal(reply.content, "Searching. Found it.");
  assert.equal(reply.ending, undefined);
  assert.deepEqual(reply.usage, {
    tokensIn: 122,
    tokensOut: 12,
    tokensTotal: 134,
    cachedTokens: 50,
    cacheWriteTokens: 50,
  });
});

Deno.test(`anthropic: pause_turn is resumed at most ${MAX_PAUSE_CONTINUATIONS} times, then ends truncated`, async () => {
  await using mock = await ModelMock.start();
  mock.always("messages", {
    json: anthropicMessage({ content: [{ text: "." }], stopReason: "pause_turn" }),
  });
  const reply = await provider(mock).chat([Message.user("find")]);
  assert.equal(mock.hits("messages"), 1 + MAX_PAUSE_CONTINUATIONS);
  assert.equal(reply.ending, "truncated");
  assert.equal(reply.content, "....");
});

Deno.test("anthropic: a refusal sets ending refused, with the vendor's explanation", async () => {
  await using mock = await ModelMock.start();
  mock.reply("messages", {
    json: anthropicMessage({
      content: [{ text: "I can" }],
      stopReason: "refusal",
      stopDetails: { type: "refusal", category: "cyber", explanation: "Malware development." },
    }),
  });
  const reply = await provider(mock).chat([Message.user("write malware")]);
  assert.equal(reply.ending, "refused");
  assert.equal(reply.refusal, "Malware development.");
  assert.equal(reply.content, "I can");
});

Deno.test("anthropic: max_tokens sets ending truncated and drops the tool call it may have cut", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "messages",
    {
      json: anthropicMessage({
        content: [
          { toolUse: { id: "t1", name: "users", arguments: { action: "me" } } },
          { toolUse: { id: "t2", name: "messages", arguments: { action: "create" } } },
        ],
        stopReason: "max_tokens",
      }),
    },
    { json: anthropicMessage({ content: [{ text: "A long answ" }], stopReason: "max_tokens" }) },
  );
  const p = provider(mock);
  const cut = await p.chat([Message.user("go")], TOOLS);
  assert.equal(cut.ending, "truncated");
  assert.deepEqual(cut.toolCalls, [{ id: "t1", name: "users", arguments: { action: "me" } }]);
  assert.equal(cut.cutCall, true, "the dropped call marks the reply for the loop to ask again");
  const text = await p.chat([Message.user("go")], TOOLS);
  assert.equal(text.ending, "truncated");
  assert.equal(text.content, "A long answ");
  assert.equal(text.toolCalls, undefined);
  assert.equal(text.cutCall, undefined, "a reply cut in its text cut no call");
});

Deno.test("anthropic: model_params — kept keys ride, owned keys drop, escape hatches work", async () => {
  await using mock = await ModelMock.start();
  mock.reply("messages", { json: anthropicMessage() });
  const p = provider(mock, {
    params: {
      max_tokens: 512,
      stop_sequences: ["END"],
      model: "other",
      system: "ignored",
      extra_body: { metadata: { user_id: "u1" } },
      extra_headers: { "anthropic-beta": "some-beta" },
    },
  });
  await p.chat([Message.user("hi")]);
  const request = mock.requestsTo("messages")[0];
  const body = request.body as Record<string, unknown>;
  assert.equal(body.max_tokens, 512);
  assert.deepEqual(body.stop_sequences, ["END"]);
  assert.equal(body.model, "claude-test");
  assert.equal(body.system, undefined);
  assert.deepEqual(body.metadata, { user_id: "u1" });
  assert.equal(request.headers.get("anthropic-beta"), "some-beta");
});

Deno.test("anthropic: an unknown model_params key, or thinking, is refused before any call", () => {
  const base = { model: "m", apiKey: "sk" };
  assert.throws(
    () => new AnthropicProvider({ ...base, params: { max_tokenz: 10 } }),
    (e: unknown) =>
      e instanceof ProviderError &&
      /'max_tokenz' is not a request parameter of Anthropic's Messages API/.test(e.message),
  );
  assert.throws(
    () => new AnthropicProvider({ ...base, params: { thinking: { type: "adaptive" } } }),
    (e: unknown) => e instanceof ProviderError && /'thinking' is not supported/.test(e.message),
  );
  assert.throws(() => new AnthropicProvider({ ...base, apiKey: "" }), ProviderError);
});

Deno.test("anthropic: web search rides as the server tool when the built-in is active", async () => {
  await using mock = await ModelMock.start();
  mock.reply("messages", { json: anthropicMessage() });
  const p = provider(mock, { builtins: ["web_search", "x_search"] });
  assert.deepEqual(p.builtins, ["web_search"]);
  await p.chat([Message.user("hi")], TOOLS.slice(0, 1));
  // Without a charter, breakpoint 1 sits on the last tool: here the server tool.
  assert.deepEqual(mock.lastBody("messages").tools, [
    { name: "messages", description: "post", input_schema: { type: "object", properties: {} } },
    { type: "web_search_20250305", name: "web_search", cache_control: { type: "ephemeral" } },
  ]);
});

Deno.test("anthropic: the context window and vision come from the models API, asked once", async () => {
  await using mock = await ModelMock.start();
  mock.always("model", {
    json: {
      type: "model",
      id: "claude-test",
      max_input_tokens: 200_000,
      capabilities: { image_input: { supported: false } },
    },
  });
  const p = provider(mock);
  assert.equal(await p.contextLimit(), 200_000);
  assert.equal(await p.supportsVision(), false);
  assert.deepEqual(p.contextLimitSource, { kind: "reported", via: "models.retrieve" });
  assert.equal(mock.hits("model"), 1);
  assert.equal(mock.requestsTo("model")[0].path, "/v1/models/claude-test");
});

Deno.test("anthropic: a listing without a window, or a failed one, falls to the floor", async () => {
  await using mock = await ModelMock.start();
  mock.reply("model", { json: { type: "model", id: "claude-test" } });
  const p = provider(mock);
  assert.equal(await p.contextLimit(), 128_000);
  assert.equal(p.contextLimitSource?.kind, "floor");
  assert.equal(await p.supportsVision(), undefined);
  mock.always("model", { status: 500, json: { type: "error", error: { type: "api_error" } } });
  const q = provider(mock);
  assert.equal(await q.contextLimit(), 128_000);
  assert.match(JSON.stringify(q.contextLimitSource), /models\.retrieve failed/);
});

Deno.test("anthropic: a tool-less call after tool calls keeps the tools, with tool_choice none", async () => {
  await using mock = await ModelMock.start();
  mock.always("messages", { json: anthropicMessage() });
  const p = provider(mock);
  const live = briefView("CHARTER", undefined, p.cacheMode)(conversation());
  await p.chat(live, TOOLS);
  const withTools = mock.lastBody("messages");
  assert.equal(withTools.tool_choice, undefined);
  // The engine's reserve call offers no tools; the conversation still holds tool_use blocks.
  await p.chat(live);
  const reserve = mock.lastBody("messages");
  assert.deepEqual(reserve.tool_choice, { type: "none" });
  assert.deepEqual(reserve.tools, withTools.tools);
  // A provider that never saw tools sends none.
  await provider(mock).chat([Message.user("hi")]);
  assert.equal(mock.lastBody("messages").tools, undefined);
  assert.equal(mock.lastBody("messages").tool_choice, undefined);
});

Deno.test("anthropic: no charter and nothing saved — the leading notes are never before a breakpoint", async () => {
  await using mock = await ModelMock.start();
  mock.always("messages", { json: anthropicMessage() });
  const p = provider(mock);
  // HARNESS_ONBOARD off, an empty system prompt, a first wake: only the notes block leads.
  const view = [
    Message.system("<working-state>notes</working-state>"),
    Message.user("[t] bob: hi"),
  ];
  await p.chat(view, TOOLS);
  const body = mock.lastBody("messages");
  assert.deepEqual(breakpoints(body), ["tools[1]"]);
  assert.deepEqual(body.system, [{ type: "text", text: "<working-state>notes</working-state>" }]);
  // Without tools (and none offered before) there is nothing stable to mark.
  await provider(mock).chat([Message.user("[t] bob: hi")]);
  assert.deepEqual(breakpoints(mock.lastBody("messages")), []);
});
