/**
 * Working state in an engaged wake (docs/context.md#working-state-notes-tasks-and-handoff): the
 * notes tools and `summarize` registered on the wake's engine, the working-state block at each
 * user-input boundary, the handoff reminder in the step counters, the handoff applied when a turn
 * settles, and the cold-start filter. Everything here runs on the engaged half only; an idle wake
 * loads none of it.
 *
 * The injection into the request is {@link withWorkingState}, one function kept apart from the
 * brief's own composition, so other volatile parts can be added beside it.
 */
import { namedError } from "../../base/error_text.ts";
import { ColdStartFilter, isColdStart } from "../../core/idle_filter.ts";
import type { Compactor } from "../../core/compaction/compaction.ts";
import type { Engine } from "../../core/engine.ts";
import type { Message } from "../../core/types/message.ts";
import { WorkingStateStore } from "../../home/working_state.ts";
import { coldStart } from "../../journal/catalogue_context.ts";
import { workingStateTools } from "../../runtime/tool_set.ts";
import type { Wake } from "../wake_state.ts";
import { newestUserTurn } from "./brief.ts";
import {
  type BlockTask,
  composeWorkingState,
  DEFAULT_BLOCK_LIMITS,
} from "./working_state_block.ts";

/** The share of the context budget past which each step counter reminds the model of `summarize`. */
export const HANDOFF_REMINDER_AT = 0.65;

/** The line added to the step counter once the last call's input crossed {@link HANDOFF_REMINDER_AT}. */
export const HANDOFF_REMINDER: string =
  "Context: your last request used more than 65% of your context budget. At a natural break, " +
  "reconcile your notes (note_write, note_delete) and call summarize to hand the conversation " +
  "to your future self, before automatic compaction does it for you.";

/** The most pending tasks one listing reads (the block shows at most its own bound of them). */
const TASK_READ_LIMIT = 1000;

/** What summarize filed, waiting for the turn to settle. */
interface PendingHandoff {
  readonly text: string;
}

/** What the working state reads of the wake: the timeline, its tasks, the cold-start knob, the journal. */
export type WorkingStateWake = Pick<Wake, "settings" | "env" | "journal" | "client">;

/** One wake's working state; see {@link workingStateOf}. */
export class WakeWorkingState {
  /** The timeline's notes and response stamp. */
  readonly store: WorkingStateStore;
  readonly #wake: WorkingStateWake;
  readonly #compactor: Compactor;
  #pending: PendingHandoff | undefined;
  /** The wake's cold-start decision: `null` once decided against, a filter once decided for. */
  #cold: ColdStartFilter | null | undefined;
  readonly #now: () => Date;

  constructor(wake: WorkingStateWake, compactor: Compactor, now: () => Date = () => new Date()) {
    this.#wake = wake;
    this.#compactor = compactor;
    this.#now = now;
    this.store = new WorkingStateStore(wake.settings.home, wake.settings.timeline);
  }

  /** A WARNING on the wake's journal. */
  warn(text: string): void {
    this.#wake.journal.text("WARNING", text);
  }

  /** The summarize tool's desk: files the handoff for the end of the turn. */
  accept(handoff: { narrative: string; nextStep: string; reconciled: readonly string[] }): string {
    const parts = [handoff.narrative, `Next step: ${handoff.nextStep}`];
    if (handoff.reconciled.length) {
      parts.push(
        `Notes reconciled before this handoff: ${handoff.reconciled.join(", ")} (the current ` +
          "notes are shown with each new input; note_get reads them).",
      );
    }
    this.#pending = { text: parts.join("\n\n") };
    return "Handoff accepted. When this turn ends, the conversation before it is replaced by " +
      "your summary; this turn stays as it is, and your notes are shown again with the next " +
      "input. Finish the turn as you meant to.";
  }

  /**
   * The block for this user-input boundary: the notes, then the timeline's pending tasks. A
   * failed read costs its part and a WARNING, never the turn.
   */
  async block(): Promise<string | undefined> {
    const { client, settings, journal } = this.#wake;
    const [notes, tasks] = await Promise.all([
      this.store.notes().catch((error) => {
        journal.text("WARNING", `Could not read this timeline's notes: ${namedError(error)}`);
        return [] as [string, string][];
      }),
      client.tasks.list({ timeline: settings.timeline, status: "pending", limit: TASK_READ_LIMIT })
        .toArray()
        .then((list) =>
          list.map((task): BlockTask => ({
            uuid: task.content.uuid,
            activateAt: task.content.activate_at,
            instructions: task.content.instructions,
          }))
        )
        .catch((error) => {
          journal.text(
            "WARNING",
            `Could not list this timeline's pending tasks for the working-state block: ${
              namedError(error)
            }`,
          );
          return [] as BlockTask[];
        }),
    ]);
    return composeWorkingState(notes, tasks, DEFAULT_BLOCK_LIMITS);
  }

