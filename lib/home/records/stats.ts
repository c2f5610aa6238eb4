/**
 * The drift numbers per timeline, from the records: turns, posts, tokens, cache-hit ratio and
 * p95 latency. Stats read leniently — a line that is not a valid record is counted as
 * `unreadable` and skipped — because they answer "how is it going", not "is it intact" (that is
 * `verify`'s job).
 */
import { queriedTimelines, readChain } from "./files.ts";
import { judgeLine, splitLines } from "./line.ts";
import type { TurnRecord, TurnResult } from "./schema.ts";

/** One timeline's numbers. */
export interface TimelineStats {
  readonly timeline: string;
  /** Valid records (one per engaged turn). */
  readonly turns: number;
  /** Successful `messages` creates: tool calls named `messages`, action `create`, outcome ok. */
  readonly posts: number;
  readonly tokens_in: number;
  readonly tokens_out: number;
  readonly cached_tokens: number;
  /** `cached_tokens / tokens_in`; null when no input tokens were reported. */
  readonly cache_hit_ratio: number | null;
  /** Nearest-rank 95th percentile of `latency_ms.total`; null with no turns. */
  readonly p95_latency_ms: number | null;
  /** Summed `cost_usd`; null when no record reported a cost. */
  readonly cost_usd: number | null;
  /** Lines (and a torn tail) that are not valid records. */
  readonly unreadable: number;
  /**
   * Turns by what they came to (docs/records.md#fields): the hand-offs (`escalated`, `refused`,
   * `truncated`) beside `spoke`, `silent` and `failed`; a record older than the field is in none.
   */
  readonly results: Readonly<Record<TurnResult, number>>;
}

/** Every result at zero, in the schema's order (the JSON's key order). */
function noResults(): Record<TurnResult, number> {
  return { spoke: 0, silent: 0, escalated: 0, refused: 0, truncated: 0, failed: 0 };
}

/** How many of `records` came to each result. */
export function resultCounts(records: readonly TurnRecord[]): Record<TurnResult, number> {
  const counts = noResults();
  for (const record of records) if (record.result) counts[record.result]++;
  return counts;
}

/** The numbers for every recorded timeline (or just `timeline`), in timeline order. */
export async function statsRecords(
  home: string,
  options: { readonly timeline?: string } = {},
): Promise<TimelineStats[]> {
  const timelines = await queriedTimelines(home, options.timeline);
  const out: TimelineStats[] = [];
  for (const timeline of timelines) {
    const text = await readChain(home, timeline);
    out.push(statsOfChain(timeline, text));
  }
  return out;
}

/** The numbers for one chain's text. Pure. */
export function statsOfChain(timeline: string, text: string): TimelineStats {
  const { lines, torn } = splitLines(text);
  const records: TurnRecord[] = [];
  let unreadable = torn === undefined ? 0 : 1;
  for (const line of lines) {
    const verdict = judgeLine(line);
    if (verdict.ok) records.push(verdict.record);
    else unreadable++;
  }
  const sum = (pick: (record: TurnRecord) => number) =>
    records.reduce((total, record) => total + pick(record), 0);
  const tokensIn = sum((r) => r.usage.tokens_in);
  const cached = sum((r) => r.usage.cached_tokens);
  const costs = records.flatMap((r) => r.usage.cost_usd === null ? [] : [r.usage.cost_usd]);
  return {
    timeline,
    turns: records.length,
    posts: sum(postsOf),
    tokens_in: tokensIn,
    tokens_out: sum((r) => r.usage.tokens_out),
    cached_tokens: cached,
    cache_hit_ratio: tokensIn === 0 ? null : cached / tokensIn,
    p95_latency_ms: percentile(records.map((r) => r.latency_ms.total), 95),
    // Rounded to a nano-dollar so float noise (0.019000000000000003) never reaches a report.
    cost_usd: costs.length === 0 ? null : Math.round(costs.reduce((a, b) => a + b, 0) * 1e9) / 1e9,
    unreadable,
    results: resultCounts(records),
  };
}

/**
 * The agent's messages that reached the timeline in one turn: its `outbound` posts of kind
 * `tool` (each has the created message's uuid). A blocked, refused or failed create, or one
 * whose outcome stayed unknown, is not among them. A record written before `outbound` existed
 * counts its `messages` creates whose outcome was `ok`.
 */
export function postsOf(record: TurnRecord): number {
  if (record.outbound !== undefined) {
    return record.outbound.filter((post) => post.kind === "tool").length;
  }
  return record.tool_calls.filter((call) =>
    call.name === "messages" && call.action === "create" && call.outcome === "ok"
  ).length;
}

/**
 * Nearest-rank percentile: the smallest value with at least `p`% of the values at or below it
 * (sorted ascending, index ⌈p/100·n⌉−1). Always one of the observed values; null for none.
 * For 20 values, p95 is the 19th smallest.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
