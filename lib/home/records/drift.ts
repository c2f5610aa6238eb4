/**
 * Drift over time (docs/records.md#drift-over-time): the records of a window, bucketed by UTC day
 * or ISO week, with the four drift numbers — guardrail-failure rate, escalation rate, p95 latency,
 * cache-hit rate — beside tokens, cost and wakes. Read leniently, like the per-timeline stats: a
 * line that is not a record is counted as unreadable and skipped, and no hash is checked (that is
 * `verify`'s job), so a month of records reads in one pass. A record's `at` is the first key of
 * its canonical line, which lets lines outside the window be skipped without parsing them.
 */
import { queriedTimelines, readChain } from "./files.ts";
import { splitLines } from "./line.ts";

/** The bucket width. */
export type DriftBy = "day" | "week";

/** USD per 1M tokens for one model (`prices.json`, docs/configuration.md#pricesjson). */
export interface DriftPrice {
  readonly input: number;
  /** Cached input tokens (cache reads). */
  readonly cached: number;
  /** Input tokens written to the prompt cache (Anthropic's cache writes); default `input`. */
  readonly cacheWrite?: number;
  readonly output: number;
}

/** Tokens of one kind or another, as a price applies to them. */
export interface PricedTokens {
  /** All input tokens, cache reads and writes included. */
  readonly tokensIn: number;
  readonly tokensOut: number;
  /** Of `tokensIn`, read from the prompt cache. */
  readonly cached: number;
  /** Of `tokensIn`, written to the prompt cache. */
  readonly cacheWrite: number;
}

/**
 * What `tokens` cost at `price`, in USD: `((in − cached − written) × input + cached × cached +
 * written × cache_write + out × output) / 1,000,000`; a write without its own price costs input.
 */
export function tokenCost(tokens: PricedTokens, price: DriftPrice): number {
  // Cache reads and writes are parts of tokens_in, each at its own price.
  const fresh = Math.max(0, tokens.tokensIn - tokens.cached - tokens.cacheWrite);
  return (fresh * price.input + tokens.cached * price.cached +
    tokens.cacheWrite * (price.cacheWrite ?? price.input) + tokens.tokensOut * price.output) / 1e6;
}

/** What prices the turns: a model id's price, or undefined. */
export type DriftPrices = Pick<ReadonlyMap<string, DriftPrice>, "get">;

/** One bucket's numbers (and, with `period: "total"`, the whole window's). */
export interface DriftBucket {
  /** `YYYY-MM-DD`: the UTC day, or the Monday that starts the ISO week; `total` for the sum. */
  readonly period: string;
  readonly turns: number;
  /** Distinct `wake_id`s. */
  readonly wakes: number;
  /** Turns with at least one gate refusal ÷ turns; null with no turns. */
  readonly guardrail_failure_rate: number | null;
  /** Turns that escalated ÷ turns; null with no turns. */
  readonly escalation_rate: number | null;
  /** Nearest-rank 95th percentile of `latency_ms.total`. */
  readonly p95_latency_ms: number | null;
  /** Cached input tokens ÷ input tokens; null without input tokens. */
  readonly cache_hit_ratio: number | null;
  readonly tokens_in: number;
  readonly tokens_out: number;
  readonly cached_tokens: number;
  /** Input tokens written to the prompt cache (records that carry `cache_write_tokens`). */
  readonly cache_write_tokens: number;
  /** The provider's cost where reported, else priced from the table; null when neither. */
  readonly cost_usd: number | null;
  /** Turns whose cost came from the price table. */
  readonly priced_turns: number;
  /** Turns with neither a provider cost nor a price. */
  readonly unpriced_turns: number;
}

/** The whole answer. */
export interface DriftReport {
  readonly since: string;
  readonly by: DriftBy;
  /** Oldest first; only periods with records. */
  readonly buckets: readonly DriftBucket[];
  readonly total: DriftBucket;
  /** Lines that are not records (a torn tail counts as one). */
  readonly unreadable: number;
}

