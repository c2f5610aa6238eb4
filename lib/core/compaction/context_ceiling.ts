/**
 * The context ceiling, which the docs and the journal's lines call the context budget
 * (docs/context.md#the-context-budget; invariant 5 of docs/invariants.md): what the model's
 * ceiling is, where that number came from, and whether the last call came close enough to it that
 * the transcript must compact. (In code a budget is budget.json's spending limit.)
 *
 * Compacting at half the ceiling is safe only while one turn cannot leap from under the threshold
 * to over the ceiling. A step persists at most `TOOL_RESULT_CAP + TOOL_ARGS_CAP` characters of tool
 * payload, so the guarantee is the inequality `limit × (1 − COMPACT_AT) ≥ step cap × max steps ÷
 * 3.0 chars/token`. The numbers are derived from the caps module, never restated, so tuning a cap
 * moves the warning with it. The ceiling warns when the inequality fails and never refuses: the
 * operator's override is the escape hatch and always wins (`0` switches compaction off).
 */
import { errorMessage } from "../../base/error_text.ts";
import { contextLimit, type LimitSource } from "../../journal/catalogue_context.ts";
import { type Journal, silentJournal } from "../../journal/journal.ts";
import { TOOL_ARGS_CAP, TOOL_RESULT_CAP } from "../transcript/caps.ts";
import type { Provider } from "../types/provider.ts";
import { DEFAULT_MAX_STEPS } from "../types/step_counter.ts";

/** The ceiling assumed when neither the operator nor the adapter names one. */
export const DEFAULT_CONTEXT_LIMIT = 128_000;
/** Compact once the last call's input crossed this fraction of the ceiling. */
export const COMPACT_AT = 0.5;
/** How much of the ceiling the verbatim tail may fill after a compaction. */
export const KEEP_FRACTION = 0.2;
/** The most of the ceiling the summarization call's input may take. */
export const SUMMARY_INPUT_FRACTION = 0.5;
/** Chars per token assumed after an overflow, when no successful call can calibrate the ratio. */
export const PESSIMISTIC_CHARS_PER_TOKEN = 2.0;
/** Chars per token for sizing tool output (JSON, uuids) in the worst-case turn: finer than prose. */
export const WORST_CASE_CHARS_PER_TOKEN = 3.0;
/** After an overflow the tail keeps at most this share of what is actually there. */
export const EMERGENCY_KEEP_RATIO = 0.25;
/** The step budget assumed when none is given (the engine's default). */

/** What one step may leave in the transcript: capped results plus capped arguments. */
export function persistedStepCap(): number {
  return TOOL_RESULT_CAP + TOOL_ARGS_CAP;
}

/** The most tokens one turn of `maxSteps` steps can add to the transcript. */
export function worstCaseTurnTokens(maxSteps: number): number {
  return Math.ceil(persistedStepCap() * maxSteps / WORST_CASE_CHARS_PER_TOKEN);
}

/** The smallest ceiling whose headroom above the threshold holds one worst-case turn. */
export function minSafeLimit(maxSteps: number): number {
  return Math.ceil(worstCaseTurnTokens(maxSteps) / (1 - COMPACT_AT));
}

/** The largest step budget `limit` can sustain (the same inequality solved for steps). */
export function maxSafeSteps(limit: number): number {
  return Math.trunc(limit * (1 - COMPACT_AT) * WORST_CASE_CHARS_PER_TOKEN / persistedStepCap());
}

/** The token count above which the transcript compacts: `int(limit × 0.5)`. */
export function thresholdFor(limit: number): number {
  return Math.trunc(limit * COMPACT_AT);
}

/** A resolved ceiling and where it came from. */
export interface ResolvedLimit {
  /** Tokens; `0` when compaction is disabled. */
  readonly tokens: number;
  /** `env`, `adapter` or `default`. */
  readonly source: LimitSource;
}

/**
 * The WARNING text for a ceiling that cannot hold one worst-case turn above its threshold, or
 * `undefined` when it can. The remedy depends on the source: an operator's number may be raised,
 * but an adapter's (or the floor) is the model's real wall, so only fewer steps are suggested.
 */
export function guaranteeWarning(limit: ResolvedLimit, maxSteps: number): string | undefined {
  const worst = worstCaseTurnTokens(maxSteps);
  const headroom = limit.tokens - thresholdFor(limit.tokens);
  if (headroom >= worst) return undefined;
  const steps = maxSafeSteps(limit.tokens);
  let remedy: string;
  if (limit.source === "env") {
    const fixes = [`raise HARNESS_MAX_CONTEXT_TOKENS to at least ${minSafeLimit(maxSteps)}`];
    if (steps >= 1) fixes.push(`lower HARNESS_MAX_STEPS to ${steps}`);
    remedy = `To restore the guarantee, ${fixes.join(" or ")}.`;
  } else {
    // Never "raise the ceiling" here: above the model's real wall the threshold could never fire.
    remedy = steps >= 1
      ? `Lower HARNESS_MAX_STEPS to ${steps} to restore the guarantee. (Raising ` +
        "HARNESS_MAX_CONTEXT_TOKENS would not help: this is the model's own ceiling, and a budget " +
        "above it would put the threshold past the wall, where compaction never fires in time.)"
      : "No step budget satisfies the guarantee at this ceiling.";
  }
  return `context budget ${limit.tokens} (source=${limit.source}) leaves ${headroom} tokens of ` +
    `headroom above the compaction threshold, below the ${worst} a single tool-heavy turn can add ` +
    `(${persistedStepCap()} chars of result + arguments per step x ${maxSteps} steps at ` +
    `${WORST_CASE_CHARS_PER_TOKEN.toFixed(1)} chars/token): a turn may overshoot the ceiling ` +
    "before compaction, which runs only *between* turns, can fire. The over-length rescue " +
    `(emergency compaction + retry) still applies. ${remedy}`;
}

