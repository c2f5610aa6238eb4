/**
 * The Anthropic Messages wire, request side (`AI_SDK=anthropic`): the harness's messages and
 * tools as `tools`, `system` and `messages`, with the two prompt-cache breakpoints placed by
 * design (docs/models.md#prompt-caching-on-anthropic).
 *
 * The API renders tools → system → messages and caches on an exact prefix, so the layout is:
 * the tools (sorted by the registry), then the charter as the one `system` block carrying
 * breakpoint 1; then the conversation, whose last stable block — the message `cacheAnchor` marks,
 * just before the volatile brief and the newest user turn — carries breakpoint 2. Everything
 * volatile (the time, the step budget, recalled memory, notes) comes after both.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUnion,
  ToolUseBlockParam,
} from "@anthropic-ai/sdk/resources";
import type { ImageContent, Message } from "../core/types/message.ts";
import type { ToolSpec } from "../core/types/tool.ts";

/** The prompt-cache breakpoint (a five-minute ephemeral entry). */
export const CACHE_BREAKPOINT = { type: "ephemeral" } as const;

/**
 * How a harness system turn after the charter (a step note, the volatile brief, a compaction
 * summary, the working-state block) rides the conversation: the Messages API has no system role
 * inside `messages`, so it is a user-side text block wrapped in this tag, which says who wrote it.
 */
export const NOTE_TAG = "system-note";

/** The image types the Messages API reads inline. */
export const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
]);

/** The server-side built-ins this adapter can switch on, by plugin name. */
export const ANTHROPIC_BUILTINS: ReadonlySet<string> = new Set(["web_search"]);

/** Anthropic's server-side web search, as the request carries it. */
export const WEB_SEARCH_TOOL = { type: "web_search_20250305", name: "web_search" } as const;

/** The request parts the harness owns, in the order the API renders (and caches) them. */
export interface AnthropicRequest {
  /** Absent when there are no tools. */
  tools?: ToolUnion[];
  /** The charter; absent when there is none. */
  system?: TextBlockParam[];
  messages: MessageParam[];
}

type Block = ContentBlockParam & { cache_control?: typeof CACHE_BREAKPOINT | null };

/** `text` as a system-note block's text. */
export function noteText(text: string): string {
  return `<${NOTE_TAG}>\n${text}\n</${NOTE_TAG}>`;
}

/**
 * Renders one request. The view's first message, when it is a system turn, is the charter and
 * becomes `system`; every later system turn is a {@link noteText} block on the user side.
 * Consecutive turns of one role are merged into one message (tool results first, as the API
 * requires); blank text makes no block. Breakpoint 1 goes on the charter (on the last tool when
 * there is no charter, or when no message carries `cacheAnchor`, so nothing says the leading
 * system turn is stable); breakpoint 2 on the last block of the message carrying `cacheAnchor`,
 * unless that is the charter itself (a first wake: one breakpoint covers both).
 */
export function toAnthropicRequest(
  messages: readonly Message[],
  tools: readonly ToolSpec[],
  builtins: readonly string[] = [],
): AnthropicRequest {
  const wireTools = toAnthropicTools(tools, builtins);
  let rest = messages;
  let system: TextBlockParam[] | undefined;
  const charter = messages[0]?.role === "system" ? messages[0].content ?? "" : undefined;
  // The leading system turn is known stable only when the view marks a stable part at all: with
  // no charter and nothing saved yet, it is the volatile brief or the notes, never cached.
  const stableLead = messages.some((message) => message.cacheAnchor);
  if (charter !== undefined) {
    rest = messages.slice(1);
    if (charter.trim()) {
      system = [{ type: "text", text: charter }];
      if (stableLead) marked(system[0]);
    }
  }
  if (wireTools.length && !system?.[0].cache_control) marked(wireTools[wireTools.length - 1]);
  const turns: { role: "user" | "assistant"; blocks: Block[] }[] = [];
  for (const message of rest) {
    const role = message.role === "assistant" ? "assistant" : "user";
    const blocks = blocksOf(message);
    if (!blocks.length) continue;
    if (message.cacheAnchor) marked(blocks[blocks.length - 1]);
    const last = turns[turns.length - 1];
    if (last?.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  }
  // Keys in the API's render order, so the serialised request reads as it is cached.
  return {
    ...(wireTools.length ? { tools: wireTools } : {}),
    ...(system ? { system } : {}),
    messages: turns.map(({ role, blocks }): MessageParam => ({
      role,
      content: role === "user" ? resultsFirst(blocks) : blocks,
    })),
  };
}

/** Sets the breakpoint on a block or tool (they are the request's own copies). */
function marked<T extends { cache_control?: unknown }>(item: T): T {
  item.cache_control = CACHE_BREAKPOINT;
  return item;
}

/** Function tools, then the active built-ins (only `web_search` is wired). */
export function toAnthropicTools(
  tools: readonly ToolSpec[],
  builtins: readonly string[],
): ToolUnion[] {
  const out: ToolUnion[] = tools.map((tool): Tool => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as Tool.InputSchema,
  }));
  if (builtins.includes("web_search")) out.push({ ...WEB_SEARCH_TOOL });
  return out;
}

/** The content blocks one harness message becomes. */
function blocksOf(message: Message): Block[] {
  const text = message.content ?? "";
  switch (message.role) {
    case "system":
      return text.trim() ? [textBlock(noteText(text))] : [];
    case "user":
      return [
        ...(text.trim() ? [textBlock(text)] : []),
        ...(message.images ?? []).map(imageBlock),
      ];
    case "assistant":
      return [
        ...(text.trim() ? [textBlock(text)] : []),
        ...(message.toolCalls ?? []).map((call): ToolUseBlockParam => ({
          type: "tool_use",
          id: call.id,
          name: call.name,
          input: call.arguments,
        })),
      ];
    case "tool": {
      const result: ToolResultBlockParam = {
        type: "tool_result",
        tool_use_id: message.toolCallId ?? "",
      };
      // An empty text block is refused by the API; an empty result simply has no content.
      if (text) result.content = text;
      return [result];
    }
  }
}

function textBlock(text: string): TextBlockParam {
  return { type: "text", text };
}

/** An image as a base64 block, or a note when the API cannot read its type. */
function imageBlock(image: ImageContent): Block {
  if (!ANTHROPIC_IMAGE_TYPES.has(image.mimeType)) {
    return textBlock(
      `(Image not sent: ${image.alt} — ${image.mimeType} is not an image type this model reads.)`,
    );
  }
  const block: ImageBlockParam = {
    type: "image",
    source: {
      type: "base64",
      media_type: image.mimeType as "image/png",
      data: image.data,
    },
  };
  return block;
}

/** A user turn's blocks with its tool results first (the API's rule), otherwise in order. */
function resultsFirst(blocks: Block[]): Block[] {
  const results = blocks.filter((block) => block.type === "tool_result");
  if (!results.length || blocks.indexOf(results[results.length - 1]) === results.length - 1) {
    return blocks;
  }
  return [...results, ...blocks.filter((block) => block.type !== "tool_result")];
}