  /**
   * The cold-start filter for this wake, decided at its first engaged turn: the tool results
   * before `turnStart`, when the latest model response on the timeline is older than the idle
   * interval; otherwise none. Logs `cold_start` when it shortens anything.
   */
  async coldFilter(live: readonly Message[], turnStart: number): Promise<ColdStartFilter | null> {
    if (this.#cold !== undefined) return this.#cold;
    this.#cold = null;
    const threshold = this.#wake.env.coldStartIdleSeconds;
    if (threshold <= 0) return null;
    let last: Date | undefined;
    try {
      last = await this.store.lastResponseAt();
    } catch (error) {
      this.#wake.journal.text("WARNING", `Could not read the working state: ${namedError(error)}`);
      return null;
    }
    const idle = last === undefined
      ? undefined
      : Math.max(0, (this.#now().getTime() - last.getTime()) / 1000);
    if (!isColdStart(idle, threshold)) return null;
    const filter = new ColdStartFilter(live, turnStart);
    if (!filter.tally.shortened) return null;
    coldStart(this.#wake.journal, { ...filter.tally, idleSeconds: Math.round(idle!) });
    this.#cold = filter;
    return filter;
  }

  /** The step-counter reminder, once the last call (this wake's, else the stored one) crossed 65%. */
  async reminder(engine: Engine): Promise<string | undefined> {
    let tokensIn = engine.provider.lastTokensIn ?? undefined;
    if (typeof tokensIn !== "number") {
      tokensIn = await this.store.lastTokensIn().catch(() => undefined);
    }
    const crossed = await this.#compactor.ceiling.crossed(tokensIn, HANDOFF_REMINDER_AT);
    return crossed ? HANDOFF_REMINDER : undefined;
  }

  /**
   * After the turn settled: the stamp of the latest response, then a filed handoff applied —
   * everything between the charter and `turnMessage` (this turn's user turn, found by identity)
   * replaced by it. Returns whether the transcript changed (the caller saves then).
   */
  async settle(live: Message[], turnMessage: Message, engine: Engine): Promise<boolean> {
    const tokensIn = engine.provider.lastTokensIn;
    try {
      await this.store.markResponse(
        this.#now(),
        typeof tokensIn === "number" ? tokensIn : undefined,
      );
    } catch (error) {
      this.#wake.journal.text(
        "WARNING",
        `Could not record the latest response in the working state: ${namedError(error)}`,
      );
    }
    const pending = this.#pending;
    this.#pending = undefined;
    if (!pending) return false;
    const cut = live.indexOf(turnMessage);
    const replaced = await this.#compactor.handoff(live, cut, pending.text);
    if (!replaced) {
      this.#wake.journal.text(
        "WARNING",
        "summarize: nothing before this turn to hand off, or compaction is off; the transcript " +
          "is unchanged.",
      );
    }
    return replaced;
  }
}

const states = new WeakMap<WorkingStateWake, WakeWorkingState>();

/**
 * The wake's working state, made by its first engaged turn: the notes tools, and `summarize`
 * unless compaction is switched off, are registered on `engine` then.
 */
export function workingStateOf(
  wake: WorkingStateWake,
  engine: Engine,
  compactor: Compactor,
): WakeWorkingState {
  let state = states.get(wake);
  if (!state) {
    state = new WakeWorkingState(wake, compactor);
    const desk = compactor.enabled ? state : undefined;
    for (const tool of workingStateTools(state.store, desk)) {
      if (!engine.registry.names().includes(tool.name)) engine.registry.register(tool);
    }
    states.set(wake, state);
  }
  return state;
}

/**
 * The request view with the working state in it: the cold-start filter (when the wake decided
 * for it) applied to the transcript first, then `block` as its own `system` turn right before
 * the newest real user turn — after the volatile brief, never in the cached prefix. Without a
 * block and a filter the view is `view` itself.
 */
export function withWorkingState(
  view: (messages: readonly Message[]) => readonly Message[] | Promise<readonly Message[]>,
  block: string | undefined,
  cold: ColdStartFilter | null,
): (messages: readonly Message[]) => Promise<readonly Message[]> {
  return async (messages) => {
    const built = [...await view(cold ? cold.apply(messages) : messages)];
    if (!block) return built;
    const at = newestUserTurn(built);
    built.splice(at < 0 ? built.length : at, 0, { role: "system", content: block });
    return built;
  };
}
