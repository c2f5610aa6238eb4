/**
 * The budget guard (docs/operating.md#the-budget-guard): `budget.json`'s limits, held by every
 * wake on the box together. A wake that starts over a daily limit raises its budget wall: triage
 * then leaves every item pending and unclaimed (as the billing wall does), so no model call is
 * made and nothing is lost — the items are answered by the first wake after the UTC day turns.
 *
 * Before an item is claimed, its turn is admitted against the daily limits under the box's
 * budget lock (lib/wake/budget_admission.ts decides): admitted, it holds a lease reserving one
 * turn's estimate, updated with what the turn has spent after each model step; once the turn
 * ends its spend is charged to the day's ledger and the lease released, both under the lock. A
 * turn that may not start yet waits for a turn in flight to settle, then asks again. Once the
 * wake's or the day's spend reaches a limit the wall rises for the rest of the wake: the turn in
 * flight finishes, and every later item stays pending for the next wake.
 *
 * One WARNING when a limit starts holding (from the one wake that creates the marker), one INFO
 * when a wake finds it cleared, and, when `escalation.json` switches `budget_exhausted` on, one
 * notice per limit per day for the whole box.
 *
 * Loaded lazily, only when `budget.json` sets a limit.
 */
import { errorMessage } from "../base/error_text.ts";
import { sleep } from "../base/sleep.ts";
import type { BudgetConfig } from "../config/spending.ts";
import type { TurnHook } from "../core/turn_hook.ts";
import {
  chargeDay,
  clearExhausted,
  dayBefore,
  dayLedger,
  daySpend,
  exhaustedMark,
  markExhausted,
  type Spend,
  takeBudgetNotice,
  utcDay,
} from "../home/budget.ts";
import { BudgetLease, committedTotal, liveLeases, withBudgetLock } from "../home/budget_leases.ts";
import { admission, turnEstimate } from "./budget_admission.ts";
import { escalate } from "./escalation.ts";
import type { Wake } from "./wake_state.ts";

/** The first pause of a wake waiting for a turn in flight to settle; it doubles up to the cap. */
export const WAIT_FIRST_MS = 100;
/** The longest pause between two looks while waiting. */
export const WAIT_MAX_MS = 1_000;

const NOTHING: Spend = Object.freeze({ usd: 0, tokens: 0 });

/** Each wake's lease: taken when a turn is admitted, released when that turn is charged. */
const leases = new WeakMap<Wake, BudgetLease>();

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
  const reached = limitReached(wake.budget, spent, NOTHING);
  await transition(wake, reached, day);
}

/** Knobs for tests. */
export interface AdmitOptions {
  /** How a waiting wake pauses between looks. */
  readonly pause?: (ms: number) => Promise<void>;
}

/**
 * Whether the wake's next turn may start. True at once while the wake holds an admitted lease
 * it has not used yet; otherwise decides under the budget lock, takes a lease when admitted,
 * waits while the turns in flight commit the rest of a limit, and raises the wall (false) once
 * a limit holds.
 */
export async function admitTurn(wake: Wake, options: AdmitOptions = {}): Promise<boolean> {
  if (wake.budgetWall) return false;
  const perWake = limitReached(wake.budget, NOTHING, wake.spent);
  if (perWake) {
    await transition(wake, perWake, utcDay(new Date()));
    return false;
  }
  const limits = { usd: wake.budget.usdPerDay, tokens: wake.budget.tokensPerDay };
  if (leases.has(wake) || (limits.usd === null && limits.tokens === null)) return true;
  const { home, timeline } = wake.settings;
  const pause = options.pause ?? sleep;
  let announced = false;
  for (let delay = WAIT_FIRST_MS;; delay = Math.min(delay * 2, WAIT_MAX_MS)) {
    const now = new Date();
    const day = utcDay(now);
    const { decided, inFlight } = await withBudgetLock(home, async () => {
      const [today, before, live] = await Promise.all([
        dayLedger(home, day),
        dayLedger(home, dayBefore(day)),
        liveLeases(home),
      ]);
      const decided = admission(
        limits,
        today,
        committedTotal(live),
        turnEstimate([today, before]),
      );
      if (decided.kind === "admit") {
        leases.set(wake, await BudgetLease.take(home, timeline, decided.reserve, now));
      }
      return { decided, inFlight: live.length };
    });
    if (decided.kind === "admit") return true;
    if (decided.kind === "exhausted") {
      await transition(wake, decided.limit, day);
      return false;
    }
    if (!announced) {
      announced = true;
      wake.journal.text(
        "INFO",
        `Budget guard WAITING for timeline ${timeline}: ${decided.limit} committed with ` +
          `${inFlight} turn(s) in flight on ${day} (UTC); the next turn starts or stops once ` +
          "one of them settles.",
      );
    }
    await pause(delay);
  }
}

