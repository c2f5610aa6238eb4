/**
 * A turn the provider failed (docs/models.md#retries-and-fault-classes): out of funds, a request
 * the provider will never accept, or a fault the wake cannot name. Each leaves the transcript a
 * `[turn failed: …]` marker or the timeline a report, so a failure is said once and never
 * retried blindly; the billing block it sets is cleared by the next turn that gets through.
 */
import { errorMessage } from "../../base/error_text.ts";
import {
  ProviderBillingError,
  ProviderContextLengthError,
  ProviderPayloadTooLargeError,
} from "../../core/types/faults.ts";
import { Message } from "../../core/types/message.ts";
import {
  billingBlocked,
  billingOnset,
  billingRecovered,
  permanentFailure,
  type PermanentReason,
} from "../../journal/catalogue_wake.ts";
import { clearBillingBlocked, isBillingBlocked, markBillingBlocked } from "../../home/billing.ts";
import type { TurnSpec } from "../engaged_half.ts";
import { postReport, type ReportingWake } from "../post.ts";
import { billingReport, permanentReport, verbatim } from "../reports.ts";
import type { Wake } from "../wake_state.ts";

/** What a fault needs of the wake: where to write, what to post through, the billing wall. */
export type FaultWake = ReportingWake & Pick<Wake, "env" | "billingWall">;

/** A fault the turn reported and settled, and the record's word for it. */
export interface SettledFault {
  readonly outcome: "billing" | "permanent";
  /** `billing`, or the permanent reason (the turn record's `outcome_kind`). */
  readonly kind: string;
}

/**
 * Settles a provider fault: billing raises the wall and reports once per block; a permanent
 * rejection marks the transcript and reports; anything else marks the transcript and is thrown
 * again, for the caller to fail the wake with.
 */
export async function settleFault(
  wake: FaultWake,
  spec: TurnSpec,
  error: unknown,
  live: Message[],
  save: () => Promise<void>,
): Promise<SettledFault> {
  if (error instanceof ProviderBillingError) {
    await reportBilling(wake, error);
    return { outcome: "billing", kind: "billing" };
  }
  const permanent = permanentReason(error);
  await markFailed(wake, live, error, save);
  if (!permanent) throw error;
  await reportPermanent(wake, spec, permanent, error);
  return { outcome: "permanent", kind: permanent };
}

/** After a turn the provider answered: a billing block this timeline carried is lifted. */
export async function liftBillingBlock(
  wake: Pick<Wake, "settings" | "journal" | "env">,
): Promise<void> {
  const { home, timeline } = wake.settings;
  if (!await isBillingBlocked(home, timeline)) return;
  await clearBillingBlocked(home, timeline);
  billingRecovered(wake.journal, { timeline, delivery: wake.env.deliveryId });
}

function permanentReason(error: unknown): PermanentReason | undefined {
  if (error instanceof ProviderPayloadTooLargeError) return "payload_too_large";
  if (error instanceof ProviderContextLengthError) return "context_length";
  return undefined;
}

/** The `[turn failed: <Type> — <message>]` marker, so the transcript says what happened. */
async function markFailed(
  wake: Pick<Wake, "journal">,
  live: Message[],
  error: unknown,
  save: () => Promise<void>,
): Promise<void> {
  const name = error instanceof Error ? error.name : "Error";
  live.push(Message.system(`[turn failed: ${name} — ${errorMessage(error)}]`));
  try {
    await save();
  } catch (saveError) {
    // Logged, not thrown: the turn's own failure is the one the caller must see.
    wake.journal.text(
      "ERROR",
      `Could not persist the transcript of a turn that was already failing: ${
        errorMessage(saveError)
      }`,
    );
  }
}

async function reportPermanent(
  wake: FaultWake,
  spec: TurnSpec,
  reason: PermanentReason,
  error: unknown,
): Promise<void> {
  permanentFailure(wake.journal, {
    reason,
    provider: wake.env.aiProvider,
    item: spec.itemLabel,
    timeline: wake.settings.timeline,
    delivery: wake.env.deliveryId,
  });
  const body = permanentReport(reason, spec.report, wake.env.aiProvider, verbatim(error));
  await postReport(wake, body);
}

async function reportBilling(wake: FaultWake, error: ProviderBillingError): Promise<void> {
  wake.billingWall = true;
  const { home, timeline } = wake.settings;
  const { aiProvider: provider, deliveryId: delivery } = wake.env;
  if (await isBillingBlocked(home, timeline)) {
    billingBlocked(wake.journal, { provider, timeline, delivery });
    return;
  }
  billingOnset(wake.journal, { provider, timeline, delivery });
  if (await postReport(wake, billingReport(provider, verbatim(error)))) {
    await markBillingBlocked(home, timeline);
  }
}
