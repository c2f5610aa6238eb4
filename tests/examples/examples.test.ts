/**
 * The runnable examples, each run as its own process with explicit permissions, the way a
 * reader runs them. The ones that need a model talk to the wire-level mock through the real
 * openai SDK; the script makes the model actually call the tools before it answers.
 */
import assert from "node:assert/strict";
import { MemoryTool } from "../../lib/mod.ts";
import {
  chatCompletion,
  ModelMock,
  type RecordedRequest,
  responsesReply,
} from "../support/model_mock.ts";
import { ROOT, type Run, runDeno } from "./run_deno.ts";

/** Permissions for the examples that reach a model on 127.0.0.1 and keep memory on disk. */
const MODEL_PERMISSIONS = ["--allow-net=127.0.0.1", "--allow-read", "--allow-write", "--allow-env"];

function runExample(
  name: string,
  permissions: string[],
  env: Record<string, string> = {},
): Promise<Run> {
  return runDeno(["run", "--quiet", ...permissions, `${ROOT}examples/${name}`], env);
}

/** The model environment the examples read, pointed at the mock. */
function modelEnv(
  mock: ModelMock,
  surface: "chat" | "responses",
  home: string,
): Record<string, string> {
  return {
    AI_API_KEY: "sk-test",
    AI_MODEL: "mock-model",
    AI_BASE_URL: mock.baseURL,
    AI_SDK_SURFACE: surface,
    HARNESS_HOME: home,
  };
}

/** A fresh HARNESS_HOME, with the mock answering the model lookup every model example makes. */
async function modelHome(mock: ModelMock): Promise<string> {
  mock.always("model", { json: { id: "mock-model", context_length: 32768 } });
  return await Deno.makeTempDir();
}

function assertRan(run: Run): void {
  assert.deepStrictEqual(run.code, 0, `example failed:\n${run.stderr}`);
}

/** The chat messages a recorded Chat Completions request carried. */
function chatMessages(request: RecordedRequest): { role: string; content?: unknown }[] {
  return (request.body as { messages: { role: string; content?: unknown }[] }).messages;
}

/** The text of every tool result a recorded Chat Completions request carried. */
function chatToolResults(request: RecordedRequest): unknown[] {
  return chatMessages(request).filter((m) => m.role === "tool").map((m) => m.content);
}

/** The text of every user turn a recorded Chat Completions request carried. */
function chatUserTexts(request: RecordedRequest): unknown[] {
  return chatMessages(request).filter((m) => m.role === "user").map((m) => m.content);
}

/** The `function_call_output` texts a recorded Responses request carried. */
function responsesToolResults(request: RecordedRequest): unknown[] {
  const input = (request.body as { input: { type?: string; output?: unknown }[] }).input;
  return input.filter((item) => item.type === "function_call_output").map((item) => item.output);
}

async function storedMemory(home: string, key: string): Promise<string> {
  const memory = new MemoryTool({ home });
  try {
    return await memory.run({ action: "read", key });
  } finally {
    memory.close();
  }
}

const WRITE_RUBY = {
  id: "call_write",
  name: "memory",
  arguments: { action: "write", key: "favorite_language", value: "Ruby" },
};
const SEARCH_LANGUAGE = {
  id: "call_search",
  name: "memory",
  arguments: { action: "search", query: "language" },
};
const REMEMBERED = "Remembered 'favorite_language'.";
const RECALLED = "Memories matching 'language':\nfavorite_language: Ruby";

Deno.test("quickstart: the model writes and then searches memory (chat surface)", async () => {
  await using mock = await ModelMock.start();
  const home = await modelHome(mock);
  mock.reply(
    "chat",
    { json: chatCompletion({ toolCalls: [WRITE_RUBY] }) },
    { json: chatCompletion({ content: "Noted — your favorite language is Ruby." }) },
    { json: chatCompletion({ toolCalls: [SEARCH_LANGUAGE] }) },
    { json: chatCompletion({ content: "Your favorite language is Ruby." }) },
  );

  const run = await runExample("quickstart.ts", MODEL_PERMISSIONS, modelEnv(mock, "chat", home));

  assertRan(run);
  assert.deepStrictEqual(
    run.stdout,
    "Noted — your favorite language is Ruby.\nYour favorite language is Ruby.\n",
  );
  const chats = mock.requestsTo("chat");
  assert.deepStrictEqual(chats.length, 4);
  for (const request of chats) {
    assert.deepStrictEqual(request.headers.get("authorization"), "Bearer sk-test");
    assert.deepStrictEqual((request.body as { model: string }).model, "mock-model");
    assert.deepStrictEqual(chatMessages(request)[0], {
      role: "system",
      content: "You are Nova, a helpful peer on BaseCradle.",
    });
  }
  assert.deepStrictEqual(chatToolResults(chats[0]), []);
  assert.deepStrictEqual(chatToolResults(chats[1]), [REMEMBERED]);
  assert.deepStrictEqual(chatToolResults(chats[3]), [REMEMBERED, RECALLED]);
  assert.deepStrictEqual(await storedMemory(home, "favorite_language"), "Ruby");
});

