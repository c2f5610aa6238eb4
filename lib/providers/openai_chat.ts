/**
 * The Chat Completions wire (openai SDK, `surface: "chat"`): messages and tools out, one
 * assistant Message back. Used for OpenAI, xAI and OpenRouter over the openai SDK.
 */
import type OpenAI from "openai";
import type { Message, ToolCall } from "../core/types/message.ts";
import type { ToolSpec } from "../core/types/tool.ts";
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

/**
 * How an SDK spells the three Chat Completions fields whose names differ by case: the wire's
 * snake_case (sent as is by the openai SDK) or the openrouter SDK's camelCase.
 */
export interface ChatSpelling {
  readonly imageUrl: string;
  readonly toolCalls: string;
  readonly toolCallId: string;
}

/** The wire's own spelling, which the openai SDK sends unchanged. */
const SNAKE_CASE = {
  imageUrl: "image_url",
  toolCalls: "tool_calls",
  toolCallId: "tool_call_id",
} as const satisfies ChatSpelling;

/** A function call on an assistant turn, arguments as a JSON string. */
type ChatCallOut = { id: string; type: "function"; function: { name: string; arguments: string } };

/** One Chat Completions message with its case-dependent fields spelled as `S` says. */
export type ChatMessageIn<S extends ChatSpelling> =
  | { role: "system"; content: string }
  | {
    role: "user";
    content:
      | string
      | (
        | { type: "text"; text: string }
        | ({ type: "image_url" } & Field<S["imageUrl"], { url: string }>)
      )[];
  }
  | { role: "assistant"; content: string }
  | ({ role: "assistant"; content: string | null } & Field<S["toolCalls"], ChatCallOut[]>)
  | ({ role: "tool"; content: string } & Field<S["toolCallId"], string>);

type Field<K extends string, V> = { [key in K]: V };

/** `{ [key]: value }`, typed by the key's literal (a computed key alone widens to `string`). */
function field<K extends string, V>(key: K, value: V): Field<K, V> {
  return { [key]: value } as Field<K, V>;
}

/**
 * Messages in Chat Completions form, the case-dependent fields spelled as `spelling` says:
 * images as `image_url` parts, tool-call turns `content: null`. Shared by both SDKs' adapters.
 */
export function toChatMessagesIn<S extends ChatSpelling>(
  messages: readonly Message[],
  spelling: S,
): ChatMessageIn<S>[] {
  return messages.map((message): ChatMessageIn<S> => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content ?? "" };
      case "user":
        if (!message.images?.length) return { role: "user", content: message.content ?? "" };
        return {
          role: "user",
          content: [
            ...(message.content ? [{ type: "text" as const, text: message.content }] : []),
            ...message.images.map((image) =>
              Object.assign(
                { type: "image_url" as const },
                field(spelling.imageUrl, { url: dataUrl(image) }),
              )
            ),
          ],
        };
      case "assistant":
        if (!message.toolCalls?.length) {
          return { role: "assistant", content: message.content ?? "" };
        }
        return Object.assign(
          // a turn that only calls tools carries null, never "", as the API expects
          { role: "assistant" as const, content: message.content ? message.content : null },
          field(
            spelling.toolCalls,
            message.toolCalls.map((call) => ({
              id: call.id,
              type: "function" as const,
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          ),
        );
      case "tool":
        return Object.assign(
          { role: "tool" as const },
          field(spelling.toolCallId, message.toolCallId ?? ""),
          { content: message.content ?? "" },
        );
    }
  });
}

/** The prompt-cache breakpoint of an explicit-cache vendor (docs/models.md#prompt-caching). */
export const CACHE_CONTROL = { type: "ephemeral" } as const;

/**
 * Messages in the openai SDK's Chat Completions form (the wire's snake_case). A message carrying
 * `cacheAnchor` (explicit cache mode) has its content sent as text parts, the last text part
 * marked `cache_control: {type: "ephemeral"}`.
 */
export function toChatMessages(messages: readonly Message[]): ChatMessageParam[] {
  const out = toChatMessagesIn(messages, SNAKE_CASE);
  return out.map((
    wire,
    i,
  ) => (messages[i].cacheAnchor ? anchored(wire) : wire)) as ChatMessageParam[];
}

/** A copy of `wire` whose content carries the cache breakpoint; unchanged when it has no text. */
function anchored(wire: ChatMessageIn<typeof SNAKE_CASE>): unknown {
  const content: unknown = wire.content;
  if (typeof content === "string") {
    if (!content) return wire;
    return { ...wire, content: [{ type: "text", text: content, cache_control: CACHE_CONTROL }] };
  }
  if (!Array.isArray(content)) return wire;
  const parts = content.map((part) => ({ ...part }));
  for (let i = parts.length - 1; i >= 0; i--) {
    if (parts[i].type === "text") {
      parts[i] = { ...parts[i], cache_control: CACHE_CONTROL };
      return { ...wire, content: parts };
    }
  }
  return wire;
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

/** The hand-off a finish reason names: a content filter refused, the output limit cut. */
function finishEnding(finish: string | undefined): "refused" | "truncated" | undefined {
  if (finish === "content_filter") return "refused";
  if (finish === "length") return "truncated";
  return undefined;
}

/**
 * Reads a Chat Completions reply into an assistant Message (usage attached by the caller). A
 * `refusal` on the message, or `finish_reason: content_filter`, sets `ending: "refused"` (the
 * refusal's words kept as `refusal`); `finish_reason: length` sets `ending: "truncated"`, and
 * any tool calls of a cut reply are left out (the last one's arguments may be half written) and
 * the message marked `cutCall`. OpenRouter's SDK spells the field `finishReason`.
 */
export function fromChatReply(reply: unknown): Message {
  const message = chatReplyMessage(reply);
  const choice = records(isRecord(reply) ? reply.choices : undefined)[0];
  const finish = str(choice?.finish_reason) ?? str(choice?.finishReason);
  if (!message) {
    const empty: Message = { role: "assistant", content: null };
    const ending = finishEnding(finish);
    if (ending) empty.ending = ending;
    return empty;
  }
  const toolCalls = chatToolCalls(message);
  const content = withFooter(chatText(message), chatReplyCitations(reply, message));
  const out: Message = { role: "assistant", content };
  const refusal = str(message.refusal)?.trim();
  const ending = refusal ? "refused" : finishEnding(finish);
  if (ending === "refused") {
    out.ending = ending;
    if (refusal) out.refusal = refusal;
  } else if (ending === "truncated") {
    out.ending = ending;
    if (toolCalls.length) out.cutCall = true;
    return out;
  }
  if (toolCalls.length) out.toolCalls = toolCalls;
  return out;
}
