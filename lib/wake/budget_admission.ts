/**
 * Whether a turn may start against the daily limits (docs/operating.md#the-budget-guard), decided
 * from the day's settled spend, what the turns in flight commit, and one turn's estimate. Pure:
 * lib/wake/budget.ts reads the inputs and acts on the answer under the budget lock.
 *
 * - **exhausted**: the settled spend has reached a daily limit; no turn starts until it resets.
 * - **wait**: the settled spend is below every limit, but with what the turns in flight commit it
 *   is not; the answer comes once one of them settles (what it actually spent may leave room).
 * - **admit**: below every limit with everything in flight counted. The turn reserves one turn's
 *   estimate per measure: the largest single turn the ledger holds for today or yesterday; with
 *   no turn on either day, what is left of the limit, so that turn runs alone and the next
 *   decision has a turn to estimate from.
 *
 * The bound that follows: every turn starts below the limit with all earlier turns counted at
 * least at their reservation, so the day's spend passes a limit by less than one turn's estimate,
 * as long as no turn spends more than its estimate. A turn that does is never cut (it settles
 * what it spent, and its progress counts against later decisions as it goes), so its excess
 * comes on top.
 */
import type { Spend } from "../home/budget.ts";

/** The daily limits; null is none. */
export interface DailyLimits {
  readonly usd: number | null;
  readonly tokens: number | null;
}

/** What the decision came to. */
export type Admission =
  | { readonly kind: "admit"; readonly reserve: Spend }
  | { readonly kind: "wait"; readonly limit: string }
  | { readonly kind: "exhausted"; readonly limit: string };

/** The measures in the order a limit is named (usd first, as the per-day check always did). */
const MEASURES = [["usd_per_day", "usd"], ["tokens_per_day", "tokens"]] as const;

/**
 * Decides one turn. `settled`: the day's ledger; `inFlight`: what the live leases commit;
 * `estimate`: one turn's estimate, or undefined when no turn has been recorded to estimate from.
 */
export function admission(
  limits: DailyLimits,
  settled: Spend,
  inFlight: Spend,
  estimate: Spend | undefined,
): Admission {
  for (const [key, measure] of MEASURES) {
    const limit = limits[measure];
    if (limit !== null && settled[measure] >= limit) {
      return { kind: "exhausted", limit: `${key} ${settled[measure]}/${limit}` };
    }
  }
  for (const [key, measure] of MEASURES) {
    const limit = limits[measure];
    const committed = settled[measure] + inFlight[measure];
    if (limit !== null && committed >= limit) {
      return { kind: "wait", limit: `${key} ${round(committed)}/${limit}` };
    }
  }
  const reserve = (measure: "usd" | "tokens"): number => {
    if (estimate !== undefined) return estimate[measure];
    const limit = limits[measure];
    return limit === null ? 0 : round(limit - settled[measure] - inFlight[measure]);
  };
  return { kind: "admit", reserve: { usd: reserve("usd"), tokens: reserve("tokens") } };
}

/** One turn's estimate from two days' ledgers: each measure's largest turn; none without turns. */
export function turnEstimate(
  days: readonly { readonly largest: Spend; readonly turns: number }[],
): Spend | undefined {
  const recorded = days.filter((day) => day.turns > 0);
  if (recorded.length === 0) return undefined;
  return {
    usd: Math.max(...recorded.map((day) => day.largest.usd)),
    tokens: Math.max(...recorded.map((day) => day.largest.tokens)),
  };
}

function round(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
