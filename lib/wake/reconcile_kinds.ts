/**
 * The four reconciles in their fixed order — messages, assets, webhook events, tasks — with the
 * read-ahead refreshed between them when a turn ran since the reads were started
 * (lib/wake/read_ahead.ts).
 */
import { reconcileAssets, reconcileEvents, reconcileTasks } from "./items.ts";
import { reconcileMessages } from "./messages.ts";
import { type ReadAheadKind, refreshReadAhead } from "./read_ahead.ts";
import type { Wake } from "./wake_state.ts";

const RECONCILERS: Readonly<Record<ReadAheadKind, (wake: Wake) => Promise<void>>> = {
  messages: reconcileMessages,
  assets: reconcileAssets,
  webhook_events: reconcileEvents,
  tasks: reconcileTasks,
};

/**
 * Reconciles `kinds` in the fixed order; before each after the first, when a turn ran since the
 * reads were started, the reads of the kinds still to come start afresh.
 */
export async function reconcileKinds(wake: Wake, kinds: readonly ReadAheadKind[]): Promise<void> {
  for (const [i, kind] of kinds.entries()) {
    if (i > 0) await refreshReadAhead(wake, kinds.slice(i));
    await RECONCILERS[kind](wake);
  }
}