/** What {@link driftRecords} is asked. */
export interface DriftQuery {
  readonly since: Date;
  readonly by: DriftBy;
  readonly timeline?: string;
  /** Model id → its price (`prices.json` over the built-in table); unpriced when absent. */
  readonly prices?: DriftPrices;
}

/** The fields the drift numbers read from one record. */
interface Row {
  readonly at: string;
  readonly wake: string;
  readonly refused: boolean;
  readonly escalated: boolean;
  readonly latency: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly cached: number;
  readonly cacheWrite: number;
  readonly cost: number | null;
  readonly model: string;
}

/**
 * Reads every chain (or one) and buckets its records since `query.since`. Each record is folded
 * into its period's running sums as it is read — only the latencies are kept, for the p95.
 */
export async function driftRecords(home: string, query: DriftQuery): Promise<DriftReport> {
  const timelines = await queriedTimelines(home, query.timeline);
  const tally = new Tally(query.by, query.prices ?? new Map());
  const since = query.since.toISOString();
  for (const timeline of timelines) {
    tally.unreadable += collect(await readChain(home, timeline), since, tally);
  }
  return {
    since,
    by: query.by,
    buckets: [...tally.periods.keys()].sort().map((key) => tally.periods.get(key)!.bucket(key)),
    total: tally.total.bucket("total"),
    unreadable: tally.unreadable,
  };
}

/** One period's running sums, added to in reading order (so float sums match a re-read). */
class Sums {
  turns = 0;
  tokensIn = 0;
  tokensOut = 0;
  cached = 0;
  cacheWrite = 0;
  refused = 0;
  escalated = 0;
  cost = 0;
  costed = 0;
  priced = 0;
  unpriced = 0;
  readonly wakes = new Set<string>();
  #latencies = new Float64Array(64);

