/**
 * The openrouter SDK's request shape: the same Chat Completions conversation as the openai
 * SDK's chat surface, but in the SDK's camelCase (`toolCallId`, `imageUrl`, `toolCalls`),
 * which its zod schemas map back to the wire. Also the model_params key check, since those
 * schemas silently drop keys they do not know.
 */
import type { ChatMessages, ChatRequest } from "@openrouter/sdk/models";
import type { Message } from "../core/types/message.ts";
import type { ToolSpec } from "../core/types/tool.ts";
import { ProviderError } from "../core/types/faults.ts";
import { camelKey, isOpenRouterChatKey, OPENROUTER_DROPPED_KEYS } from "./params.ts";
import { type ChatSpelling, toChatMessagesIn } from "./openai_chat.ts";
import { isRecord } from "./wire.ts";

type ChatTool = NonNullable<ChatRequest["tools"]>[number];

/** The openrouter SDK's camelCase spelling of the chat fields whose names differ by case. */
const CAMEL_CASE = {
  imageUrl: "imageUrl",
  toolCalls: "toolCalls",
  toolCallId: "toolCallId",
} as const satisfies ChatSpelling;

/** Messages in the SDK's camelCase chat form. */
export function toOpenRouterMessages(messages: readonly Message[]): ChatMessages[] {
  return toChatMessagesIn(messages, CAMEL_CASE);
}

/** Function tools, plus the `openrouter:web_search` server tool when active. */
export function toOpenRouterTools(
  tools: readonly ToolSpec[],
  webSearch: Readonly<Record<string, unknown>> | undefined,
): ChatTool[] {
  const out: ChatTool[] = [];
  if (webSearch) {
    const parameters = camelizeShallow(webSearch);
    out.push(
      (Object.keys(parameters).length
        ? { type: "openrouter:web_search", parameters }
        : { type: "openrouter:web_search" }) as ChatTool,
    );
  }
  for (const tool of tools) {
    out.push({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    });
  }
  return out;
}

/** Objects whose own keys the SDK also spells in camelCase. */
const NESTED_CAMEL = new Set(["provider", "reasoning", "streamOptions", "promptCacheOptions"]);

/**
 * model_params (snake_case, shared with the Python harness) as `chatRequest` fields. An
 * unknown key throws a ProviderError naming model_params.json, because the SDK would
 * otherwise drop it without a word and the operator would never learn the setting is inert.
 */
export function openRouterParams(
  params: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (OPENROUTER_DROPPED_KEYS.has(key)) continue;
    const camel = camelKey(key);
    if (!isOpenRouterChatKey(key)) {
      throw new ProviderError(
        `A key in model_params.json was not accepted by the openrouter SDK's chat.send: ` +
          `'${key}' is not a chat request parameter.`,
      );
    }
    out[camel] = NESTED_CAMEL.has(camel) && isRecord(value) ? camelizeShallow(value) : value;
  }
  return out;
}

function camelizeShallow(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camelKey(k), v]));
}
