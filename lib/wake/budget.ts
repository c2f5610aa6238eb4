/**
 * The budget guard (docs/operating.md#the-budget-guard): `budget.json`'s limits, enforced like the
 * breaker. A wake that starts over a daily limit raises its budget wall: triage then leaves every
 * item pending and unclaimed (as the billing wall does), so no model call is made and nothing is
 * lost — the items are answered by the first wake after the UTC day turns. After each engaged
 * turn its spend is charged to the day's ledger; once the wake's or the day's spend reaches a
 * limit the wall rises for the rest of the wake: the turn in flight finishes (its item is
 * answered and settled as usual), and every later item stays pending for the next wake.
 *
 * One WARNING when a limit starts holding, one INFO when a wake finds it cleared, and, when
 * `escalation.json` switches `budget_exhausted` on, one notice per limit per day.
 *
 * Loaded lazily, only when `budget.json` sets a limit.
 */
import type { BudgetConfig } from "../config/spending.ts";
import {
  chargeDay,
  clearExhausted,
  daySpend,
  exhaustedMark,
  markExhausted,
  type Spend,
  utcDay,
} from "../home/budget.ts";
import { escalate } from "./escalation.ts";
import type { Wake } from "./wake_state.ts";

/** Which limit holds for `wake` and `day` spends, as `<key> <spent>/<limit>`, or undefined. */
export function limitReached(
  budget: BudgetConfig,
  day: Spend,
  wake: Spend,
): string | undefined {
  const checks: [string, number | null, number][] = [
    ["usd_per_day", budget.usdPerDay, day.usd],
    ["tokens_per_day", budget.tokensPerDay, day.tokens],
    ["usd_per_wake", budget.usdPerWake, wake.usd],
    ["tokens_per_wake", budget.tokensPerWake, wake.tokens],
  ];
  for (const [key, limit, spent] of checks) {
    if (limit !== null && spent >= limit) return `${key} ${spent}/${limit}`;
  }
  return undefined;
}

/** At wake start: raises the wall when today's spend is over a daily limit. */
export async function guardWake(wake: Wake, now: Date = new Date()): Promise<void> {
  const day = utcDay(now);
  const spent = await daySpend(wake.settings.home, day);
  const reached = limitReached(wake.budget, spent, { usd: 0, tokens: 0 });
  await settle(wake, reached, day);
}

/** After an engaged turn: charges its spend, and raises the wall once a limit is reached. */
export async function chargeTurn(
  wake: Wake,
  usage: { readonly tokensIn: number; readonly tokensOut: number; readonly cost?: number },
  now: Date = new Date(),
): Promise<void> {
  const day = utcDay(now);
  const usd = usage.cost ?? 0;
  const tokens = usage.tokensIn + usage.tokensOut;
  wake.spent.usd += usd;
  wake.spent.tokens += tokens;
  const { home, timeline } = wake.settings;
  await chargeDay(home, day, { timeline, usd, tokens });
  const reached = limitReached(wake.budget, await daySpend(home, day), wake.spent);
  if (reached) await settle(wake, reached, day);
}

async function settle(wake: Wake, reached: string | undefined, day: string): Promise<void> {
  const { home, timeline } = wake.settings;
  const held = await exhaustedMark(home);
  wake.budgetWall = reached !== undefined;
  if (reached && held === undefined) {
    await markExhausted(home, `${reached} ${day}`);
    wake.journal.text(
      "WARNING",
      `Budget guard EXHAUSTED for timeline ${timeline}: ${reached} on ${day} (UTC); no model ` +
        "call is made until it resets, and items stay pending for a later wake.",
    );
    if (wake.escalation.on.includes("budget_exhausted")) {
      const limit = reached.split(" ")[0];
      await escalate(wake, { reason: "budget_exhausted", item: `budget-${limit}-${day}` });
    }
  } else if (!reached && held !== undefined) {
    await clearExhausted(home);
    wake.journal.text(
      "INFO",
      `Budget guard CLEARED for timeline ${timeline}: the limit (${held}) no longer holds; ` +
        "resuming model calls.",
    );
  }
}
