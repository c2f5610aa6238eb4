/**
 * Engaging one turn (docs/context.md#the-step-budget, docs/models.md#retries-and-fault-classes): the user turn is persisted before the model is called,
 * the engine runs with the brief in its view (never in the transcript), the final text is logged
 * as `unspoken` and observed by memory, and the provider faults a wake reports are turned into a
 * report and a disposition instead of a crash.
 */
import { errorMessage, namedError } from "../../base/error_text.ts";
import { ContextCeiling } from "../../core/compaction/context_ceiling.ts";
import {
  COMPACTION_OBSERVE_TEXT,
  compactionMemoryKey,
  Compactor,
} from "../../core/compaction/compaction.ts";
import { withOverflowHeal } from "../../core/compaction/heal.ts";
import { codePointLength } from "../../base/code_points.ts";
import { type Engine, EngineError, type EngineResult } from "../../core/engine.ts";
import {
  ProviderBillingError,
  ProviderContextLengthError,
  ProviderPayloadTooLargeError,
} from "../../core/types/faults.ts";
import { Message } from "../../core/types/message.ts";
import type { TurnHook } from "../../core/turn_hook.ts";
import { contextAttribution } from "../../journal/catalogue_context.ts";
import { unspoken, type UnspokenKind } from "../../journal/catalogue_engine.ts";
import { StageTimer } from "../../home/records/mod.ts";
import {
  billingBlocked,
  billingOnset,
  billingRecovered,
  degraded,
  permanentFailure,
  type PermanentReason,
} from "../../journal/catalogue_wake.ts";
import { observeMemory, recallMemory } from "../../memory/hooks.ts";
import { anatomyOf, firstCallHook, observeFirstRequest } from "./anatomy.ts";
import { attribute } from "./attribution.ts";
import { escalateIfCalledFor } from "./escalation_trigger.ts";
import { isHandOff, settleHandOff } from "./hand_off.ts";
import { briefView, composeVolatile, volatileParts, withKnowledge } from "./brief.ts";
import { nudgeHook } from "../nudge.ts";
import { budgetHooks, chargeBudget } from "../budget_gate.ts";
import { postReport } from "../post.ts";
import { billingReport, permanentReport, verbatim } from "../reports.ts";
import { clearBillingBlocked, isBillingBlocked, markBillingBlocked } from "../../home/billing.ts";
import { persist, sourceOf, startDashboardRead, type Wake } from "../wake_state.ts";
import { type WakeWorkingState, withWorkingState, workingStateOf } from "./working_state.ts";
import { turnContext } from "./turn_context.ts";
import type { Rebuild, RebuiltTurn, TurnOutcome, TurnSpec } from "../engaged_half.ts";
import { recordTurn, type TurnFacts } from "./turn_record.ts";

/** The narration substituted when the reserve summary failed: nothing is posted. */
export const STUCK_NOTE = "I got stuck working through that and stopped before reaching an answer.";

/**
 * Appends the user turn, persists it, and drives it to an outcome. With `rebuild`, a build that
 * ran no tool (and was not compacted) is re-checked: when new peers arrived, the transcript is
 * rolled back to before the build (persisted) and the turn rebuilt with the enlarged batch.
 */
export async function engage(
  wake: Wake,
  spec: TurnSpec,
  turn: Message,
  rebuild?: Rebuild,
): Promise<TurnOutcome> {
  const turnStart = wake.messages.length;
  for (let builds = 1;; builds++) {
    wake.messages.push(turn);
    await persist(wake); // the user turn reaches disk before the model sees it
    let next: RebuiltTurn | undefined;
    const built = turn;
    const standing = rebuild && builds < rebuild.maxBuilds
      ? async (result: EngineResult) => {
        if (result.toolCalls.length) return true; // its effects are real: never rebuilt
        // A code run is paid and was bridged to assets: never run again by a rebuild.
        if (wake.messages.slice(turnStart).some((m) => m.codeRun)) return true;
        // Compaction moved or shortened the transcript: the build stands.
        if (wake.messages.length <= turnStart || wake.messages[turnStart] !== built) return true;
        next = await rebuild.check();
        return next === undefined;
      }
      : undefined;
    const outcome = await drive(
      wake,
      spec,
      wake.messages,
      turnStart,
      () => persist(wake),
      standing,
      builds > 1,
    );
    if (!next) return outcome;
    wake.messages.length = turnStart; // back to before the build
    await persist(wake);
    ({ spec, turn } = next);
  }
}

