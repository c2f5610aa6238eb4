/**
 * The budget guard's question before an item is claimed or a dead wake's turn is resumed
 * (docs/operating.md#the-budget-guard): may this wake start a turn? Without a limit in
 * `budget.json` the answer is yes and the guard is never loaded; with one it is asked under the
 * box's budget lock, and may wait for a turn in flight elsewhere to settle.
 */
import { lazyImport } from "../base/lazy_import.ts";
import { budgetActive, type Wake } from "./wake_state.ts";

/** Whether the wake may start its next turn; false raises (or keeps) its budget wall. */
export async function budgetAdmits(wake: Wake): Promise<boolean> {
  if (wake.budgetWall) return false;
  if (!budgetActive(wake)) return true;
  const guard = await lazyImport<typeof import("./budget.ts")>("lib/wake/budget.ts");
  return await guard.admitTurn(wake);
}

/** At wake start, with a limit: raises the wall when today's spend is already over one. */
export async function guardBudget(wake: Wake): Promise<void> {
  if (!budgetActive(wake)) return;
  const guard = await lazyImport<typeof import("./budget.ts")>("lib/wake/budget.ts");
  await guard.guardWake(wake);
}

/** At wake end, with a limit: releases a lease whose item went to another wake. */
export async function releaseBudget(wake: Wake): Promise<void> {
  if (!budgetActive(wake)) return;
  const guard = await lazyImport<typeof import("./budget.ts")>("lib/wake/budget.ts");
  await guard.releaseWake(wake);
}
