/**
 * The harness's own escalation (docs/operating.md#escalation): when `escalation.json` switches a
 * trigger on and it fires, one push notice to the operator over the direct-message channel,
 * naming the timeline, the item and the reason — never the message body, never a secret, and
 * nothing posted to the timeline. At most once per item: the mark under HARNESS_HOME is taken
 * before the request goes out, and a failed send is not tried again.
 *
 * Loaded lazily, by a turn whose trigger fired while the file switched it on: an idle wake, or a
 * wake without the file, never reads this module.
 */
import { errorMessage } from "../base/error_text.ts";
import type { EscalationReason } from "../config/escalation.ts";
import { settleEscalationMark, takeEscalationMark } from "../home/escalations.ts";
import { escalationFailed, escalationSent } from "../journal/catalogue_wake.ts";
import { registerSecret, scrubSecrets } from "../journal/scrub.ts";
import { DEFAULT_NTFY_DM_URL, type NtfyOptions, sendNtfy } from "../tools/shared/ntfy.ts";
import type { Wake } from "./wake_state.ts";

/** What fired, and on which item (the turn's anchor). */
export interface EscalationTrigger {
  readonly reason: EscalationReason;
  readonly item: string;
}

/** The one sentence each reason's notice says, after the timeline and the item. */
export const ESCALATION_SENTENCES: Readonly<Record<EscalationReason, string>> = {
  gate_refused_twice: "The outbound gate refused the agent's words as often in one turn as " +
    "guardrails.json allows (twice by default), so the turn stopped speaking and sent nothing " +
    "more. The item is settled; it will not be answered unless someone asks again.",
  model_refused: "The model refused to answer, and nothing was posted. The item is settled; " +
    "it will not be answered unless someone asks again.",
  step_budget_exhausted_unanswered: "The agent ran out of steps on an item that called for a " +
    "reply, and nothing was posted. The item is settled; it will not be answered unless " +
    "someone asks again.",
  billing_wall: "The model provider refused the call for lack of funds. The item stays pending " +
    "and is answered once the account has funds again.",
  budget_exhausted: "The agent reached a limit of budget.json and makes no model call until it " +
    "resets. Items stay pending and are answered after the reset.",
};

/** The notice's text: fixed words, the reason, the timeline and the item, scrubbed. */
export function escalationNotice(timeline: string, trigger: EscalationTrigger): string {
  return scrubSecrets(
    `Escalation: ${trigger.reason}\nTimeline: ${timeline}\nItem: ${trigger.item}\n` +
      ESCALATION_SENTENCES[trigger.reason],
  );
}

/** The notice's title: who is escalating. */
export function escalationTitle(handle: string | undefined): string {
  const bare = handle?.trim().replace(/^@/, "");
  return bare ? `BaseCradle escalation from @${bare}` : "BaseCradle escalation";
}

/**
 * Sends the notice for `trigger` unless its item was escalated before. Never throws: every
 * failure is the WARNING `escalation failed` line, and the wake goes on.
 */
export async function escalate(
  wake: Pick<Wake, "settings" | "journal" | "env" | "context">,
  trigger: EscalationTrigger,
  options: Omit<NtfyOptions, "signal"> = {},
): Promise<void> {
  const { home, timeline } = wake.settings;
  const { reason, item } = trigger;
  const failed = (why: string) =>
    escalationFailed(wake.journal, { reason, item, why: scrubSecrets(why), timeline });
  const token = wake.env.ntfyDmToken?.trim();
  if (!token) return failed("NTFY_DM_TOKEN is not set");
  registerSecret(token);
  try {
    if (!await takeEscalationMark(home, timeline, item, reason)) return;
  } catch (error) {
    // Without the mark there is no "at most once": send nothing.
    return failed(`the escalation mark could not be written: ${errorMessage(error)}`);
  }
  let state: "sent" | "failed" = "failed";
  try {
    const sent = await sendNtfy(
      { url: wake.env.ntfyDmUrl ?? DEFAULT_NTFY_DM_URL, token },
      {
        title: escalationTitle(wake.context.self.handle),
        tags: "warning",
        body: new TextEncoder().encode(escalationNotice(timeline, trigger)),
      },
      options,
    );
    if (sent.ok) {
      state = "sent";
      escalationSent(wake.journal, { reason, item, timeline });
    } else {
      failed(sent.reason);
    }
  } catch (error) {
    failed(errorMessage(error));
  }
  try {
    await settleEscalationMark(home, timeline, item, reason, state);
  } catch (error) {
    // The `sending` mark stays: still at most once.
    wake.journal.text(
      "WARNING",
      `Could not record how the escalation of item ${item} ended; it stays marked. ` +
        `(${errorMessage(error)})`,
    );
  }
}
