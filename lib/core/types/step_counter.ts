/**
 * The step counter and the reserve nudge: the fixed texts the engine appends as `system` turns
 * (the time and `Step N of M.` before each model call; the nudge once the steps are spent).
 * Writer and reader live together so the wording and its recognizer never drift.
 */
import type { Message } from "./message.ts";

/** The per-turn step budget when none is given (`HARNESS_MAX_STEPS`'s default). */
export const DEFAULT_MAX_STEPS = 24;

/** How every step counter opens. */
export const STEP_COUNTER_HEADER = "Current Time: ";
/** The fixed part of the counter line; only a step counter carries it after the header. */
export const STEP_COUNTER_MARKER = "\n\nStep ";
/** At or below this many steps remaining (counting the current one) the counter warns. */
export const LOW_STEPS: number = 5;

/** The nudge appended before the one tool-less call made once the step budget is spent. */
export const RESERVE_NUDGE: string =
  "You've reached the step limit for this turn. Write an honest " +
  "progress report: what you completed, what remains, and what the next turn should do. This " +
  "is your last text of the turn and it is unspoken — it goes to your log and your memory, not " +
  "to any timeline — so if a peer is waiting on something, that had to be posted with the " +
  "`messages` tool. Wrap up in plain text.";

/** The warning appended (leading space included) in the final stretch of the steps. */
export function lowStepsWarning(maxSteps: number): string {
  return " Steps are running low. Prioritize the most important remaining actions — including " +
    "anything you still mean to say on a timeline, which means calling the `messages` tool — " +
    "summarize progress cleanly, and if work remains, schedule a follow-up task before you run " +
    `out. Step ${maxSteps} is your final action step — end it with plain text to finish ` +
    "cleanly. Never ignore the step counter; treat it as a hard constraint.";
}

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function utcStamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace("T", " ");
}

/**
 * The counter appended before model call `step` of `maxSteps`:
 * `Current Time: <stamp> UTC\n\nStep N of M.` plus the warning when ≤5 steps remain.
 */
export function stepCounter(step: number, maxSteps: number, at: Date): string {
  const counter = `${STEP_COUNTER_HEADER}${
    utcStamp(at)
  } UTC${STEP_COUNTER_MARKER}${step} of ${maxSteps}.`;
  const remaining = maxSteps - step + 1;
  return remaining <= LOW_STEPS ? counter + lowStepsWarning(maxSteps) : counter;
}

/** Whether `message` is a step counter (the attribution's `steps` section). */
export function isStepCounter(message: Message): boolean {
  const content = message.content ?? "";
  return message.role === "system" && content.startsWith(STEP_COUNTER_HEADER) &&
    content.includes(STEP_COUNTER_MARKER);
}