/** The provider's reported input tokens for its latest call, when it is a positive integer. */
export function providerTokensIn(provider: Provider): number | undefined {
  const value: unknown = provider.lastTokensIn;
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** How a ceiling is built. */
export interface ContextCeilingOptions {
  /** `HARNESS_MAX_CONTEXT_TOKENS`: `undefined` unset, `0` disables compaction and the self-heal. */
  readonly override?: number;
  /** The effective per-turn step budget (`HARNESS_MAX_STEPS`), which the guarantee is sized by. */
  readonly maxSteps?: number;
  /** Where the `context limit` line and the warnings go. */
  readonly journal?: Journal;
}

/**
 * The ceiling, resolved lazily and at most once (the adapter lookup may be a network call):
 * `override` → `provider.contextLimit()` → {@link DEFAULT_CONTEXT_LIMIT}. Logs INFO `context limit`
 * once, plus the guarantee WARNING when the ceiling is too low for one tool-heavy turn.
 */
export class ContextCeiling {
  /** The per-turn step budget the guarantee is sized by. */
  readonly maxSteps: number;
  readonly #provider: Provider;
  readonly #override?: number;
  readonly #journal: Journal;
  #limit?: Promise<ResolvedLimit>;

  /** A ceiling for `provider`; throws `RangeError` for a negative or fractional override. */
  constructor(provider: Provider, options: ContextCeilingOptions = {}) {
    const override = options.override;
    if (override !== undefined && (!Number.isInteger(override) || override < 0)) {
      throw new RangeError(`The context budget must be a non-negative integer, got ${override}.`);
    }
    this.#provider = provider;
    this.#override = override;
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.#journal = options.journal ?? silentJournal;
  }

  /** False only when the operator set the ceiling to `0`: then nothing compacts, not even a rescue. */
  get enabled(): boolean {
    return this.#override !== 0;
  }

  /** The resolved ceiling (`{0, env}` when disabled, without a lookup or a log line). */
  limit(): Promise<ResolvedLimit> {
    if (!this.enabled) return Promise.resolve({ tokens: 0, source: "env" });
    // The promise is cached, so concurrent askers share one lookup and one log line.
    this.#limit ??= this.#resolve();
    return this.#limit;
  }

  /** The compaction threshold in tokens: `int(limit × 0.5)`. */
  async threshold(): Promise<number> {
    return thresholdFor((await this.limit()).tokens);
  }

  /**
   * Whether a call that read `tokensIn` tokens crossed the threshold. With no override, a call under
   * half the floor cannot have crossed half of any ceiling at or above it, so the adapter is not
   * even asked: a quiet agent never pays for the lookup.
   */
  async shouldCompact(tokensIn: number | undefined): Promise<boolean> {
    if (!this.enabled || tokensIn === undefined || tokensIn <= 0) return false;
    if (this.#override === undefined && tokensIn < DEFAULT_CONTEXT_LIMIT * COMPACT_AT) return false;
    return tokensIn > await this.threshold();
  }

  /**
   * Whether a call that read `tokensIn` tokens used more than `fraction` of the ceiling (the
   * handoff reminder asks at 0.65). Like {@link shouldCompact}, a call under that share of the
   * floor, with no override, never triggers the adapter lookup.
   */
  async crossed(tokensIn: number | undefined, fraction: number): Promise<boolean> {
    if (!this.enabled || tokensIn === undefined || tokensIn <= 0) return false;
    if (this.#override === undefined && tokensIn < DEFAULT_CONTEXT_LIMIT * fraction) return false;
    return tokensIn > (await this.limit()).tokens * fraction;
  }

  async #resolve(): Promise<ResolvedLimit> {
    const limit: ResolvedLimit = this.#override
      ? { tokens: this.#override, source: "env" }
      : (await this.#fromAdapter()) ?? { tokens: DEFAULT_CONTEXT_LIMIT, source: "default" };
    contextLimit(this.#journal, {
      limit: limit.tokens,
      source: limit.source,
      compactAt: thresholdFor(limit.tokens),
    });
    const warning = guaranteeWarning(limit, this.maxSteps);
    if (warning) this.#journal.text("WARNING", warning);
    return limit;
  }

  /** The adapter's honest answer, or `undefined` when it has none (a failure is a WARNING). */
  async #fromAdapter(): Promise<ResolvedLimit | undefined> {
    const provider = this.#provider;
    if (typeof provider.contextLimit !== "function") return undefined;
    let value: unknown;
    try {
      value = await provider.contextLimit();
    } catch (error) {
      this.#couldNotRead(errorMessage(error));
      return undefined;
    }
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) return undefined;
    // Our adapters answer the floor themselves and say so in `contextLimitSource`; a floor is
    // not the adapter's knowledge, so it is reported as `default` (and a failed lookup warns).
    const floor = floorReason(provider);
    if (floor !== undefined) {
      if (/ failed: /.test(floor)) this.#couldNotRead(floor);
      return undefined;
    }
    return { tokens: value, source: "adapter" };
  }

  #couldNotRead(reason: string): void {
    this.#journal.text(
      "WARNING",
      `Could not read the model's context limit from the provider: ${reason}`,
    );
  }
}

/** The reason an adapter fell back to the floor, read from its optional `contextLimitSource`. */
function floorReason(provider: Provider): string | undefined {
  const source: unknown = (provider as { contextLimitSource?: unknown }).contextLimitSource;
  if (typeof source !== "object" || source === null) return undefined;
  const { kind, reason } = source as { kind?: unknown; reason?: unknown };
  return kind === "floor" ? String(reason ?? "") : undefined;
}
