/**
 * The wake's one door to the budget guard (docs/operating.md#the-budget-guard): at wake start,
 * before an item is claimed or a dead wake's turn is resumed (may this wake start a turn?),
 * during a turn (each step's spend reaches its lease), after it (the charge), and at wake end.
 * Without a limit in `budget.json` every answer is "go on" and lib/wake/budget.ts is never
 * loaded; with one the guard works under the box's budget lock, and may wait for a turn in
 * flight elsewhere to settle.
 */
import { lazyImport } from "../base/lazy_import.ts";
import type { TurnHook } from "../core/turn_hook.ts";
import { budgetActive, type Wake } from "./wake_state.ts";

/** The guard, loaded on first use. */
function guard(): Promise<typeof import("./budget.ts")> {
  return lazyImport<typeof import("./budget.ts")>("lib/wake/budget.ts");
}

/** Whether the wake may start its next turn; false raises (or keeps) its budget wall. */
export async function budgetAdmits(wake: Wake): Promise<boolean> {
  if (wake.budgetWall) return false;
  if (!budgetActive(wake)) return true;
  return await (await guard()).admitTurn(wake);
}

/** At wake start, with a limit: raises the wall when today's spend is already over one. */
export async function guardBudget(wake: Wake): Promise<void> {
  if (!budgetActive(wake)) return;
  await (await guard()).guardWake(wake);
}

/** At wake end, with a limit: releases a lease whose item went to another wake. */
export async function releaseBudget(wake: Wake): Promise<void> {
  if (!budgetActive(wake)) return;
  await (await guard()).releaseWake(wake);
}

/** A turn's hooks for the guard: with a limit, each step's spend is written to the turn's lease. */
export async function budgetHooks(wake: Wake): Promise<TurnHook[]> {
  if (!budgetActive(wake)) return [];
  return [(await guard()).progressHook(wake)];
}

/** After an engaged turn, with a limit: charges its spend and releases its lease. */
export async function chargeBudget(
  wake: Wake,
  usage: Parameters<typeof import("./budget.ts").chargeTurn>[1],
): Promise<void> {
  if (!budgetActive(wake)) return;
  await (await guard()).chargeTurn(wake, usage);
}