/**
 * The turn's hook: after each model step, what the turn has spent so far is written to its
 * lease, so a decision another wake makes meanwhile counts it once it passes the reservation.
 * A failed write costs only that update (the lease still holds its reservation).
 */
export function progressHook(wake: Wake): TurnHook {
  let tokens = 0;
  let usd = 0;
  return {
    async afterStep({ reply }) {
      const lease = leases.get(wake);
      const usage = reply.usage;
      if (!lease || !usage) return;
      tokens += (usage.tokensIn ?? 0) + (usage.tokensOut ?? 0);
      if (typeof usage.cost === "number" && Number.isFinite(usage.cost)) usd += usage.cost;
      try {
        await withBudgetLock(wake.settings.home, () => lease.record({ tokens, usd }));
      } catch (error) {
        wake.journal.text(
          "WARNING",
          `Could not record the turn's spend so far in its budget lease: ${errorMessage(error)}`,
        );
      }
    },
  };
}

/**
 * After an engaged turn: charges its spend to the day's ledger and releases its lease (one step,
 * under the lock), then raises the wall once a limit is reached. `usage` is the engine's sum;
 * without one (the turn failed before the engine returned) what its lease recorded is charged.
 */
export async function chargeTurn(
  wake: Wake,
  usage:
    | { readonly tokensIn: number; readonly tokensOut: number; readonly cost?: number }
    | undefined,
  now: Date = new Date(),
): Promise<void> {
  const day = utcDay(now);
  const lease = leases.get(wake);
  leases.delete(wake);
  const spend: Spend = usage
    ? { usd: usage.cost ?? 0, tokens: usage.tokensIn + usage.tokensOut }
    : lease?.spent ?? NOTHING;
  wake.spent.usd += spend.usd;
  wake.spent.tokens += spend.tokens;
  const { home, timeline } = wake.settings;
  const today = await withBudgetLock(home, async () => {
    try {
      if (usage || spend.tokens > 0 || spend.usd > 0) {
        await chargeDay(home, day, { timeline, usd: spend.usd, tokens: spend.tokens });
      }
    } finally {
      await lease?.release();
    }
    return await daySpend(home, day);
  });
  const reached = limitReached(wake.budget, today, wake.spent);
  if (reached) await transition(wake, reached, day);
}

/** At wake end: releases a lease the wake took but never used (its item went to another wake). */
export async function releaseWake(wake: Wake): Promise<void> {
  const lease = leases.get(wake);
  if (!lease) return;
  leases.delete(wake);
  await withBudgetLock(wake.settings.home, () => lease.release());
}

/**
 * Raises or lowers the wall, and logs the transition once: the WARNING (and the notice) come
 * from the one wake that creates the marker, the INFO from the one that finds it cleared.
 */
async function transition(wake: Wake, reached: string | undefined, day: string): Promise<void> {
  const { home, timeline } = wake.settings;
  wake.budgetWall = reached !== undefined;
  if (reached) {
    if (!await markExhausted(home, `${reached} ${day}`)) return; // another wake said it
    wake.journal.text(
      "WARNING",
      `Budget guard EXHAUSTED for timeline ${timeline}: ${reached} on ${day} (UTC); no model ` +
        "call is made until it resets, and items stay pending for a later wake.",
    );
    const limit = reached.split(" ")[0];
    if (
      wake.escalation.on.includes("budget_exhausted") && await takeBudgetNotice(home, limit, day)
    ) {
      await escalate(wake, { reason: "budget_exhausted", item: `budget-${limit}-${day}` });
    }
    return;
  }
  const held = await exhaustedMark(home);
  if (held === undefined || !await clearExhausted(home)) return;
  wake.journal.text(
    "INFO",
    `Budget guard CLEARED for timeline ${timeline}: the limit (${held}) no longer holds; ` +
      "resuming model calls.",
  );
}
