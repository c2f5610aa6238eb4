/**
 * Whether a turn that just ended calls for the harness's own escalation
 * (docs/operating.md#escalation), decided from what the turn already knows — so a turn with no
 * trigger, or a wake without `escalation.json`, never loads the sender.
 */
import { lazyImport } from "../../base/lazy_import.ts";
import { escalationFailed } from "../../journal/catalogue_wake.ts";
import { errorMessage } from "../../base/error_text.ts";
import type { TurnSpec } from "../engaged_half.ts";
import type { Wake } from "../wake_state.ts";

/** One trigger of `escalation.json`'s fixed vocabulary. */
type EscalationReason = Wake["escalation"]["on"][number];

/** What the turn came to, as the trigger rules read it. */
export interface TurnEnding {
  /**
   * How it ended: `narration`, `reserve`, `stuck`, `refused`, `truncated`, `billing` or a
   * permanent reason.
   */
  readonly kind?: string;
  /**
   * Whether the gate's refusals closed the turn's speaking (`max_refusals_per_turn` reached:
   * the wake context's `closed`).
   */
  readonly closed: boolean;
  /** Whether a message or an image reached the timeline in the turn. */
  readonly posted: boolean;
  /** Whether the item called for a reply (the turn was armed for the no-reply nudge). */
  readonly calledForReply: boolean;
}

/**
 * The reason a turn escalates for, or undefined. The first that holds wins: the billing wall,
 * the model's refusal, the gate's last allowed refusal (the turn's speaking closed, whatever it
 * posted before), then a spent step budget on an item that called for a reply and got none.
 */
export function escalationReason(ending: TurnEnding): EscalationReason | undefined {
  if (ending.kind === "billing") return "billing_wall";
  if (ending.kind === "refused") return "model_refused";
  if (ending.closed) return "gate_refused_twice";
  if (ending.posted) return undefined;
  const spent = ending.kind === "reserve" || ending.kind === "stuck";
  return spent && ending.calledForReply ? "step_budget_exhausted_unanswered" : undefined;
}

/**
 * After a turn: escalates when `escalation.json` switched the turn's reason on, and answers the
 * reason it escalated for (the turn record's `escalation_reason`). Never throws, so an
 * escalation problem can never change the turn's outcome.
 */
export async function escalateIfCalledFor(
  wake: Pick<Wake, "escalation" | "settings" | "journal" | "env" | "context">,
  spec: TurnSpec,
  kind: string | undefined,
): Promise<EscalationReason | undefined> {
  const on = wake.escalation.on;
  if (on.length === 0) return undefined;
  const acts = wake.context.acts;
  const reason = escalationReason({
    kind,
    closed: wake.context.closed,
    posted: acts.includes("message") || acts.includes("post_image"),
    calledForReply: spec.nudge !== undefined,
  });
  if (!reason || !on.includes(reason)) return undefined;
  const item = spec.anchor ?? spec.itemLabel.split(",")[0];
  if (!item) return undefined;
  try {
    const { escalate } = await lazyImport<typeof import("../escalation.ts")>(
      "lib/wake/escalation.ts",
    );
    await escalate(wake, { reason, item });
  } catch (error) {
    escalationFailed(wake.journal, {
      reason,
      item,
      why: errorMessage(error),
      timeline: wake.settings.timeline,
    });
  }
  return reason;
}