  add(row: Row, prices: DriftPrices): void {
    if (this.turns === this.#latencies.length) {
      const grown = new Float64Array(this.turns * 2);
      grown.set(this.#latencies);
      this.#latencies = grown;
    }
    this.#latencies[this.turns++] = row.latency;
    this.tokensIn += row.tokensIn;
    this.tokensOut += row.tokensOut;
    this.cached += row.cached;
    this.cacheWrite += row.cacheWrite;
    if (row.refused) this.refused++;
    if (row.escalated) this.escalated++;
    this.wakes.add(row.wake);
    if (row.cost !== null) {
      this.cost += row.cost;
      this.costed++;
      return;
    }
    const price = prices.get(row.model);
    if (!price) {
      this.unpriced++;
      return;
    }
    this.cost += tokenCost(row, price);
    this.priced++;
  }

  bucket(period: string): DriftBucket {
    const n = this.turns;
    return {
      period,
      turns: n,
      wakes: this.wakes.size,
      guardrail_failure_rate: n === 0 ? null : this.refused / n,
      escalation_rate: n === 0 ? null : this.escalated / n,
      p95_latency_ms: nearestRank(this.#latencies.subarray(0, n), 95),
      cache_hit_ratio: this.tokensIn === 0 ? null : this.cached / this.tokensIn,
      tokens_in: this.tokensIn,
      tokens_out: this.tokensOut,
      cached_tokens: this.cached,
      cache_write_tokens: this.cacheWrite,
      // Rounded to a nano-dollar so float noise never reaches a report.
      cost_usd: this.costed + this.priced === 0 ? null : Math.round(this.cost * 1e9) / 1e9,
      priced_turns: this.priced,
      unpriced_turns: this.unpriced,
    };
  }
}

/** The window's sums: one per period and one for the whole window. */
class Tally {
  readonly periods = new Map<string, Sums>();
  readonly total = new Sums();
  unreadable = 0;
  readonly #by: DriftBy;
  readonly #prices: DriftPrices;
  /** Day → its period's sums, so a week's Monday is worked out once per day, not per record. */
  readonly #ofDay = new Map<string, Sums>();

  constructor(by: DriftBy, prices: DriftPrices) {
    this.#by = by;
    this.#prices = prices;
  }

  add(row: Row): void {
    const day = row.at.slice(0, 10);
    let sums = this.#ofDay.get(day);
    if (!sums) {
      const key = periodOf(row.at, this.#by);
      sums = this.periods.get(key);
      if (!sums) this.periods.set(key, sums = new Sums());
      this.#ofDay.set(day, sums);
    }
    sums.add(row, this.#prices);
    this.total.add(row, this.#prices);
  }
}

/**
 * The nearest-rank percentile (as `percentile` in stats.ts gives it) of values it may reorder: a
 * selection (quickselect) finds the one rank instead of sorting them all.
 */
function nearestRank(values: Float64Array, p: number): number | null {
  const n = values.length;
  if (n === 0) return null;
  const k = Math.min(n, Math.max(1, Math.ceil((p / 100) * n))) - 1;
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1];
    let i = lo, j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i++] = values[j];
        values[j--] = swap;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k];
}

const AT_PREFIX = '{"at":"';

function collect(text: string, since: string, into: Tally): number {
  const { lines, torn } = splitLines(text);
  let unreadable = torn === undefined ? 0 : 1;
  for (const line of lines) {
    // ISO 8601 UTC strings of one length compare as text; an older line is not even parsed.
    if (line.startsWith(AT_PREFIX)) {
      const at = line.slice(AT_PREFIX.length, line.indexOf('"', AT_PREFIX.length));
      if (at.length === since.length && at < since) continue;
    }
    const row = rowOf(line);
    if (row === undefined) unreadable++;
    else if (row.at >= since) into.add(row);
  }
  return unreadable;
}

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

/** The flat object that starts at `start` (just past `"<key>":`), parsed; undefined if none. */
function flatObjectAt(line: string, start: number): unknown {
  const end = line.indexOf("}", start);
  return end < 0 ? undefined : JSON.parse(line.slice(start, end + 1));
}

const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const CLOSE_BRACE = 0x7d, QUOTE = 0x22, COLON = 0x3a, COMMA = 0x2c;
const USAGE_FIELDS = [
  "tokens_in",
  "tokens_out",
  "cached_tokens",
  "cache_write_tokens",
  "cost_usd",
] as const;
const LATENCY_FIELDS = ["total"] as const;

/**
 * The object at `start` (its `{`) when it is what the writer spells for `usage` and
 * `latency_ms` — plain keys, number or null values, no whitespace — as the values of `fields`
 * (absent ones undefined), read without `JSON.parse`, which costs more than the rest of a line's
 * reading. Anything else is handed to `JSON.parse`, so the answer is the same either way.
 */
function flatFields<K extends string>(
  line: string,
  start: number,
  fields: readonly K[],
): Partial<Record<K, unknown>> | undefined {
  const values: (number | null | undefined)[] = fields.map(() => undefined);
  let at = start + 1;
  if (line.charCodeAt(at) !== CLOSE_BRACE) {
    for (;;) {
      if (line.charCodeAt(at) !== QUOTE) return fullObject(line, start, fields);
      const keyEnd = line.indexOf('"', at + 1);
      if (keyEnd < 0 || line.charCodeAt(keyEnd + 1) !== COLON) {
        return fullObject(line, start, fields);
      }
      const key = line.slice(at + 1, keyEnd);
      if (key.includes("\\") || key.includes("}")) return fullObject(line, start, fields);
      let end = keyEnd + 2;
      for (; end < line.length; end++) {
        const code = line.charCodeAt(end);
        if (code === COMMA || code === CLOSE_BRACE) break;
      }
      if (end >= line.length) return fullObject(line, start, fields);
      const token = line.slice(keyEnd + 2, end);
      let value: number | null;
      if (token === "null") value = null;
      else if (NUMBER_RE.test(token)) value = Number(token);
      else return fullObject(line, start, fields);
      const index = fields.indexOf(key as K);
      if (index >= 0) values[index] = value; // a repeated key: the last wins, as in JSON.parse
      if (line.charCodeAt(end) === CLOSE_BRACE) break;
      at = end + 1;
    }
  }
  const out: Partial<Record<K, unknown>> = {};
  fields.forEach((field, i) => out[field] = values[i]);
  return out;
}

function fullObject<K extends string>(
  line: string,
  start: number,
  fields: readonly K[],
): Partial<Record<K, unknown>> | undefined {
  const parsed = flatObjectAt(line, start);
  if (typeof parsed !== "object" || parsed === null) return parsed as undefined;
  const out: Partial<Record<K, unknown>> = {};
  for (const field of fields) out[field] = (parsed as Record<string, unknown>)[field];
  return out;
}

/** The flat object after `"<key>":` in a canonical line (usage, latency_ms have no nesting). */
function flatObject(line: string, key: string): unknown {
  // The key occurs once, unescaped; `usage` sits near the line's end, so search from there.
  const at = line.lastIndexOf(`"${key}":{`);
  return at < 0 ? undefined : flatObjectAt(line, at + key.length + 3);
}

const STRING_RE = /^"(?:[^"\\]|\\.)*"/;
const WAKE_RE = /"wake_id":("(?:[^"\\]|\\.)*")/;
const MODEL_RE = /"model":("(?:[^"\\]|\\.)*")/;

