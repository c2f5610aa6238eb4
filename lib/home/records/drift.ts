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
import { percentile } from "./stats.ts";

/** The bucket width. */
export type DriftBy = "day" | "week";

/** USD per 1M tokens for one model (`prices.json`, docs/configuration.md#pricesjson). */
export interface DriftPrice {
  readonly input: number;
  readonly cached: number;
  readonly output: number;
}

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
  readonly prices?: ReadonlyMap<string, DriftPrice>;
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
  readonly cost: number | null;
  readonly model: string;
}

/** Reads every chain (or one) and buckets its records since `query.since`. */
export async function driftRecords(home: string, query: DriftQuery): Promise<DriftReport> {
  const timelines = await queriedTimelines(home, query.timeline);
  const rows: Row[] = [];
  let unreadable = 0;
  const since = query.since.toISOString();
  for (const timeline of timelines) {
    const text = await readChain(home, timeline);
    unreadable += collect(text, since, rows);
  }
  return driftOf(rows, query, unreadable);
}

/** Buckets already-read rows. Pure. */
function driftOf(rows: readonly Row[], query: DriftQuery, unreadable = 0): DriftReport {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = periodOf(row.at, query.by);
    let group = groups.get(key);
    if (!group) groups.set(key, group = []);
    group.push(row);
  }
  const prices = query.prices ?? new Map();
  const buckets = [...groups.keys()].sort().map((key) => bucketOf(key, groups.get(key)!, prices));
  return {
    since: query.since.toISOString(),
    by: query.by,
    buckets,
    total: bucketOf("total", rows, prices),
    unreadable,
  };
}

const AT_PREFIX = '{"at":"';

function collect(text: string, since: string, into: Row[]): number {
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
    else if (row.at >= since) into.push(row);
  }
  return unreadable;
}

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

/** The flat object after `"<key>":` in a canonical line (usage, latency_ms have no nesting). */
function flatObject(line: string, key: string): unknown {
  // The key occurs once, unescaped; `usage` sits near the line's end, so search from there.
  const at = line.lastIndexOf(`"${key}":{`);
  if (at < 0) return undefined;
  const start = at + key.length + 3;
  const end = line.indexOf("}", start);
  return end < 0 ? undefined : JSON.parse(line.slice(start, end + 1));
}

const WAKE_RE = /"wake_id":("(?:[^"\\]|\\.)*")/;
const MODEL_RE = /"model":("(?:[^"\\]|\\.)*")/;

/**
 * The fields a canonical line spells at top level, read without parsing the whole line (its
 * texts are most of its bytes). In canonical JSON an unescaped `"key":` is a key, never string
 * content, and these keys occur only at the top level (`verdict` only in `gate_verdicts`).
 * Undefined when the line is not in that shape; the caller then parses it whole.
 */
function fastFields(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith(AT_PREFIX)) return undefined;
  try {
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
      gate_verdicts: line.includes('"verdict":"refused"') ? [{ verdict: "refused" }] : [],
      escalation_reason: line.includes('"escalation_reason":"') ? "" : undefined,
    };
  } catch {
    return undefined;
  }
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

function bucketOf(
  period: string,
  rows: readonly Row[],
  prices: ReadonlyMap<string, DriftPrice>,
): DriftBucket {
  let tokensIn = 0, tokensOut = 0, cached = 0, refused = 0, escalated = 0;
  let cost = 0, costed = 0, priced = 0, unpriced = 0;
  const wakes = new Set<string>();
  for (const row of rows) {
    tokensIn += row.tokensIn;
    tokensOut += row.tokensOut;
    cached += row.cached;
    if (row.refused) refused++;
    if (row.escalated) escalated++;
    wakes.add(row.wake);
    if (row.cost !== null) {
      cost += row.cost;
      costed++;
      continue;
    }
    const price = prices.get(row.model);
    if (!price) {
      unpriced++;
      continue;
    }
    const fresh = Math.max(0, row.tokensIn - row.cached);
    cost += (fresh * price.input + row.cached * price.cached + row.tokensOut * price.output) / 1e6;
    priced++;
  }
  const n = rows.length;
  return {
    period,
    turns: n,
    wakes: wakes.size,
    guardrail_failure_rate: n === 0 ? null : refused / n,
    escalation_rate: n === 0 ? null : escalated / n,
    p95_latency_ms: percentile(rows.map((row) => row.latency), 95),
    cache_hit_ratio: tokensIn === 0 ? null : cached / tokensIn,
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    cached_tokens: cached,
    // Rounded to a nano-dollar so float noise never reaches a report.
    cost_usd: costed + priced === 0 ? null : Math.round(cost * 1e9) / 1e9,
    priced_turns: priced,
    unpriced_turns: unpriced,
  };
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
