/**
 * Turn hooks: how a host (the wake) observes each engine step and, when a turn is about to end,
 * appends its own turns and extends the turn. The engine stays ignorant of *why* — the no-reply
 * nudge and the code-execution bridge are the host's business, injected like the provider.
 */
import type { ToolRun } from "./dispatch.ts";
import type { Message } from "./types/message.ts";

/** What a hook sees after one step has run (reply appended, its tools dispatched). */
export interface StepContext {
  /** 1-based step number. */
  readonly step: number;
  /** The run's step budget. */
  readonly maxSteps: number;
  /** The assistant turn this step produced. */
  readonly reply: Message;
  /** The tool calls this step ran, in order. */
  readonly toolRuns: readonly ToolRun[];
  /** The live transcript (read-only view; use `append` to add turns). */
  readonly messages: readonly Message[];
  /** Appends a turn to the transcript; the engine persists it before the next model call. */
  append(message: Message): void;
}

/** A host's view into the loop. Both methods are optional. */
export interface TurnHook {
  /** Called after every step, in hook order. May append turns; cannot end or extend the turn. */
  afterStep?(context: StepContext): void | Promise<void>;
  /**
   * Called when the step's reply carried no tool calls, i.e. the turn is about to end. Return
   * `true` after appending a turn to run one more step (still within the step budget). Hooks are
   * asked in order and the first `true` wins: a turn that was extended is not ending, so later
   * hooks have no premise to act on.
   */
  beforeFinish?(context: StepContext): boolean | Promise<boolean>;
}

/**
 * A hook that appends one `system` turn and extends the turn, at most once in its lifetime —
 * the shape of the wake's no-reply nudge (docs/context.md#speech-and-the-no-reply-nudge). `compose`
 * returns the nudge text when the nudge is armed for this ending, or `undefined` to let the turn
 * end. Create one per turn.
 */
export function nudgeOnce(compose: (context: StepContext) => string | undefined): TurnHook {
  let spent = false;
  return {
    beforeFinish(context) {
      if (spent) return false;
      const text = compose(context);
      if (!text) return false;
      spent = true;
      context.append({ role: "system", content: text });
      return true;
    },
  };
}