/** The JSON string whose opening quote is at `start`, decoded; undefined when unterminated. */
function stringAt(line: string, start: number): string | undefined {
  const end = line.indexOf('"', start + 1);
  if (end < 0) return undefined;
  const raw = line.slice(start, end + 1);
  // Without a backslash the first quote closes the string and its text is the value.
  if (!raw.includes("\\")) return raw.slice(1, -1);
  const match = STRING_RE.exec(line.slice(start));
  return match === null ? undefined : JSON.parse(match[0]);
}

const GATE_KEY = '"gate_verdicts":[';
const LATENCY_KEY = '"latency_ms":{';
const MODEL_KEY = '"model":"';
const USAGE_KEY = '"usage":{';
const WAKE_KEY = '"wake_id":"';
const REFUSED = '"verdict":"refused"';
const ESCALATION_KEY = '"escalation_reason":"';

/**
 * The fields a canonical line spells at top level, read without parsing the whole line (its
 * texts are most of its bytes). In canonical JSON an unescaped `"key":` is a key, never string
 * content, and these keys occur only at the top level (`verdict` only in `gate_verdicts`).
 * Undefined when the line is not in that shape; the caller then parses it whole.
 */
function fastFields(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith(AT_PREFIX)) return undefined;
  try {
    return sortedFields(line) ?? scannedFields(line);
  } catch {
    return undefined;
  }
}

/**
 * {@link fastFields} for a line whose keys are in canonical (sorted) order, searching only the
 * stretches where they sit — `escalation_reason` before `gate_verdicts`, the verdicts up to
 * `latency_ms`, `model` after it, `usage` and `wake_id` near the end — rather than the whole
 * line once per field. Undefined when the keys are not found in that order.
 */
function sortedFields(line: string): Record<string, unknown> | undefined {
  const gate = line.indexOf(GATE_KEY);
  if (gate < 0) return undefined;
  const latency = line.indexOf(LATENCY_KEY, gate);
  if (latency < 0) return undefined;
  const usage = line.lastIndexOf(USAGE_KEY);
  const wake = line.lastIndexOf(WAKE_KEY);
  if (usage < latency || wake < usage) return undefined;
  const model = line.indexOf(MODEL_KEY, latency);
  const wakeId = stringAt(line, wake + WAKE_KEY.length - 1);
  if (wakeId === undefined) return undefined;
  return {
    at: line.slice(AT_PREFIX.length, line.indexOf('"', AT_PREFIX.length)),
    wake_id: wakeId,
    model: model < 0 || model > usage ? undefined : stringAt(line, model + MODEL_KEY.length - 1),
    usage: flatFields(line, usage + USAGE_KEY.length - 1, USAGE_FIELDS),
    latency_ms: flatFields(line, latency + LATENCY_KEY.length - 1, LATENCY_FIELDS),
    gate_verdicts: line.slice(gate, latency).includes(REFUSED) ? [{ verdict: "refused" }] : [],
    escalation_reason: line.slice(0, gate).includes(ESCALATION_KEY) ? "" : undefined,
  };
}

