/**
 * The wake's own posts — probe acks and failure reports — through the gate. Kept apart from the
 * turn runner so an idle wake that acks a probe does not load the engine.
 */
import { errorMessage } from "../base/error_text.ts";
import { postFailed } from "../journal/catalogue_wake.ts";
import { GateRefusal } from "../gate/refusal.ts";
import { PlatformError } from "../platform/mod.ts";
import type { Wake } from "./wake_state.ts";

/** What posting the wake's own message needs: the gate, the timeline, the journal, the count. */
export type ReportingWake = Pick<Wake, "context" | "settings" | "journal" | "posts">;

/** Posts a report through the gate (unkeyed). True when it went out. */
export async function postReport(wake: ReportingWake, body: string): Promise<boolean> {
  return await postAs(wake, body, "failure-report");
}

/** Posts the wake's own message (ack or report) through the gate; failures are logged plainly. */
export async function postAs(
  wake: ReportingWake,
  body: string,
  kind: "failure-report" | "probe-ack",
): Promise<boolean> {
  try {
    await wake.context.gate.post({ timeline: wake.settings.timeline, body, kind });
    wake.posts++;
    return true;
  } catch (error) {
    if (!(error instanceof PlatformError) && !(error instanceof GateRefusal)) throw error;
    postFailed(wake.journal, {
      timeline: wake.settings.timeline,
      kind,
      error: errorMessage(error),
    });
    return false;
  }
}
