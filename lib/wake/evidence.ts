/**
 * Evidence release (docs/operating.md#what-a-wake-does-in-order, docs/context.md#the-context-budget), the wake's last step after the four reconciles.
 *
 * A compaction summary keeps the uuids of the platform items whose turns it destroyed, so a later
 * recovery can tell "the model never saw this item" from "it saw it, and the record of that is
 * gone". Only a recovery reads them, and only for an item whose claim is still undecided. Once the
 * claim is settled — or for an item never claimed at all — nothing will ever ask, so the uuid is
 * dropped. Without this, every summary would carry one uuid per item the timeline ever handled.
 *
 * It runs when no turn is in flight and nothing else holds the transcript, and edits only `items`,
 * which is persisted but never sent to a model.
 */
import { pruneSummaryItems } from "../core/compaction/cut.ts";
import { isSummary } from "../core/types/summary_marker.ts";
import { CLAIM_KINDS } from "../home/paths.ts";
import { persist, type Wake } from "./wake_state.ts";

/** Prunes every summary's `items` to the undecided ones; saves the transcript only if it changed. */
export async function releaseSettledEvidence(wake: Wake): Promise<void> {
  const held = new Set<string>();
  for (const message of wake.messages) {
    if (isSummary(message)) { for (const uuid of message.items ?? []) held.add(uuid); }
  }
  if (held.size === 0) return; // no summary holds anything: no claim is read
  const undecided = new Set<string>();
  for (const uuid of held) {
    if (await isUndecided(wake, uuid)) undecided.add(uuid);
  }
  if (pruneSummaryItems(wake.messages, (uuid) => undecided.has(uuid))) await persist(wake);
}

/**
 * Whether `uuid`'s claim is still in flight. An item is claimed in one kind only, so the first
 * claim found decides; an item never claimed is not evidence of anything.
 */
async function isUndecided(wake: Wake, uuid: string): Promise<boolean> {
  for (const kind of CLAIM_KINDS) {
    const record = await wake.claims.read(kind, wake.settings.timeline, uuid);
    if (record !== undefined) return !wake.claims.isSettled(record);
  }
  return false;
}
