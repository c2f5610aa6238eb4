/**
 * How a compaction summary is recognised. Kept apart from the compaction code so the Harness, the
 * recovery and the attribution can tell a summary from a charter without loading it.
 */
import type { Message } from "./message.ts";

/** How every compaction summary opens. */
export const SUMMARY_MARKER = "[Earlier conversation compacted";

/** Whether `message` is a summary a previous compaction left. */
export function isSummary(message: Message): boolean {
  return message.role === "system" && (message.content ?? "").startsWith(SUMMARY_MARKER);
}
