/**
 * One provider call with the engine's retry rule (docs/models.md#retries-and-fault-classes):
 * exactly the two transient classes (an unparseable response, the provider's own 5xx) are
 * re-requested; everything else propagates on its first raise, because re-issuing a permanent fault
 * only repeats it.
 */
import { llmCall } from "../journal/catalogue_engine.ts";
import { type Journal, withSpan } from "../journal/journal.ts";
import { isTransient, ProviderServerError } from "./types/faults.ts";
import type { Message } from "./types/message.ts";
import type { Provider } from "./types/provider.ts";
import type { ToolSpec } from "./types/tool.ts";

/** Backoff before the nth retry is this × n milliseconds (0.5 s, 1.0 s, …). */
export const RETRY_BACKOFF_MS = 500;

/** Waits `ms` milliseconds. Injected so tests run the retry path without real delay. */
export type Sleep = (ms: number) => Promise<void>;

/** The default sleep: a real timer. */
export const realSleep: Sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** How a retried call behaves. */
export interface RetryOptions {
  /** Extra attempts after the first (`HARNESS_RESPONSE_RETRIES`); total = retries + 1. */
  readonly retries: number;
  /** Waits out the backoff. */
  readonly sleep: Sleep;
  /** Where the retry WARNINGs and the give-up ERROR go. */
  readonly journal: Journal;
}

/**
 * Calls `provider.chat`, retrying transient faults. Logs a WARNING per retry and an ERROR on
 * give-up (the wordings of docs/journal.md#free-text-lines), then rethrows the last error.
 */
export async function chatWithRetries(
  provider: Provider,
  messages: readonly Message[],
  tools: readonly ToolSpec[] | undefined,
  options: RetryOptions,
): Promise<Message> {
  const attempts = Math.max(1, Math.trunc(options.retries) + 1);
  for (let attempt = 1;; attempt++) {
    try {
      return await provider.chat(messages, tools);
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (attempt >= attempts) {
        options.journal.text(
          "ERROR",
          `${faultName(error)} on all ${attempts} attempt(s); giving up: ${error.message}`,
        );
        throw error;
      }
      const wait = RETRY_BACKOFF_MS * attempt;
      options.journal.text(
        "WARNING",
        `${faultName(error)} (attempt ${attempt}/${attempts}): ${error.message} — retrying in ` +
          `${(wait / 1000).toFixed(1)}s`,
      );
      await options.sleep(wait);
    }
  }
}

/** The fault's name in the retry lines, so a journal says which transient fault it hit. */
function faultName(error: Error): string {
  return error instanceof ProviderServerError
    ? `Provider failed on its own side (HTTP ${error.status ?? "?"})`
    : "Provider returned an unparseable response";
}

/**
 * One model call as the harness makes every one, the turn's and the compaction summary's alike:
 * through the retry rule, then its `llm` line (tokens, cache, cost, endpoint where reported),
 * inside a `chat <model>` trace span carrying the GenAI attributes (docs/journal.md#traces).
 */
export function loggedChat(
  provider: Provider,
  messages: readonly Message[],
  tools: readonly ToolSpec[] | undefined,
  options: RetryOptions & { readonly now: () => Date },
): Promise<Message> {
  const model = provider.model ?? "unknown";
  const attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": provider.provider ?? "unknown",
    "gen_ai.request.model": model,
  };
  return withSpan(options.journal, `chat ${model}`, attributes, async (span) => {
    const started = options.now();
    let reply: Message;
    try {
      reply = await chatWithRetries(provider, messages, tools, options);
    } catch (error) {
      span.setAttributes({ "harness.outcome": "error" });
      throw error;
    }
    const usage = reply.usage;
    span.setAttributes({
      "harness.outcome": "ok",
      "gen_ai.usage.input_tokens": usage?.tokensIn,
      "gen_ai.usage.output_tokens": usage?.tokensOut,
      "gen_ai.usage.cache_read.input_tokens": usage?.cachedTokens,
      "gen_ai.usage.cache_creation.input_tokens": usage?.cacheWriteTokens,
      "harness.cost": usage?.cost,
      "harness.endpoint": usage?.endpoint,
    });
    llmCall(options.journal, {
      provider: provider.provider ?? "unknown",
      endpoint: usage?.endpoint,
      model,
      seconds: Math.max(0, (options.now().getTime() - started.getTime()) / 1000),
      tokensIn: usage?.tokensIn,
      tokensOut: usage?.tokensOut,
      tokensTotal: usage?.tokensTotal,
      cachedTokens: usage?.cachedTokens,
      cacheWriteTokens: usage?.cacheWriteTokens,
      cost: usage?.cost,
    });
    return reply;
  });
}
