/**
 * The range of every numeric setting the harness reads (docs/configuration.md#numeric-ranges):
 * the environment's numbers and the optional config-home files' numbers, each with the bounds
 * inside which the code can use it. A value outside refuses to load, naming the variable (or the
 * file and key) and the range, so a setting the code cannot honour is found at start-up and never
 * later as an invalid date, a timer that fires at once or an overflowed sum.
 *
 * The maxima are where the code stops working or the setting stops meaning anything: a day
 * count past ~100 million overflows a date, a timer past 2^31 ms fires at once, a JPEG side past
 * 65535 pixels cannot be encoded, a sum of limits past 2^53 loses whole units. Each is set well
 * inside those, at a value no deployment needs to exceed.
 *
 * Plain data, and {@link rangedNumber} to build a file's schema from it when the file is read.
 */
import * as z from "../base/zod.ts";

/** The numbers one setting accepts. */
export interface NumberRange {
  /** The least value, or `-Infinity` when any small value means the same ("≤ 0 disables"). */
  readonly min: number;
  /** Whether `min` itself is refused (a positive amount: more than 0). */
  readonly minExclusive?: boolean;
  /** The greatest value. */
  readonly max: number;
  /** Whole numbers only. */
  readonly integer: boolean;
  /** What the number counts ("days", "seconds"), for the sentence. */
  readonly unit?: string;
}

/** Whether `value` is a number inside `range`. */
export function inRange(value: number, range: NumberRange): boolean {
  if (!Number.isFinite(value)) return false;
  if (range.integer && !Number.isSafeInteger(value)) return false;
  if (range.minExclusive ? value <= range.min : value < range.min) return false;
  return value <= range.max;
}

/**
 * The range in words, with `note` (what a special value means) beside the unit: "an integer from
 * 1 to 36500 (days)", "a number above 0 and at most 3600 (seconds)", "an integer up to 100000
 * (0 or less disables the breaker)".
 */
export function describeRange(range: NumberRange, note?: string): string {
  const kind = range.integer ? "an integer" : "a number";
  const bounds = range.min === -Infinity
    ? `up to ${range.max}`
    : range.minExclusive
    ? `above ${range.min} and at most ${range.max}`
    : `from ${range.min} to ${range.max}`;
  const aside = [range.unit, note].filter(Boolean).join("; ");
  return `${kind} ${bounds}${aside ? ` (${aside})` : ""}`;
}

/** The zod schema of a number in `range` (built when called: the files' schemas are lazy). */
export function rangedNumber(range: NumberRange): z.ZodNumber {
  let schema = range.integer ? z.int() : z.number();
  if (range.min !== -Infinity) {
    schema = range.minExclusive ? schema.gt(range.min) : schema.gte(range.min);
  }
  return schema.lte(range.max);
}

const DAY_SECONDS = 86_400;

