/**
 * Where each piece of per-timeline state lives under `HARNESS_HOME` (docs/home-layout.md). Every
 * name is `quote(x, safe='')` of the timeline or item uuid, exactly as the Python reference spells
 * it, so a box can switch runtimes and both find the same files.
 */
import { join } from "../base/paths.ts";
import { quote } from "../pycompat/quote.ts";

/** Item kinds a wake claims (note `webhook_events`, not `events`). */
export type ClaimKind = "messages" | "assets" | "webhook_events" | "tasks";

/** Every claim kind, in the order the wake reconciles them. */
export const CLAIM_KINDS: readonly ClaimKind[] = ["messages", "assets", "webhook_events", "tasks"];

/** Item kinds tracked by a high-water mark (tasks use a seen-set instead). */
export type MarkKind = "messages" | "assets" | "webhook_events";

/** `marks/<q>.txt` for messages (the original flat layout), `marks/<kind>/<q>.txt` otherwise. */
export function markPath(home: string, kind: MarkKind, timeline: string): string {
  const folder = kind === "messages" ? join(home, "marks") : join(home, "marks", kind);
  return join(folder, `${quote(timeline)}.txt`);
}

/** `seen/tasks/<q>.txt`: the activated tasks already handled on a timeline. */
export function seenPath(home: string, timeline: string): string {
  return join(home, "seen", "tasks", `${quote(timeline)}.txt`);
}

/** `claims/<kind>/<q(timeline)>/`: one timeline's claims of one kind, with their temps/tokens. */
export function claimsDir(home: string, kind: ClaimKind, timeline: string): string {
  return join(home, "claims", kind, quote(timeline));
}

/**
 * `breaker/<q>.wakes` (the breaker's window of counted wakes), `breaker/<q>.tripped` (trip
 * marker) and `breaker/<q>.last` (when a wake of the timeline last started, counted or not).
 */
export function breakerPaths(
  home: string,
  timeline: string,
): { wakes: string; tripped: string; last: string } {
  const stem = join(home, "breaker", quote(timeline));
  return { wakes: `${stem}.wakes`, tripped: `${stem}.tripped`, last: `${stem}.last` };
}

/** `billing/<q>.blocked`: the out-of-funds debounce marker. */
export function billingPath(home: string, timeline: string): string {
  return join(home, "billing", `${quote(timeline)}.blocked`);
}

/** `escalations/<q(timeline)>/`: one timeline's escalation marks, one `<q(item)>.json` each. */
export function escalationsDir(home: string, timeline: string): string {
  return join(home, "escalations", quote(timeline));
}

/** `working_state/<q>.json`: the timeline's notes and latest-response stamp. */
export function workingStatePath(home: string, timeline: string): string {
  return join(home, "working_state", `${quote(timeline)}.json`);
}
