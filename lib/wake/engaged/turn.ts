/**
 * Engaging one turn (docs/context.md#the-step-budget, docs/models.md#retries-and-fault-classes):
 * the user turn is persisted before the model is called, the engine runs with the brief in its
 * view (never in the transcript), and the ending becomes an outcome. The steps live beside this
 * file, each taking only the part of the wake it uses: the brief (turn_brief.ts), the measured
 * request (turn_request.ts), the context's end (turn_compaction.ts), the narration
 * (turn_narration.ts), a hand-off (hand_off.ts), a provider fault (turn_faults.ts), the
 * escalation (escalation_trigger.ts) and the record (turn_record.ts).
 */
import { namedError } from "../../base/error_text.ts";
import { withOverflowHeal } from "../../core/compaction/heal.ts";
import { EngineError, type EngineResult } from "../../core/engine.ts";
import type { Message } from "../../core/types/message.ts";
import type { TurnHook } from "../../core/turn_hook.ts";
import { StageTimer } from "../../home/records/mod.ts";
import { degraded } from "../../journal/catalogue_wake.ts";
import { budgetHooks, chargeBudget } from "../budget_gate.ts";
import type { Rebuild, RebuiltTurn, TurnOutcome, TurnSpec } from "../engaged_half.ts";
import { nudgeHook } from "../nudge.ts";
import { persist, type Wake } from "../wake_state.ts";
import { escalateIfCalledFor } from "./escalation_trigger.ts";
import { isHandOff, settleHandOff } from "./hand_off.ts";
import { ensureBrief } from "./turn_brief.ts";
import { compactorOf, settleContext } from "./turn_compaction.ts";
import { liftBillingBlock, settleFault } from "./turn_faults.ts";
import { postedBodies, settleNarration, STUCK_NOTE } from "./turn_narration.ts";
import { recordTurn, type TurnFacts } from "./turn_record.ts";
import { measuredRequest } from "./turn_request.ts";
import { workingStateOf } from "./working_state.ts";

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
 * Whatever the ending, the turn is recorded and its spend charged.
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
    outcome = await runTurn(wake, spec, { live, turnStart, save, standing }, facts);
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

/** Where a turn runs: the transcript, its user turn's index, how to save, and the rebuild check. */
interface TurnSite {
  readonly live: Message[];
  readonly turnStart: number;
  readonly save: () => Promise<void>;
  readonly standing?: (result: EngineResult) => Promise<boolean>;
}

/** The turn's steps in order: engine, brief, request, model, context, ending. */
async function runTurn(
  wake: Wake,
  spec: TurnSpec,
  site: TurnSite,
  facts: TurnFacts,
): Promise<TurnOutcome> {
  const { live, turnStart, save, standing } = site;
  const engine = await wake.engine.get(); // built by the first turn: an idle wake never does
  facts.engine = engine;
  facts.timer.lap("engine");
  const view = await ensureBrief(wake, spec.recallQuery);
  facts.timer.lap("brief");
  wake.context.beginTurn(spec.anchor, live, turnStart);
  const compactor = compactorOf(wake, engine);
  const turnMessage = live[turnStart];
  const working = workingStateOf(wake, engine, compactor);
  const [block, cold] = await Promise.all([working.block(), working.coldFilter(live, turnStart)]);
  const { view: request, onRequest, hook } = await measuredRequest(
    wake,
    { engine, view, block, cold, live, turnStart },
    facts,
  );
  const hooks: TurnHook[] = [
    // A turn whose speaking the gate closed is not nudged to speak (docs/security.md).
    nudgeHook(spec.nudge, () => wake.context.acts.length > 0 || wake.context.closed),
    // docs/operating.md#the-budget-guard: each step's spend reaches the turn's lease as it goes.
    ...await budgetHooks(wake),
    hook,
  ];
  const ended = { live, turnMessage, engine, save };
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
        onRequest,
        hooks,
        stepReminder: () => working.reminder(engine),
      });
    }, { compactor, messages: live, save, journal: wake.journal });
    facts.timer.lap("model");
  } catch (error) {
    facts.timer.lap("model");
    if (!(error instanceof EngineError)) {
      const fault = await settleFault(wake, spec, error, live, save);
      facts.kind = fault.kind;
      return fault.outcome;
    }
    facts.kind = "stuck";
    degraded(wake.journal, { timeline: wake.settings.timeline, reason: error.message });
    await settleContext(working, compactor, ended);
    facts.timer.lap("compact");
    await settleNarration(wake, spec, STUCK_NOTE, "stuck");
    return "done";
  } finally {
    wake.context.endTurn();
  }
  facts.result = result;
  facts.kind = result.kind;
  // The turn settled: the context's end now, while the provider's last usage is this transcript's.
  await settleContext(working, compactor, ended);
  facts.timer.lap("compact");
  await liftBillingBlock(wake);
  // A refusal or a cut reply is a hand-off: it stands as it is, never rebuilt or remembered.
  if (isHandOff(result)) {
    settleHandOff(wake, spec, result);
    return "done";
  }
  // A build about to be rebuilt is discarded: its narration is neither logged nor remembered.
  if (standing && !await standing(result)) return "done";
  const posts = postedBodies(live, turnMessage);
  await settleNarration(wake, spec, result.text, result.kind, posts);
  return "done";
}
