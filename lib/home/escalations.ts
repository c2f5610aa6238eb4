/**
 * Escalation marks (docs/home-layout.md#escalation-marks): one file per item the harness
 * notified the operator about, so a notice goes out at most once per item — a re-wake, a
 * recovery or a second trigger on the same item finds the mark and sends nothing.
 *
 * The mark is taken before the notice is sent, with an exclusive create, so two wakes racing
 * on one item cannot both send, and a crash between the mark and the request loses that one
 * notice rather than risk a second. It then records how the send ended. A failed send is never
 * retried (docs/operating.md#escalation): the WARNING line is its record.
 */
import { atomicWrite } from "../base/atomic_write.ts";
import { join } from "../base/paths.ts";
import { quote } from "../pycompat/quote.ts";
import { escalationsDir } from "./paths.ts";

/** How a marked notice stands. */
export type EscalationState = "sending" | "sent" | "failed";

/** The mark of `item` on `timeline`. */
export function escalationPath(home: string, timeline: string, item: string): string {
  return join(escalationsDir(home, timeline), `${quote(item)}.json`);
}

function body(reason: string, state: EscalationState, now: Date): string {
  return `${JSON.stringify({ at: now.toISOString(), reason, state })}\n`;
}

/**
 * Takes the mark for `item` (state `sending`). False when one exists already: the item was
 * escalated before (or is being escalated right now), and nothing must be sent.
 */
export async function takeEscalationMark(
  home: string,
  timeline: string,
  item: string,
  reason: string,
  now: Date = new Date(),
): Promise<boolean> {
  const path = escalationPath(home, timeline, item);
  await Deno.mkdir(escalationsDir(home, timeline), { recursive: true });
  try {
    await Deno.writeTextFile(path, body(reason, "sending", now), { createNew: true });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

/** Records how the notice for `item` ended (atomic: the mark is never torn or absent). */
export async function settleEscalationMark(
  home: string,
  timeline: string,
  item: string,
  reason: string,
  state: "sent" | "failed",
  now: Date = new Date(),
): Promise<void> {
  await atomicWrite(escalationPath(home, timeline, item), body(reason, state, now));
}
