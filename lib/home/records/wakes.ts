/**
 * The turn records regrouped by wake (docs/operating.md#harness-status): a wake that engaged
 * wrote one record per turn, each naming the wake's id, so a wake's time, outcome, posts, steps,
 * tokens and cost are the sums over its records. Lenient like the stats: a line that is not a
 * valid record is skipped (`harness records verify` is the integrity check). A wake that found
 * nothing new wrote no record and is not here.
 */
import { queriedTimelines, readChain } from "./files.ts";
import { judgeLine, splitLines } from "./line.ts";
import type { Outcome, TurnRecord, TurnResult } from "./schema.ts";
import { postsOf, resultCounts } from "./stats.ts";

/** One engaged wake of one timeline, summed over its turn records. */
export interface WakeSummary {
  readonly timeline: string;
  readonly wake_id: string;
  /**
   * When its last turn record was written (ISO 8601, UTC): the end of its last engaged turn, not
   * the wake's start.
   */
  readonly record_written_at: string;
  /** Turn records it wrote (one per engaged turn). */
  readonly turns: number;
  /** The worst outcome among its turns: error, then reported, then declined, then ok. */
  readonly outcome: Outcome;
  /** The finer detail of that turn (`narration`, `billing`, …), when it gave one. */
  readonly outcome_kind: string | null;
  /** Successful `messages` creates. */
  readonly posted: number;
  /** Its turns by what they came to (`escalated`, `refused`, `truncated`, `spoke`, …). */
  readonly results: Readonly<Record<TurnResult, number>>;
  readonly steps: number;
  readonly tokens_in: number;
  readonly tokens_out: number;
  /** USD; null when no turn reported a cost. */
  readonly cost_usd: number | null;
}

/** Worse outcomes rank higher. */
const RANK: Readonly<Record<Outcome, number>> = { ok: 0, declined: 1, reported: 2, error: 3 };

/** The engaged wakes of one chain's text, oldest first (by their last turn's `seq`). Pure. */
export function wakesOfChain(timeline: string, text: string): WakeSummary[] {
  const { lines } = splitLines(text);
  const byWake = new Map<string, TurnRecord[]>();
  for (const line of lines) {
    const verdict = judgeLine(line);
    if (!verdict.ok) continue;
    const turns = byWake.get(verdict.record.wake_id) ?? [];
    turns.push(verdict.record);
    byWake.set(verdict.record.wake_id, turns);
  }
  // Chain order is write order (a clock can step back; `seq` cannot): by each wake's last turn.
  const last = (turns: TurnRecord[]) => Math.max(...turns.map((r) => r.seq));
  return [...byWake].sort(([, a], [, b]) => last(a) - last(b))
    .map(([wake, turns]) => summarise(timeline, wake, turns));
}

function summarise(timeline: string, wake: string, turns: TurnRecord[]): WakeSummary {
  const worst = turns.reduce((a, b) => (RANK[b.outcome] > RANK[a.outcome] ? b : a));
  const sum = (pick: (record: TurnRecord) => number) =>
    turns.reduce((total, record) => total + pick(record), 0);
  const costs = turns.flatMap((r) => r.usage.cost_usd === null ? [] : [r.usage.cost_usd]);
  return {
    timeline,
    wake_id: wake,
    record_written_at: turns.map((r) => r.at).sort().at(-1) as string,
    turns: turns.length,
    outcome: worst.outcome,
    outcome_kind: worst.outcome_kind ?? null,
    posted: sum(postsOf),
    results: resultCounts(turns),
    steps: sum((r) => r.steps),
    tokens_in: sum((r) => r.usage.tokens_in),
    tokens_out: sum((r) => r.usage.tokens_out),
    // Rounded to a nano-dollar, as the stats are, so float noise never reaches a report.
    cost_usd: costs.length === 0 ? null : Math.round(costs.reduce((a, b) => a + b, 0) * 1e9) / 1e9,
  };
}

/**
 * The last `limit` engaged wakes of every recorded timeline (or of `timeline`), newest first
 * within each timeline, timelines in order.
 */
export async function recentWakes(
  home: string,
  options: { readonly timeline?: string; readonly limit: number },
): Promise<WakeSummary[]> {
  const timelines = await queriedTimelines(home, options.timeline);
  const out: WakeSummary[] = [];
  for (const timeline of timelines) {
    const text = await readChain(home, timeline);
    out.push(...wakesOfChain(timeline, text).slice(-options.limit).reverse());
  }
  return out;
}
