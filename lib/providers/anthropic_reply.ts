/**
 * The Anthropic Messages wire, reply side: one `Message` from the content blocks of one reply
 * (or of a paused reply and its continuations), with why it ended and what it cost.
 */
import type { Ending, Message, ToolCall, Usage } from "../core/types/message.ts";
import { type Citation, isRecord, parseToolArguments, records, str, withFooter } from "./wire.ts";

/**
 * The stop reasons that mean the reply was cut: the output limit, the context window, or a turn
 * still paused after the adapter's last continuation.
 */
const CUT = new Set(["max_tokens", "model_context_window_exceeded", "pause_turn"]);

/**
 * Reads the content blocks of a reply: `text` blocks concatenated (their web-search citations
 * into the `Sources:` footer), `tool_use` blocks into tool calls; the server tool's own blocks
 * (`server_tool_use`, `web_search_tool_result`) and thinking are the vendor's business and are
 * left out. `stop_reason: "refusal"` sets `ending: "refused"` (with the vendor's explanation as
 * `refusal` when it gave one); `max_tokens` (or the context window, or a pause still unresumed)
 * sets `ending: "truncated"`,
 * and a `tool_use` block that was the last thing written is dropped (it may have been cut) and
 * the message marked `cutCall`.
 */
export function fromAnthropicContent(
  content: readonly unknown[],
  stopReason: string | null | undefined,
  stopDetails?: unknown,
): Message {
  const blocks = records(content);
  const cut = CUT.has(stopReason ?? "");
  const texts: string[] = [];
  const citations: Citation[] = [];
  const toolCalls: ToolCall[] = [];
  let cutCall = false;
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      texts.push(str(block.text) ?? "");
      for (const citation of records(block.citations)) {
        const url = str(citation.url);
        if (url) citations.push({ url, title: str(citation.title) });
      }
    } else if (block.type === "tool_use") {
      const name = str(block.name);
      if (!name) return;
      if (cut && index === blocks.length - 1) {
        cutCall = true;
        return;
      }
      toolCalls.push({
        id: str(block.id) ?? "",
        name,
        arguments: parseToolArguments(block.input),
      });
    }
  });
  const message: Message = {
    role: "assistant",
    content: withFooter(texts.length ? texts.join("") : null, citations),
  };
  if (toolCalls.length) message.toolCalls = toolCalls;
  const ending: Ending | undefined = stopReason === "refusal"
    ? "refused"
    : cut
    ? "truncated"
    : undefined;
  if (ending) message.ending = ending;
  if (ending === "truncated" && cutCall) message.cutCall = true;
  if (ending === "refused" && isRecord(stopDetails)) {
    const explanation = str(stopDetails.explanation)?.trim();
    if (explanation) message.refusal = explanation;
  }
  return message;
}

/** A non-negative integer, else undefined. */
function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The usage of one or more replies (a paused turn and its continuations), summed. Anthropic's
 * `input_tokens` excludes what the cache served or stored, so `tokensIn` is the whole prompt:
 * `input_tokens + cache_creation_input_tokens + cache_read_input_tokens`; `cachedTokens` is the
 * read, `cacheWriteTokens` the write. Undefined when no reply reported usage.
 */
export function anthropicUsage(replies: readonly unknown[]): Usage | undefined {
  let reported = false;
  let fresh = 0, read = 0, written = 0, out = 0;
  let sawRead = false, sawWrite = false;
  for (const reply of replies) {
    const usage = isRecord(reply) && isRecord(reply.usage) ? reply.usage : undefined;
    if (!usage) continue;
    reported = true;
    fresh += count(usage.input_tokens) ?? 0;
    out += count(usage.output_tokens) ?? 0;
    const r = count(usage.cache_read_input_tokens);
    const w = count(usage.cache_creation_input_tokens);
    if (r !== undefined) {
      read += r;
      sawRead = true;
    }
    if (w !== undefined) {
      written += w;
      sawWrite = true;
    }
  }
  if (!reported) return undefined;
  const tokensIn = fresh + read + written;
  const usage: {
    tokensIn: number;
    tokensOut: number;
    tokensTotal: number;
    cachedTokens?: number;
    cacheWriteTokens?: number;
  } = { tokensIn, tokensOut: out, tokensTotal: tokensIn + out };
  if (sawRead) usage.cachedTokens = read;
  if (sawWrite) usage.cacheWriteTokens = written;
  return usage;
}
