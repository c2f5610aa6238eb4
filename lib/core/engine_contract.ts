/**
 * What the engine promises its callers: what an engine is built with ({@link EngineOptions}),
 * what one run is given ({@link RunOptions}) and what it returns ({@link EngineResult}), and the
 * one error a run throws of its own. The loop that keeps these promises is in engine.ts.
 */
import type { Journal } from "../journal/journal.ts";
import type { ImagePrepPolicy } from "./types/image_policy.ts";
import type { Message } from "./types/message.ts";
import type { Sleep } from "./retry.ts";
import type { TurnHook } from "./turn_hook.ts";
import type { ToolOutcome } from "./types/tool.ts";

/** Extra attempts for a transient provider fault when none is configured. */
export const DEFAULT_RESPONSE_RETRIES = 2;

/**
 * The turn could not produce its final text: the step budget was spent and the reserve summary
 * call failed or wrote nothing. The wake substitutes its canned note; nothing is posted.
 */
export class EngineError extends Error {
  /** The class name, kept through minification. */
  override name = "EngineError";
}

/**
 * How the turn's final (unspoken) text came about: the model ended it (`narration`), the step
 * cap's report (`reserve`), the model refused (`refused`), or the output limit cut the reply
 * (`truncated`; a cut tool call is asked again once first).
 */
export type UnspokenKind = "narration" | "reserve" | "refused" | "truncated";

/** One tool call the turn made. */
export interface ToolCallRecord {
  /** The tool name the model called. */
  readonly name: string;
  /** The provider-supplied call id. */
  readonly callId: string;
  /**
   * How the call ended, as its `tool` journal line says and the turn record keeps it
   * (docs/records.md): `ok` only when it did what was asked, else `error`, `invalid`, `refused`
   * or `blocked`.
   */
  readonly outcome: ToolOutcome;
  /** The call's `action` argument, for tools that take one (`messages` → `create`). */
  readonly action?: string;
  /** The error, when the outcome is `error`. */
  readonly error?: string;
}

/** Provider-reported usage summed over the turn's model calls (the reserve call included). */
export interface UsageTotals {
  /** Model calls that succeeded. */
  calls: number;
  /** Input tokens, summed over calls that reported them. */
  tokensIn: number;
  /** Output tokens, likewise. */
  tokensOut: number;
  /** Total tokens, likewise. */
  tokensTotal: number;
  /** Cached input tokens, likewise. */
  cachedTokens: number;
  /** Input tokens written to the prompt cache; undefined until a call reports the field. */
  cacheWriteTokens?: number;
  /** USD; `undefined` when no call reported a cost. */
  cost?: number;
}

/** What one run produced. */
export interface EngineResult {
  /** The turn's final text (narration or reserve report); `""` when the model wrote none. */
  readonly text: string;
  /**
   * `narration` for a turn the model ended itself, `reserve` for the step-cap report, `refused`
   * or `truncated` for a reply that ended so (`reply.ending`; its tool calls were not run).
   */
  readonly kind: UnspokenKind;
  /** The final assistant turn, as appended to the transcript. */
  readonly reply: Message;
  /** Model steps used (the reserve call is the harness's, not a step). */
  readonly steps: number;
  /** The budget the run had. */
  readonly maxSteps: number;
  /** Every tool call the run made, in order. */
  readonly toolCalls: readonly ToolCallRecord[];
  /** Usage summed over the run's model calls. */
  readonly usage: UsageTotals;
}

/** What an engine is built with; everything has a default. */
export interface EngineOptions {
  /** Where lines go; defaults to silent. */
  readonly journal?: Journal;
  /** Per-turn step budget; a positive integer. */
  readonly maxSteps?: number;
  /** Extra attempts for the transient faults; total attempts = this + 1. */
  readonly responseRetries?: number;
  /** The clock for step counters and durations. */
  readonly now?: () => Date;
  /** The retry backoff's sleep. */
  readonly sleep?: Sleep;
  /** Overrides `provider.supportsVision()`; only a definite `false` withholds images. */
  readonly vision?: boolean;
  /** Server-side built-in names besides `provider.builtins`. */
  readonly builtins?: Iterable<string>;
  /** Hooks consulted on every run of this engine, before any per-run hooks. */
  readonly hooks?: readonly TurnHook[];
  /**
   * How a request's inline images are prepared (docs/context.md#images-in-a-request); `null`
   * sends them untouched. Defaults to {@link DEFAULT_IMAGE_PREP}.
   */
  readonly imagePrep?: ImagePrepPolicy | null;
}

/** What one run is given besides the transcript. */
export interface RunOptions {
  /**
   * Saves the live transcript. Awaited after each reply **before** its tools run (a failure
   * there fails the turn and nothing is dispatched), then best-effort after each later append.
   */
  readonly persist?: () => Promise<void> | void;
  /**
   * What the provider is sent, built from the live transcript: the host prepends the charter
   * or splices the brief here, so neither is ever persisted
   * (docs/invariants.md#6-stable-first-volatile-last). Defaults to the transcript itself.
   */
  readonly view?: (
    messages: readonly Message[],
  ) => readonly Message[] | Promise<readonly Message[]>;
  /**
   * Shown each request exactly as it goes to the provider: the view after image preparation
   * (docs/context.md#images-in-a-request), and again for a request replayed without its images.
   * Awaited before the call is made. Without a `view` the request is the live transcript
   * itself: copy what is kept.
   */
  readonly onRequest?: (sent: readonly Message[]) => void | Promise<void>;
  /** Hooks for this run only (e.g. this turn's nudge), consulted after the engine's own. */
  readonly hooks?: readonly TurnHook[];
  /** Passed to every tool; aborted when the host tears the turn down. */
  readonly signal?: AbortSignal;
  /**
   * Asked before each step: a line to add to that step's note (the handoff reminder,
   * docs/context.md#handoff-the-summarize-tool), or `undefined` for none.
   */
  readonly stepReminder?: () => string | undefined | Promise<string | undefined>;
}