/**
 * Runs the engine over `live` (the transcript, or a resumed turn's head) from `turnStart`, and
 * turns the ending into an outcome. Unexpected errors leave a failure marker and propagate.
 * `standing`, when given, is asked once the build settled: false discards it (no narration).
 */
export async function drive(
  wake: Wake,
  spec: TurnSpec,
  live: Message[],
  turnStart: number,
  save: () => Promise<void>,
  standing?: (result: EngineResult) => Promise<boolean>,
  regenerated = false,
): Promise<TurnOutcome> {
  const facts: TurnFacts = { timer: new StageTimer(), live, turnStart, regenerated };
  let outcome: TurnOutcome | undefined;
  const unknownBefore = wake.context.unknownOutcomes;
  try {
    outcome = await driveTurn(wake, spec, live, turnStart, save, facts, standing);
    if (outcome === "done" && wake.context.unknownOutcomes > unknownBefore) outcome = "unsettled";
    facts.escalated = await escalateIfCalledFor(wake, spec, facts.kind); // docs/operating.md#escalation
    facts.timer.lap("escalate");
    return outcome;
  } catch (error) {
    facts.error = namedError(error);
    throw error;
  } finally {
    await recordTurn(wake, spec, outcome, facts);
    await chargeBudget(wake, facts.result?.usage); // docs/operating.md#the-budget-guard
  }
}

