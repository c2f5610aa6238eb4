/**
 * The provider contract: one required method, a few optional capabilities read by presence.
 * An adapter answers a capability honestly or leaves it out; the engine degrades by rule.
 */
import type { Message } from "./message.ts";
import type { ToolSpec } from "./tool.ts";

/** How prompt caching is reached on this provider. */
export type CacheMode = "automatic" | "explicit" | "none";

/** A model brain. Only `chat` is required. */
export interface Provider {
  /**
   * One model call. Returns an assistant message (content and/or tool calls with
   * provider-supplied ids and parsed object arguments), `usage` attached when reported.
   * Throws the fault classes of `faults.ts`.
   */
  chat(messages: readonly Message[], tools?: readonly ToolSpec[]): Promise<Message>;

  /** The model's context ceiling in tokens; unanswered ⇒ the 128,000 floor. */
  contextLimit?(): number | Promise<number>;
  /** Input tokens of the most recent call; unanswered ⇒ compaction never triggers. */
  readonly lastTokensIn?: number;
  /** Unanswered ⇒ read as `automatic`. */
  readonly cacheMode?: CacheMode;
  /** Image input support; only a definite `false` withholds images. */
  supportsVision?(): boolean | undefined | Promise<boolean | undefined>;
  /** Server-side built-ins this provider runs itself (e.g. `web_search`); never called as functions. */
  readonly builtins?: readonly string[];
  /** Label of the endpoint vendor for log lines (`openai`, `xai`, `openrouter`, `anthropic`). */
  readonly provider?: string;
  /** Label of the model for log lines. */
  readonly model?: string;
}
