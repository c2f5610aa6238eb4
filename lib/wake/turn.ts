/**
 * Engaging one turn (contracts §6.7–§6.9): the user turn is persisted before the model is called,
 * the engine runs with the brief in its view (never in the transcript), the final text is logged
 * as `unspoken` and observed by memory, and the provider faults a wake reports are turned into a
 * report and a disposition instead of a crash.
 */
import { EngineError, type EngineResult } from "../core/engine.ts";
import {
  ProviderBillingError,
  ProviderContextLengthError,
  ProviderPayloadTooLargeError,
} from "../core/faults.ts";
import { Message } from "../core/message.ts";
import { unspoken } from "../journal/catalogue_engine.ts";
import {
  billingBlocked,
  billingOnset,
  billingRecovered,
  degraded,
  permanentFailure,
  type PermanentReason,
} from "../journal/catalogue_wake.ts";
import { observeMemory, recallMemory } from "../memory/hooks.ts";
import { briefView, composeVolatile } from "./brief.ts";
import { nudgeHook, type NudgeReason } from "./nudge.ts";
import { postReport } from "./post.ts";
import { billingReport, permanentReport, type ReportedItem, verbatim } from "./reports.ts";
import { clearBillingBlocked, isBillingBlocked, markBillingBlocked } from "./state/billing.ts";
import { persist, type Wake } from "./wake_state.ts";

/** The narration substituted when the reserve summary failed: nothing is posted. */
export const STUCK_NOTE = "I got stuck working through that and stopped before reaching an answer.";

/** How a turn ended, for the item's disposition. */
export type TurnOutcome =
  /** The turn settled (spoken, silent, reserve or stuck): commit the item. */
  | "done"
  /** A permanent rejection was reported: commit the item, never re-drive it. */
  | "permanent"
  /** Out of funds: the item stays pending and the rest of the wake makes no model call. */
  | "billing";

/** What a turn is about. */
export interface TurnSpec {
  /** The user turn's text (or, on a resume, the resumed turn's content). */
  readonly text: string;
  /** The Idempotency-Key anchor. */
  readonly anchor: string | undefined;
  /** The item uuid(s) for report lines. */
  readonly itemLabel: string;
  /** What the report would call the item. */
  readonly report: ReportedItem;
  /** Whether this turn is armed for the no-reply nudge. */
  readonly nudge: NudgeReason | undefined;
  /** The text memory recall is keyed on (first engaged turn only). */
  readonly recallQuery: string;
}

/** Appends the user turn, persists it, and drives it to an outcome. */
export async function engage(
  wake: Wake,
  spec: TurnSpec,
  turn: Message,
): Promise<TurnOutcome> {
  const turnStart = wake.messages.length;
  wake.messages.push(turn);
  await persist(wake); // the user turn reaches disk before the model sees it
  return await drive(wake, spec, wake.messages, turnStart, () => persist(wake));
}

/**
 * Runs the engine over `live` (the transcript, or a resumed turn's head) from `turnStart`, and
 * turns the ending into an outcome. Unexpected errors leave a failure marker and propagate.
 */
export async function drive(
  wake: Wake,
  spec: TurnSpec,
  live: Message[],
  turnStart: number,
  save: () => Promise<void>,
): Promise<TurnOutcome> {
  const engine = await wake.engine.get(); // built by the first turn: an idle wake never does
  const view = await ensureBrief(wake, spec.recallQuery);
  wake.context.beginTurn(spec.anchor, live, turnStart);
  const hook = nudgeHook(spec.nudge, () => wake.context.acts.length > 0);
  let result: EngineResult;
  try {
    result = await engine.run(live, { persist: save, view, hooks: [hook] });
  } catch (error) {
    if (error instanceof EngineError) {
      degraded(wake.journal, { timeline: wake.settings.timeline, reason: error.message });
      await settleNarration(wake, spec, STUCK_NOTE, "stuck");
      return "done";
    }
    if (error instanceof ProviderBillingError) {
      await reportBilling(wake, error);
      return "billing";
    }
    const permanent = permanentReason(error);
    if (permanent) {
      await markFailed(wake, live, error, save);
      await reportPermanent(wake, spec, permanent, error);
      return "permanent";
    }
    await markFailed(wake, live, error, save);
    throw error;
  } finally {
    wake.context.endTurn();
  }
  if (await isBillingBlocked(wake.settings.home, wake.settings.timeline)) {
    await clearBillingBlocked(wake.settings.home, wake.settings.timeline);
    billingRecovered(wake.journal, {
      timeline: wake.settings.timeline,
      delivery: wake.settings.delivery,
    });
  }
  await settleNarration(wake, spec, result.text, result.kind);
  return "done";
}