async function driveTurn(
  wake: Wake,
  spec: TurnSpec,
  live: Message[],
  turnStart: number,
  save: () => Promise<void>,
  facts: TurnFacts,
  standing?: (result: EngineResult) => Promise<boolean>,
): Promise<TurnOutcome> {
  const engine = await wake.engine.get(); // built by the first turn: an idle wake never does
  facts.engine = engine;
  facts.timer.lap("engine");
  const view = await ensureBrief(wake, spec.recallQuery);
  facts.timer.lap("brief");
  wake.context.beginTurn(spec.anchor, live, turnStart);
  // A turn whose speaking the gate closed is not nudged to speak (docs/security.md).
  const hooks: TurnHook[] = [
    nudgeHook(spec.nudge, () => wake.context.acts.length > 0 || wake.context.closed),
    // docs/operating.md#the-budget-guard: each step's spend reaches the turn's lease as it goes.
    ...await budgetHooks(wake),
  ];
  const compactor = compactorOf(wake, engine);
  const turnMessage = live[turnStart];
  const working = workingStateOf(wake, engine, compactor);
  const [block, cold] = await Promise.all([working.block(), working.coldFilter(live, turnStart)]);
  // The first request's anatomy is read off the request the engine actually sends.
  const request = observeFirstRequest(withWorkingState(view, block, cold), async (sent) => {
    facts.anatomy = await anatomyOf({
      sent,
      tools: engine.registry.specs(),
      lead: [["charter", wake.brief.charter], ["knowledge", wake.brief.knowledge?.text]],
      volatile: wake.brief.volatile
        ? { text: wake.brief.volatile, parts: wake.brief.parts ?? [] }
        : undefined,
      block,
    });
  });
  hooks.push(firstCallHook((usage) => facts.firstCall = usage));
  facts.history = await turnContext(wake, live, turnStart, block);
  // What the first request of this turn carries, measured from the request itself.
  contextAttribution(
    wake.journal,
    attribute({
      source: sourceOf(wake.settings.timeline),
      sent: await request(live),
      transcript: cold ? cold.apply(live) : live,
      briefParts: [
        ["charter", wake.brief.charter ?? ""],
        ["knowledge", wake.brief.knowledge?.text ?? ""],
        ...(wake.brief.parts ?? []),
        ["working_state", block ?? ""],
      ],
      tools: engine.registry.specs(),
    }),
  );
  let result: EngineResult;
  try {
    result = await withOverflowHeal((attempt) => {
      if (attempt > 1) {
        // The emergency compaction moved the turn: find its start again by identity.
        const at = live.indexOf(turnMessage);
        wake.context.moveTurn(at < 0 ? 0 : at);
      }
      return engine.run(live, {
        persist: save,
        view: request,
        hooks,
        stepReminder: () => working.reminder(engine),
      });
    }, { compactor, messages: live, save, journal: wake.journal });
    facts.timer.lap("model");
  } catch (error) {
    facts.timer.lap("model");
    if (error instanceof EngineError) {
      facts.kind = "stuck";
      degraded(wake.journal, { timeline: wake.settings.timeline, reason: error.message });
      if (await settleWorkingState(working, live, turnMessage, engine, save)) {
        facts.timer.lap("compact");
      } else await compactor.afterTurn(live, save);
      await settleNarration(wake, spec, STUCK_NOTE, "stuck");
      return "done";
    }
    if (error instanceof ProviderBillingError) {
      facts.kind = "billing";
      await reportBilling(wake, error);
      return "billing";
    }
    const permanent = permanentReason(error);
    if (permanent) {
      facts.kind = permanent;
      await markFailed(wake, live, error, save);
      await reportPermanent(wake, spec, permanent, error);
      return "permanent";
    }
    await markFailed(wake, live, error, save);
    throw error;
  } finally {
    wake.context.endTurn();
  }
  facts.result = result;
  facts.kind = result.kind;
  // The turn settled: the model's own handoff, if it filed one, else compaction now, while the
  // provider's last usage is this transcript's own.
  if (!await settleWorkingState(working, live, turnMessage, engine, save)) {
    await compactor.afterTurn(live, save);
  }
  facts.timer.lap("compact");
  if (await isBillingBlocked(wake.settings.home, wake.settings.timeline)) {
    await clearBillingBlocked(wake.settings.home, wake.settings.timeline);
    billingRecovered(wake.journal, {
      timeline: wake.settings.timeline,
      delivery: wake.env.deliveryId,
    });
  }
  // A refusal or a cut reply is a hand-off: it stands as it is, never rebuilt or remembered.
  if (isHandOff(result)) {
    settleHandOff(wake, spec, result);
    return "done";
  }
  // A build about to be rebuilt is discarded: its narration is neither logged nor remembered.
  if (standing && !await standing(result)) return "done";
  await settleNarration(wake, spec, result.text, result.kind, postedBodies(live, turnMessage));
  return "done";
}

/**
 * The working state's end of a turn: the response stamp, and a filed handoff applied and saved.
 * True when the handoff replaced the conversation (automatic compaction then has nothing to do).
 * Never throws: a failed handoff is a WARNING and the transcript stays as it was.
 */
async function settleWorkingState(
  working: WakeWorkingState,
  live: Message[],
  turnMessage: Message,
  engine: Engine,
  save: () => Promise<void>,
): Promise<boolean> {
  try {
    if (!await working.settle(live, turnMessage, engine)) return false;
    await save();
    return true;
  } catch (error) {
    working.warn(`summarize: the handoff failed: ${namedError(error)}`);
    return false;
  }
}

/**
 * The process's one compactor (built with the engine's provider on the first engaged turn): the
 * ceiling resolves the model's limit at most once, and each summary is written to memory.
 */
function compactorOf(wake: Wake, engine: Engine): Compactor {
  const journal = wake.journal;
  wake.loaded.compactor ??= new Compactor(
    engine.provider,
    new ContextCeiling(engine.provider, {
      override: wake.env.maxContextTokens,
      maxSteps: wake.env.maxSteps,
      journal,
    }),
    {
      journal,
      onSummary: (summary) => rememberSummary(wake, summary),
      retries: engine.responseRetries,
    },
  );
  return wake.loaded.compactor;
}

/**
 * A compaction summary, kept in memory (docs/context.md#the-context-budget): a store-backed provider gets it under
 * `compaction/<source>/<UTC>`; any other is handed it through `observe`. A failure throws to the
 * compactor, which logs a WARNING and keeps the compaction.
 */
