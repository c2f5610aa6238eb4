/**
 * The Chat Completions wire (openai SDK, `surface: "chat"`): messages and tools out, one
 * assistant Message back. Used for OpenAI, xAI and OpenRouter over the openai SDK.
 */
import type OpenAI from "openai";
import type { Message, ToolCall } from "../core/message.ts";
import type { ToolSpec } from "../core/tool.ts";
import {
  chatCitations,
  type Citation,
  dataUrl,
  isRecord,
  parseToolArguments,
  records,
  str,
  withFooter,
} from "./wire.ts";

type ChatMessageParam = OpenAI.Chat.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.ChatCompletionTool;

/** Messages in Chat Completions form: images as `image_url` parts, tool-call turns `content: null`. */
export function toChatMessages(messages: readonly Message[]): ChatMessageParam[] {
  return messages.map((message): ChatMessageParam => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content ?? "" };
      case "user":
        if (!message.images?.length) return { role: "user", content: message.content ?? "" };
        return {
          role: "user",
          content: [
            ...(message.content ? [{ type: "text" as const, text: message.content }] : []),
            ...message.images.map((image) => ({
              type: "image_url" as const,
              image_url: { url: dataUrl(image) },
            })),
          ],
        };
      case "assistant":
        if (!message.toolCalls?.length) {
          return { role: "assistant", content: message.content ?? "" };
        }
        return {
          role: "assistant",
          // a turn that only calls tools carries null, never "", as the API expects
          content: message.content ? message.content : null,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: "function" as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
      case "tool":
        return {
          role: "tool",
          tool_call_id: message.toolCallId ?? "",
          content: message.content ?? "",
        };
    }
  });
}

/** Function tools in Chat Completions form (this surface has no built-ins). */
export function toChatTools(tools: readonly ToolSpec[]): ChatTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** The assistant message of a Chat Completions reply, or undefined when it has none. */
export function chatReplyMessage(reply: unknown): Record<string, unknown> | undefined {
  const choice = records(isRecord(reply) ? reply.choices : undefined)[0];
  return choice && isRecord(choice.message) ? choice.message : undefined;
}

/** Tool calls of a chat message (snake_case or camelCase), arguments parsed. */
export function chatToolCalls(message: Record<string, unknown>): ToolCall[] {
  const calls = message.tool_calls ?? message.toolCalls;
  const out: ToolCall[] = [];
  for (const call of records(calls)) {
    const fn = isRecord(call.function) ? call.function : {};
    const name = str(fn.name);
    if (!name) continue;
    out.push({ id: str(call.id) ?? "", name, arguments: parseToolArguments(fn.arguments) });
  }
  return out;
}

/** Text of a chat message: a string, or the text parts of a content array. */
export function chatText(message: Record<string, unknown>): string | null {
  if (typeof message.content === "string") return message.content;
  const parts = records(message.content).map((part) => str(part.text) ?? "");
  return parts.length ? parts.join("") : null;
}

/**
 * Citations of a chat reply: `url_citation` annotations on the message, plus xAI's top-level
 * `citations` list of bare URLs (Live Search).
 */
export function chatReplyCitations(reply: unknown, message: Record<string, unknown>): Citation[] {
  const out = chatCitations(message.annotations);
  const top = isRecord(reply) ? reply.citations : undefined;
  if (Array.isArray(top)) {
    for (const entry of top) {
      if (typeof entry === "string") out.push({ url: entry });
      else if (isRecord(entry) && typeof entry.url === "string") {
        out.push({ url: entry.url, title: str(entry.title) });
      }
    }
  }
  return out;
}

/** Reads a Chat Completions reply into an assistant Message (usage attached by the caller). */
export function fromChatReply(reply: unknown): Message {
  const message = chatReplyMessage(reply);
  if (!message) return { role: "assistant", content: null };
  const toolCalls = chatToolCalls(message);
  const content = withFooter(chatText(message), chatReplyCitations(reply, message));
  const out: Message = { role: "assistant", content };
  if (toolCalls.length) out.toolCalls = toolCalls;
  return out;
}