/** Logs the turn's final text as unspoken and hands the exchange to memory. */
async function settleNarration(
  wake: Wake,
  spec: TurnSpec,
  text: string,
  kind: "narration" | "reserve" | "stuck",
): Promise<void> {
  unspoken(wake.journal, { timeline: wake.settings.timeline, kind, text });
  await observeMemory(wake.memory, {
    user: spec.text,
    assistant: text,
    scope: { agent: wake.context.self.uuid, timeline: wake.settings.timeline },
  }, wake.journal);
}

/**
 * The provider's view for this wake: the charter first, the volatile half before the newest user
 * turn. Composed at most once per wake, and only when a turn is engaged — an idle wake composes
 * nothing and never fetches the dashboard.
 */
async function ensureBrief(wake: Wake, query: string) {
  const brief = wake.brief;
  if (!brief.composed) {
    brief.composed = true;
    brief.charter = await wake.charter();
    if (wake.settings.onboard) {
      const [dashboard, memory] = await Promise.all([
        wake.client.users.dashboardMarkdown().then((t) => t.trim(), () => undefined),
        recallMemory(wake.memory, {
          agent: wake.context.self.uuid,
          timeline: wake.settings.timeline,
          query,
        }, wake.journal),
      ]);
      brief.volatile = composeVolatile({
        now: new Date(),
        maxSteps: wake.settings.maxSteps,
        dashboard,
        memory: memory ?? undefined,
      });
    }
  }
  return briefView(brief.charter, brief.volatile);
}

function permanentReason(error: unknown): PermanentReason | undefined {
  if (error instanceof ProviderPayloadTooLargeError) return "payload_too_large";
  if (error instanceof ProviderContextLengthError) return "context_length";
  return undefined;
}

/** The `[turn failed: <Type> — <message>]` marker, so the transcript says what happened. */
async function markFailed(
  wake: Wake,
  live: Message[],
  error: unknown,
  save: () => Promise<void>,
): Promise<void> {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  live.push(Message.system(`[turn failed: ${name} — ${message}]`));
  try {
    await save();
  } catch (saveError) {
    const why = saveError instanceof Error ? saveError.message : String(saveError);
    // Logged, not thrown: the turn's own failure is the one the caller must see.
    wake.journal.text(
      "ERROR",
      `Could not persist the transcript of a turn that was already failing: ${why}`,
    );
  }
}

async function reportPermanent(
  wake: Wake,
  spec: TurnSpec,
  reason: PermanentReason,
  error: unknown,
): Promise<void> {
  permanentFailure(wake.journal, {
    reason,
    provider: wake.settings.provider,
    item: spec.itemLabel,
    timeline: wake.settings.timeline,
    delivery: wake.settings.delivery,
  });
  const body = permanentReport(reason, spec.report, wake.settings.provider, verbatim(error));
  await postReport(wake, body);
}

async function reportBilling(wake: Wake, error: ProviderBillingError): Promise<void> {
  wake.billingWall = true;
  const { home, timeline, provider, delivery } = wake.settings;
  if (await isBillingBlocked(home, timeline)) {
    billingBlocked(wake.journal, { provider, timeline, delivery });
    return;
  }
  billingOnset(wake.journal, { provider, timeline, delivery });
  if (await postReport(wake, billingReport(provider, verbatim(error)))) {
    await markBillingBlocked(home, timeline);
  }
}

export { postAs, postReport } from "./post.ts";