export async function rememberSummary(
  wake: Wake,
  summary: string,
  now: Date = new Date(),
): Promise<void> {
  const store = wake.memory.store;
  if (store) {
    const key = compactionMemoryKey(sourceOf(wake.settings.timeline), now);
    store.write(key, summary);
    wake.journal.event("INFO", "memory", { op: "write", key, chars: codePointLength(summary) });
    return;
  }
  if (!wake.memory.observe) return;
  // Called directly (not through observeMemory) so a failure reaches the compactor's WARNING.
  await wake.memory.observe({
    user: COMPACTION_OBSERVE_TEXT,
    assistant: summary,
    scope: { agent: wake.context.self.uuid, timeline: wake.settings.timeline },
  });
  wake.journal.event("INFO", "memory", {
    op: "observe",
    source: "compaction",
    chars: codePointLength(summary),
  });
}

/** Logs the turn's final text as unspoken and hands the exchange (and its posts) to memory. */
async function settleNarration(
  wake: Wake,
  spec: TurnSpec,
  text: string,
  kind: UnspokenKind,
  posts?: readonly string[],
): Promise<void> {
  unspoken(wake.journal, { timeline: wake.settings.timeline, kind, text });
  await observeMemory(wake.memory, {
    user: spec.text,
    assistant: text,
    posts,
    scope: { agent: wake.context.self.uuid, timeline: wake.settings.timeline },
  }, wake.journal);
}

/**
 * The bodies of the `messages` creates the model called from the turn's user message on, so
 * memory keeps what the agent said aloud beside its closing text. A body the gate redacted is
 * already the redacted text (the gate rewrites the call's own arguments).
 */
function postedBodies(live: readonly Message[], turnMessage: Message): string[] {
  const from = Math.max(0, live.indexOf(turnMessage));
  const bodies: string[] = [];
  for (const message of live.slice(from)) {
    for (const call of message.toolCalls ?? []) {
      const { action, body } = call.arguments;
      if (call.name === "messages" && action === "create" && typeof body === "string") {
        bodies.push(body);
      }
    }
  }
  return bodies;
}

/**
 * The provider's view for this wake: the charter first, the volatile half before the newest user
 * turn. Composed at most once per wake, and only when a turn is engaged — an idle wake composes
 * nothing and never fetches the dashboard.
 */
async function ensureBrief(wake: Wake, query: string) {
  const brief = wake.brief;
  if (!brief.composed) {
    startDashboardRead(wake); // unless started already (a resumed turn comes here first)
    brief.composed = true;
    // The pack is read before the charter is kept: a pack that refuses fails the turn before
    // anything is composed (docs/context.md#the-knowledge-pack).
    brief.knowledge = await wake.knowledge();
    brief.charter = await wake.charter();
    if (wake.env.onboard) {
      const [dashboard, memory] = await Promise.all([
        wake.brief.dashboard,
        recallMemory(wake.memory, {
          agent: wake.context.self.uuid,
          timeline: wake.settings.timeline,
          query,
        }, wake.journal),
      ]);
      const input = {
        now: new Date(),
        maxSteps: wake.env.maxSteps,
        dashboard,
        memory: memory ?? undefined,
      };
      brief.volatile = composeVolatile(input);
      brief.parts = volatileParts(input);
    }
  }
  // An explicit-cache provider gets its one breakpoint on the last frozen turn (brief.ts).
  const { provider } = await wake.engine.get();
  const lead = withKnowledge(brief.charter, brief.knowledge?.text);
  return briefView(lead, brief.volatile, provider.cacheMode);
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
  const message = errorMessage(error);
  live.push(Message.system(`[turn failed: ${name} — ${message}]`));
  try {
    await save();
  } catch (saveError) {
    const why = errorMessage(saveError);
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
    provider: wake.env.aiProvider,
    item: spec.itemLabel,
    timeline: wake.settings.timeline,
    delivery: wake.env.deliveryId,
  });
  const body = permanentReport(reason, spec.report, wake.env.aiProvider, verbatim(error));
  await postReport(wake, body);
}

async function reportBilling(wake: Wake, error: ProviderBillingError): Promise<void> {
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