Deno.test("quickstart: the same turns over the Responses surface", async () => {
  await using mock = await ModelMock.start();
  const home = await modelHome(mock);
  mock.reply(
    "responses",
    { json: responsesReply({ toolCalls: [WRITE_RUBY] }) },
    { json: responsesReply({ text: "Noted." }) },
    { json: responsesReply({ toolCalls: [SEARCH_LANGUAGE] }) },
    { json: responsesReply({ text: "Ruby." }) },
  );

  const run = await runExample(
    "quickstart.ts",
    MODEL_PERMISSIONS,
    modelEnv(mock, "responses", home),
  );

  assertRan(run);
  assert.deepStrictEqual(run.stdout, "Noted.\nRuby.\n");
  const calls = mock.requestsTo("responses");
  assert.deepStrictEqual(calls.length, 4);
  assert.deepStrictEqual(mock.hits("chat"), 0);
  assert.deepStrictEqual(responsesToolResults(calls[1]), [REMEMBERED]);
  assert.deepStrictEqual(responsesToolResults(calls[3]), [REMEMBERED, RECALLED]);
  assert.deepStrictEqual(await storedMemory(home, "favorite_language"), "Ruby");
});

Deno.test("quickstart: without AI_API_KEY it says what to set and calls nothing", async () => {
  await using mock = await ModelMock.start();
  const home = await Deno.makeTempDir();
  const env = { ...modelEnv(mock, "chat", home), AI_API_KEY: "" };

  const run = await runExample("quickstart.ts", MODEL_PERMISSIONS, env);

  assert.deepStrictEqual(run.code, 1);
  assert.deepStrictEqual(run.stdout, "");
  assert.ok(run.stderr.includes("Set AI_API_KEY"), run.stderr);
  assert.deepStrictEqual(mock.hits(), 0);
});

Deno.test("two_channels: separate conversations share one memory", async () => {
  await using mock = await ModelMock.start();
  const home = await modelHome(mock);
  mock.reply(
    "chat",
    // github:pr-123 — the agent files what happened.
    {
      json: chatCompletion({
        toolCalls: [{
          id: "call_write",
          name: "memory",
          arguments: { action: "write", key: "shipped", value: "the retry fix on PR #123" },
        }],
      }),
    },
    { json: chatCompletion({ content: "Congrats — noted." }) },
    // timeline:abc — a different conversation recalls it from memory.
    {
      json: chatCompletion({
        toolCalls: [{
          id: "call_search",
          name: "memory",
          arguments: { action: "search", query: "shipped" },
        }],
      }),
    },
    { json: chatCompletion({ content: "I shipped the retry fix on PR #123." }) },
  );

  const run = await runExample("two_channels.ts", MODEL_PERMISSIONS, modelEnv(mock, "chat", home));

  assertRan(run);
  assert.deepStrictEqual(
    run.stdout,
    [
      "I shipped the retry fix on PR #123.",
      "user I shipped the retry fix on PR #123.",
      "assistant (calls memory)",
      "tool Remembered 'shipped'.",
      "assistant Congrats — noted.",
      "",
    ].join("\n"),
  );
  const chats = mock.requestsTo("chat");
  assert.deepStrictEqual(chats.length, 4);
  // The second channel's conversation does not contain the first channel's...
  assert.deepStrictEqual(chatUserTexts(chats[2]), ["What did you ship?"]);
  assert.deepStrictEqual(chatUserTexts(chats[3]), ["What did you ship?"]);
  // ...but its memory search reaches what the first channel wrote.
  assert.deepStrictEqual(chatToolResults(chats[3]), [
    "Memories matching 'shipped':\nshipped: the retry fix on PR #123",
  ]);
});

Deno.test("memory: write, then keyword search", async () => {
  const home = await Deno.makeTempDir();

  const run = await runExample("memory.ts", ["--allow-read", "--allow-write", "--allow-env"], {
    HARNESS_HOME: home,
  });

  assertRan(run);
  assert.deepStrictEqual(run.stdout, "Memories matching 'texas':\nhome_city: Dallas, Texas\n");
  assert.deepStrictEqual(await storedMemory(home, "home_city"), "Dallas, Texas");
});

Deno.test("custom_tool: the model calls the registered tool and reads its result", async () => {
  await using mock = await ModelMock.start();
  const home = await modelHome(mock);
  mock.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{ id: "call_upper", name: "uppercase", arguments: { text: "hello world" } }],
      }),
    },
    { json: chatCompletion({ content: "The result is HELLO WORLD." }) },
  );

  const run = await runExample(
    "custom_tool.ts",
    ["--allow-net=127.0.0.1", "--allow-env"],
    modelEnv(mock, "chat", home),
  );

  assertRan(run);
  assert.deepStrictEqual(run.stdout, "HELLO\nThe result is HELLO WORLD.\n");
  const chats = mock.requestsTo("chat");
  assert.deepStrictEqual(chats.length, 2);
  const tools = (chats[0].body as { tools: { function: { name: string; parameters: unknown } }[] })
    .tools;
  assert.deepStrictEqual(tools.map((tool) => tool.function.name), ["uppercase"]);
  assert.deepStrictEqual(tools[0].function.parameters, {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  });
  assert.deepStrictEqual(chatToolResults(chats[1]), ["HELLO WORLD"]);
});

Deno.test("custom_provider: a provider defined in a few lines, run with no permissions", async () => {
  const run = await runExample("custom_provider.ts", []);

  assertRan(run);
  assert.deepStrictEqual(run.stdout, "You said: Hello!\n");
});

Deno.test("safe_by_default: the locked registry refuses a shell tool; unlocked accepts it", async () => {
  const run = await runExample("safe_by_default.ts", []);

  assertRan(run);
  assert.deepStrictEqual(run.stdout, "PolicyError\ntrue\n");
  assert.strictEqual(run.stderr, "");
});
