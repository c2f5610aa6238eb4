/**
 * How the OpenAI adapter reports a reply that ended other than by the model's choice, through
 * the real openai SDK against the wire mock: a chat `refusal` or a Responses `refusal` part is
 * `ending: "refused"` with the vendor's words; `finish_reason: length` or an `incomplete` reply
 * cut by `max_output_tokens` is `ending: "truncated"`, with its possibly half-written tool calls
 * left out and the message marked `cutCall`. An ordinary reply carries no ending.
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import type { ToolSpec } from "../../lib/core/types/tool.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { chatCompletion, ModelMock, responsesReply } from "../support/model_mock.ts";

const POST: ToolSpec = {
  name: "messages",
  description: "Post.",
  parameters: { type: "object", properties: { body: { type: "string" } } },
};

function provider(mock: ModelMock, surface: "chat" | "responses") {
  return new OpenAIProvider({
    model: "gpt-test",
    apiKey: "sk-test",
    baseURL: mock.baseURL,
    surface,
  });
}

/** A chat completion whose one choice is changed by `edit` (finish reason, refusal). */
function chatWith(
  options: Parameters<typeof chatCompletion>[0],
  edit: (choice: Record<string, unknown>, message: Record<string, unknown>) => void,
): Record<string, unknown> {
  const body = chatCompletion(options);
  const choice = (body.choices as Record<string, unknown>[])[0];
  edit(choice, choice.message as Record<string, unknown>);
  return body;
}

Deno.test("chat: a refusal is ending refused with the refusal's words, never content", async () => {
  await using mock = await ModelMock.start();
  mock.reply("chat", {
    json: chatWith({ content: null }, (_, message) => {
      message.refusal = "I can't help with that.";
    }),
  });
  const reply = await provider(mock, "chat").chat([Message.user("do harm")], [POST]);
  assert.equal(reply.ending, "refused");
  assert.equal(reply.refusal, "I can't help with that.");
  assert.equal(reply.content, null);
});

Deno.test("chat: finish_reason length is truncated; a cut tool call is left out and marked", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "chat",
    {
      json: chatWith({
        toolCalls: [{ id: "c1", name: "messages", arguments: { body: "hel" } }],
      }, (choice) => {
        choice.finish_reason = "length";
      }),
    },
    {
      json: chatWith({ content: "A long answ" }, (choice) => {
        choice.finish_reason = "length";
      }),
    },
    { json: chatCompletion({ content: "Done." }) },
  );
  const p = provider(mock, "chat");
  const cut = await p.chat([Message.user("go")], [POST]);
  assert.equal(cut.ending, "truncated");
  assert.equal(cut.cutCall, true);
  assert.equal(cut.toolCalls, undefined);
  const text = await p.chat([Message.user("go")], [POST]);
  assert.equal(text.ending, "truncated");
  assert.equal(text.content, "A long answ");
  assert.equal(text.cutCall, undefined);
  const plain = await p.chat([Message.user("go")], [POST]);
  assert.equal(plain.ending, undefined);
  assert.equal(plain.content, "Done.");
});

Deno.test("responses: a refusal part is ending refused with its words", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", {
    json: {
      ...responsesReply(),
      output: [{
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "refusal", refusal: "I won't do that." }],
      }],
    },
  });
  const reply = await provider(mock, "responses").chat([Message.user("do harm")], [POST]);
  assert.equal(reply.ending, "refused");
  assert.equal(reply.refusal, "I won't do that.");
  assert.equal(reply.content, null);
});

Deno.test("responses: incomplete at max_output_tokens is truncated; a cut call is left out", async () => {
  await using mock = await ModelMock.start();
  const incomplete = (body: Record<string, unknown>) => ({
    ...body,
    status: "incomplete",
    incomplete_details: { reason: "max_output_tokens" },
  });
  mock.reply(
    "responses",
    {
      json: incomplete(responsesReply({
        toolCalls: [{ id: "c1", name: "messages", arguments: { body: "hel" } }],
      })),
    },
    { json: incomplete(responsesReply({ text: "A long answ" })) },
  );
  const p = provider(mock, "responses");
  const cut = await p.chat([Message.user("go")], [POST]);
  assert.equal(cut.ending, "truncated");
  assert.equal(cut.cutCall, true);
  assert.equal(cut.toolCalls, undefined);
  const text = await p.chat([Message.user("go")], [POST]);
  assert.equal(text.ending, "truncated");
  assert.equal(text.content, "A long answ");
  assert.equal(text.cutCall, undefined);
});
