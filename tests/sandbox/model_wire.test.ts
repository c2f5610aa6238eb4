/**
 * The sandbox demo model over the wire, driven by the real openai SDK (never mocked): the first
 * call answers the newest peer line through `messages`, the next settles on narration, and the
 * same request always gets the same bytes.
 */
import { strict as assert } from "node:assert";
import OpenAI from "openai";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { DEMO_MODEL_ID } from "../../lib/sandbox/model/mod.ts";

type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

const MESSAGES_TOOL: OpenAI.Chat.ChatCompletionTool = {
  type: "function",
  function: {
    name: "messages",
    description: "Post to the timeline.",
    parameters: { type: "object", properties: { action: { type: "string" } } },
  },
};

const BATCH = "[2026-01-01T09:00:00.000Z] bob: earlier remark\n" +
  "[2026-01-01T09:01:00.000Z] ada: What is the capital of France, @carol?";

async function withModel(fn: (client: OpenAI, sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = await Sandbox.start();
  try {
    const client = new OpenAI({ baseURL: sandbox.modelUrl, apiKey: "x", maxRetries: 0 });
    await fn(client, sandbox);
  } finally {
    await sandbox.close();
  }
}

function firstCall(): ChatParams {
  return {
    model: DEMO_MODEL_ID,
    messages: [
      { role: "system", content: "You are a peer." },
      { role: "user", content: BATCH },
      { role: "system", content: "Current Time: 2026-01-01 09:02:00 UTC\n\nStep 1 of 24." },
    ],
    tools: [MESSAGES_TOOL],
  };
}

Deno.test("chat: the first call posts one messages create answering the newest peer line", async () => {
  await withModel(async (client) => {
    const completion = await client.chat.completions.create(firstCall());
    const choice = completion.choices[0];
    assert.equal(choice.finish_reason, "tool_calls");
    assert.equal(choice.message.content, null);
    const calls = choice.message.tool_calls ?? [];
    assert.equal(calls.length, 1);
    const call = calls[0];
    assert.equal(call.type, "function");
    if (call.type !== "function") return;
    assert.equal(call.function.name, "messages");
    assert.match(call.id, /^call_[0-9a-f]{24}$/);
    const args = JSON.parse(call.function.arguments);
    assert.equal(args.action, "create");
    assert.equal(
      args.body,
      '(sandbox demo model) @ada thanks for the question — I read 7 words, starting "What is ' +
        'the capital of France, …". I only echo; set AI_API_KEY and AI_MODEL to hear from a ' +
        "real model.",
    );
    assert.equal(completion.object, "chat.completion");
    assert.equal(completion.model, DEMO_MODEL_ID);
    assert.equal(completion.system_fingerprint, "fp_sandbox_demo");
    const usage = completion.usage;
    assert.ok(usage && usage.prompt_tokens > 0 && usage.completion_tokens > 0);
    assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
    // prompt tokens are a quarter of the characters of what was sent
    const sent = JSON.stringify(firstCall().messages).length +
      JSON.stringify(firstCall().tools).length;
    assert.equal(usage.prompt_tokens, Math.ceil(sent / 4));
  });
});

Deno.test("chat: after the tool result the model settles on narration", async () => {
  await withModel(async (client) => {
    const first = await client.chat.completions.create(firstCall());
    const assistant = first.choices[0].message;
    const callId = assistant.tool_calls?.[0].id ?? "";
    const second = firstCall();
    second.messages.push(
      { role: "assistant", content: null, tool_calls: assistant.tool_calls },
      {
        role: "tool",
        tool_call_id: callId,
        content: "Posted to timeline t. The new message's uuid is u.",
      },
      { role: "system", content: "Current Time: 2026-01-01 09:02:01 UTC\n\nStep 2 of 24." },
    );
    const reply = await client.chat.completions.create(second);
    assert.equal(reply.choices[0].finish_reason, "stop");
    assert.equal(reply.choices[0].message.tool_calls, undefined);
    assert.equal(reply.choices[0].message.content, "Answered @ada's question on the timeline.");
    assert.ok((reply.usage?.prompt_tokens ?? 0) > (first.usage?.prompt_tokens ?? 0));
  });
});

Deno.test("chat: a failed post is narrated as a failure", async () => {
  await withModel(async (client) => {
    const first = await client.chat.completions.create(firstCall());
    const calls = first.choices[0].message.tool_calls;
    const params = firstCall();
    params.messages.push(
      { role: "assistant", content: null, tool_calls: calls },
      {
        role: "tool",
        tool_call_id: calls?.[0].id ?? "",
        content: "Couldn't create a message: 403",
      },
    );
    const reply = await client.chat.completions.create(params);
    assert.match(reply.choices[0].message.content ?? "", /^Tried to answer @ada's question.*403$/);
  });
});

Deno.test("chat: no tools offered (the reserve call) ⇒ plain text", async () => {
  await withModel(async (client) => {
    const params = firstCall();
    delete params.tools;
    params.messages.push({
      role: "system",
      content: "You've reached the step limit for this turn.",
    });
    const reply = await client.chat.completions.create(params);
    assert.equal(reply.choices[0].message.tool_calls, undefined);
    assert.equal(
      reply.choices[0].message.content,
      "Read @ada's question; no messages tool was offered before the step budget ran out, so " +
        "nothing was posted.",
    );
    const none = await client.chat.completions.create({ ...firstCall(), tool_choice: "none" });
    assert.equal(none.choices[0].finish_reason, "stop");
  });
});

Deno.test("chat: the same request gets byte-identical responses, a different one a new id", async () => {
  await withModel(async (_client, sandbox) => {
    const post = (body: unknown) =>
      fetch(`${sandbox.modelUrl}/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer x", "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.text());
    const a = await post(firstCall());
    const b = await post(firstCall());
    assert.equal(a, b);
    const other = firstCall();
    other.messages[1] = { role: "user", content: "[2026-01-01T10:00:00Z] bob: hello there" };
    const c = JSON.parse(await post(other));
    assert.notEqual(c.id, JSON.parse(a).id);
    assert.notEqual(
      c.choices[0].message.tool_calls[0].id,
      JSON.parse(a).choices[0].message.tool_calls[0].id,
    );
    assert.match(
      c.choices[0].message.tool_calls[0].function.arguments,
      /@bob thanks for the message/,
    );
  });
});

Deno.test("chat: stream: true yields the same tool call as deltas, with usage on request", async () => {
  await withModel(async (client) => {
    const plain = await client.chat.completions.create(firstCall());
    const stream = await client.chat.completions.create({
      ...firstCall(),
      stream: true,
      stream_options: { include_usage: true },
    });
    let name = "";
    let args = "";
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        for (const call of choice.delta.tool_calls ?? []) {
          name += call.function?.name ?? "";
          args += call.function?.arguments ?? "";
        }
        finish = choice.finish_reason ?? finish;
      }
      usage = chunk.usage ?? usage;
    }
    const expected = plain.choices[0].message.tool_calls?.[0];
    assert.equal(name, "messages");
    assert.ok(expected?.type === "function");
    assert.equal(args, expected.function.arguments);
    assert.equal(finish, "tool_calls");
    assert.deepEqual(usage, plain.usage);
  });
});

Deno.test("responses: function_call first, narration after function_call_output", async () => {
  await withModel(async (client) => {
    const tools: OpenAI.Responses.Tool[] = [{
      type: "function",
      name: "messages",
      description: "Post.",
      parameters: { type: "object", properties: {} },
      strict: false,
    }];
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: "developer", content: "You are a peer." },
      { role: "user", content: BATCH },
    ];
    const first = await client.responses.create({ model: DEMO_MODEL_ID, input, tools });
    assert.equal(first.status, "completed");
    assert.equal(first.output.length, 1);
    const item = first.output[0];
    assert.equal(item.type, "function_call");
    if (item.type !== "function_call") return;
    assert.equal(item.name, "messages");
    assert.match(JSON.parse(item.arguments).body, /^\(sandbox demo model\) @ada thanks/);
    assert.ok((first.usage?.input_tokens ?? 0) > 0 && (first.usage?.output_tokens ?? 0) > 0);

    input.push(
      { type: "function_call", call_id: item.call_id, name: item.name, arguments: item.arguments },
      { type: "function_call_output", call_id: item.call_id, output: "Posted." },
    );
    const second = await client.responses.create({ model: DEMO_MODEL_ID, input, tools });
    assert.equal(second.output_text, "Answered @ada's question on the timeline.");
    assert.equal(second.output[0].type, "message");

    const again = await client.responses.create({ model: DEMO_MODEL_ID, input, tools });
    assert.deepEqual(again, second);
  });
});

Deno.test("responses: a bare string input and no tools ⇒ text; stream: true ⇒ a clear 400", async () => {
  await withModel(async (client) => {
    const text = await client.responses.create({ model: DEMO_MODEL_ID, input: "hello" });
    assert.equal(
      text.output_text,
      "Read the message; no messages tool was offered, so nothing was posted.",
    );
    await assert.rejects(
      client.responses.create({ model: DEMO_MODEL_ID, input: "hello", stream: true }),
      (error: unknown) =>
        error instanceof OpenAI.BadRequestError && error.param === "stream" &&
        /does not stream/.test(error.message),
    );
  });
});

Deno.test("models: GET /models/sandbox-demo states a context window; bad requests are OpenAI errors", async () => {
  await withModel(async (client, sandbox) => {
    const model = await client.models.retrieve(DEMO_MODEL_ID) as unknown as Record<string, unknown>;
    assert.equal(model.id, DEMO_MODEL_ID);
    assert.equal(model.object, "model");
    assert.equal(model.context_window, 128_000);
    const list = await client.models.list();
    assert.deepEqual(list.data.map((m) => m.id), [DEMO_MODEL_ID]);

    await assert.rejects(
      client.chat.completions.create({ model: DEMO_MODEL_ID, messages: [] }),
      (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === "messages",
    );
    const anonymous = await fetch(`${sandbox.modelUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify(firstCall()),
    });
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).error.code, "invalid_api_key");
    const broken = await fetch(`${sandbox.modelUrl}/responses`, {
      method: "POST",
      headers: { authorization: "Bearer x" },
      body: "{not json",
    });
    assert.equal(broken.status, 400);
    assert.equal((await broken.json()).error.type, "invalid_request_error");
    // the sandbox logs model calls like any other request
    assert.ok(sandbox.requests.some((r) => r.path === "/_sandbox/model/v1/chat/completions"));
  });
});