/** {@link fastFields} for a line in any key order: each field found by a search of it all. */
function scannedFields(line: string): Record<string, unknown> | undefined {
  const wake = WAKE_RE.exec(line)?.[1];
  const model = MODEL_RE.exec(line)?.[1];
  const usage = flatObject(line, "usage");
  const latency = flatObject(line, "latency_ms");
  if (wake === undefined || usage === undefined || latency === undefined) return undefined;
  return {
    at: line.slice(AT_PREFIX.length, line.indexOf('"', AT_PREFIX.length)),
    wake_id: JSON.parse(wake),
    model: model === undefined ? undefined : JSON.parse(model),
    usage,
    latency_ms: latency,
    gate_verdicts: line.includes(REFUSED) ? [{ verdict: "refused" }] : [],
    escalation_reason: line.includes(ESCALATION_KEY) ? "" : undefined,
  };
}

/** One line's fields, or undefined when it is not shaped like a record. */
function rowOf(line: string): Row | undefined {
  let raw: unknown = fastFields(line);
  if (raw === undefined) {
    try {
      raw = JSON.parse(line);
    } catch {
      return undefined;
    }
  }
  if (typeof raw !== "object" || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const usage = r.usage as Record<string, unknown> | undefined;
  const latency = r.latency_ms as Record<string, unknown> | undefined;
  if (typeof r.at !== "string" || typeof r.wake_id !== "string" || !usage || !latency) {
    return undefined;
  }
  const total = num(latency.total);
  const tokensIn = num(usage.tokens_in);
  const tokensOut = num(usage.tokens_out);
  const cached = num(usage.cached_tokens);
  if (total === undefined || tokensIn === undefined || tokensOut === undefined) return undefined;
  if (cached === undefined) return undefined;
  const verdicts = Array.isArray(r.gate_verdicts) ? r.gate_verdicts : [];
  return {
    at: r.at,
    wake: r.wake_id,
    refused: verdicts.some((v) => (v as { verdict?: unknown })?.verdict === "refused"),
    escalated: typeof r.escalation_reason === "string",
    latency: total,
    tokensIn,
    tokensOut,
    cached,
    cacheWrite: num(usage.cache_write_tokens) ?? 0,
    cost: num(usage.cost_usd) ?? null,
    model: typeof r.model === "string" ? r.model : "",
  };
}

/** The UTC day, or the Monday of the ISO week, as `YYYY-MM-DD`. */
export function periodOf(at: string, by: DriftBy): string {
  const day = at.slice(0, 10);
  if (by === "day") return day;
  const date = new Date(`${day}T00:00:00Z`);
  const back = (date.getUTCDay() + 6) % 7; // Monday → 0 … Sunday → 6
  return new Date(date.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Parses a `--since` span: `<n>d` (days), `<n>w` (weeks) or `<n>h` (hours), counted back from
 * `now`. Undefined when it is not one.
 */
export function parseSince(span: string, now: Date): Date | undefined {
  const match = /^(\d{1,5})([hdw])$/.exec(span.trim());
  if (!match) return undefined;
  const hours = Number(match[1]) * { h: 1, d: 24, w: 168 }[match[2] as "h" | "d" | "w"];
  return new Date(now.getTime() - hours * 3_600_000);
}
