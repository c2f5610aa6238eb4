/**
 * The recovery lines (docs/operating.md#the-delivery-guarantee,
 * docs/journal.md#the-line-catalogue): what a wake did with work a dead wake left behind. Heads are
 * plain; `handle` (the speaker's handle) is omitted when unknown.
 */
import type { Journal } from "./journal.ts";

/** `re-driving` reason when no transcript turn carries the item. */
export const REDRIVE_UNSEEN = "the wake died before the model ever saw it";
/** `re-driving` reason when the turn exists but died inside the model call. */
export const REDRIVE_IN_MODEL_CALL = "the wake died inside the model call";
/** `resuming` reason. */
export const RESUME_MID_TOOL_CHAIN = "the wake died mid-tool-chain; finishing the turn it started";

/** The item a recovery line is about. */
export interface RecoveredItem {
  /** The item's uuid. */
  readonly item: string;
  /** The claim kind (message, asset, event, task). */
  readonly kind: string;
  /** The timeline's uuid. */
  readonly timeline: string;
  /** The author's handle, when known; omitted from the line otherwise. */
  readonly handle?: string | null;
}

/** WARNING `re-driving`: `item kind timeline [handle] reason`. */
export function reDriving(journal: Journal, f: RecoveredItem & { reason: string }): void {
  journal.event("WARNING", "re-driving", itemFields(f, { reason: f.reason }));
}

/** WARNING `resuming`: `item kind timeline [handle] reason`. */
export function resuming(journal: Journal, f: RecoveredItem & { reason?: string }): void {
  journal.event(
    "WARNING",
    "resuming",
    itemFields(f, { reason: f.reason ?? RESUME_MID_TOOL_CHAIN }),
  );
}

/** INFO `recovered`: `item kind timeline [handle] action=turn-completed`. */
export function recovered(journal: Journal, f: RecoveredItem): void {
  journal.event("INFO", "recovered", itemFields(f, { action: "turn-completed" }));
}

/** ERROR `dropped`: `item kind timeline [handle] reason` (the claim was abandoned). */
export function dropped(journal: Journal, f: RecoveredItem & { reason: string }): void {
  journal.event("ERROR", "dropped", itemFields(f, { reason: f.reason }));
}

/** WARNING `re-issued`: `tool kind ordinal timeline` (an interrupted create re-sent under its key). */
export function reIssued(journal: Journal, f: {
  tool: string;
  kind: string;
  ordinal: number;
  timeline: string;
}): void {
  journal.event("WARNING", "re-issued", {
    tool: f.tool,
    kind: f.kind,
    ordinal: f.ordinal,
    timeline: f.timeline,
  });
}

function itemFields(
  f: RecoveredItem,
  tail: Record<string, string>,
): Record<string, string | null | undefined> {
  return { item: f.item, kind: f.kind, timeline: f.timeline, handle: f.handle, ...tail };
}