/** The environment's numeric variables (docs/environment.md#harness). */
export const ENV_RANGES = {
  /** Each step is a model call; past this no context window holds the compaction reserve. */
  HARNESS_MAX_STEPS: { min: 1, max: 1_000, integer: true },
  /** Extra attempts after a transient fault, each one a paid call and a backoff. */
  HARNESS_RESPONSE_RETRIES: { min: 0, max: 10, integer: true },
  /** A context ceiling in tokens; 0 disables compaction. No model reads 100 million. */
  HARNESS_MAX_CONTEXT_TOKENS: { min: 0, max: 100_000_000, integer: true, unit: "tokens" },
  /** The bootstrap read window in messages (`all` is the unbounded spelling). */
  HARNESS_CONTEXT_MESSAGES: { min: 0, max: 100_000, integer: true, unit: "messages" },
  /** Chunks recall injects into a turn. */
  HARNESS_MEMORY_RECALL_K: { min: 0, max: 20, integer: true },
  /** Per-request MCP timeout: a timer, and a wake held that long per request at worst. */
  HARNESS_MCP_TIMEOUT: { min: 0, minExclusive: true, max: 3_600, integer: false, unit: "seconds" },
  /** Wakes per window; 0 or less disables the breaker. */
  HARNESS_WAKE_BREAKER_MAX: { min: -Infinity, max: 100_000, integer: true },
  /** The breaker's rolling window: it guards against loops, which show within a day. */
  HARNESS_WAKE_BREAKER_WINDOW: { min: 0, max: DAY_SECONDS, integer: false, unit: "seconds" },
  /** The wait after a trip. */
  HARNESS_WAKE_BREAKER_COOLDOWN: { min: 0, max: DAY_SECONDS, integer: false, unit: "seconds" },
  /**
   * When a launcher started the wake; the wake also refuses one more than a few seconds after its
   * own start (lib/wake/assemble.ts), since the catch-up would wait for it.
   */
  HARNESS_WAKE_STARTED_AT: { min: 0, max: 4_102_444_800, integer: false, unit: "epoch seconds" },
  /** The simulated reading rate; 0 or less means no reading time. */
  HARNESS_PACE_CHARS_PER_SEC: { min: -Infinity, max: 1_000_000, integer: false },
  /** The least read delay: a sleep the wake holds before answering. */
  HARNESS_PACE_FLOOR_SECONDS: { min: 0, max: 3_600, integer: false, unit: "seconds" },
  /** Rebuilds and settle restarts; below 1 means 1. */
  HARNESS_PACE_MAX_BUILDS: { min: -Infinity, max: 100, integer: true },
  /** Idle time before old tool results are shortened; 0 (or off) disables. */
  HARNESS_COLD_START_IDLE_SECONDS: {
    min: 0,
    max: 365 * DAY_SECONDS,
    integer: false,
    unit: "seconds",
  },
} as const satisfies Record<string, NumberRange>;

/** `records.json` (docs/configuration.md#recordsjson). */
export const RECORDS_RANGES = {
  /** A cut-off date `retention_days` before today must be a date: 100 years is far inside. */
  retention_days: { min: 1, max: 36_500, integer: true, unit: "days" },
} as const satisfies Record<string, NumberRange>;

const USD_LIMIT: NumberRange = { min: 0, minExclusive: true, max: 1_000_000, integer: false };
const TOKEN_LIMIT: NumberRange = { min: 1, max: 1_000_000_000_000, integer: true };

/** `budget.json` (docs/configuration.md#budgetjson). Sums of spend stay exact below 2^53. */
export const BUDGET_RANGES = {
  usd_per_wake: { ...USD_LIMIT, unit: "USD" },
  usd_per_day: { ...USD_LIMIT, unit: "USD" },
  tokens_per_wake: { ...TOKEN_LIMIT, unit: "tokens" },
  tokens_per_day: { ...TOKEN_LIMIT, unit: "tokens" },
} as const satisfies Record<string, NumberRange>;

const PRICE: NumberRange = { min: 0, max: 100_000, integer: false, unit: "USD per 1M tokens" };

/** `prices.json`, per model (docs/configuration.md#pricesjson). */
export const PRICE_RANGES = {
  input: PRICE,
  cached: PRICE,
  cache_write: PRICE,
  output: PRICE,
} as const satisfies Record<string, NumberRange>;

/** An MCP server's drop-in, `mcp/<name>.json` (docs/mcp.md#server-configs). */
export const MCP_RANGES = {
  /**
   * Code points of one tool result the model reads: below 1000 not even an error message fits;
   * past 10 million one result would fill any context window many times over.
   */
  max_result_chars: { min: 1_000, max: 10_000_000, integer: true, unit: "characters" },
} as const satisfies Record<string, NumberRange>;

/** A JPEG stores each side in 16 bits: a segment or an image side past 65535 cannot be encoded. */
const JPEG_SIDE = 65_535;

/** `image_prep.json`, per model (docs/configuration.md#image_prepjson). */
export const IMAGE_PREP_RANGES = {
  segment_height: { min: 256, max: JPEG_SIDE, integer: true, unit: "pixels" },
  segment_overlap: { min: 0, max: JPEG_SIDE - 1, integer: true, unit: "pixels" },
  /** Base64 characters of one image: past 64 MiB no vendor takes the request. */
  max_base64_bytes: { min: 1_024, max: 64 * 1024 * 1024, integer: true, unit: "base64 characters" },
  max_long_edge: { min: 256, max: JPEG_SIDE, integer: true, unit: "pixels" },
  max_images: { min: 0, max: 500, integer: true, unit: "images" },
} as const satisfies Record<string, NumberRange>;
