/**
 * The no-reply informer (docs/context.md#speech-and-the-no-reply-nudge): a turn that was addressed to the agent and is about to
 * end with nothing visible done gets ONE system line saying so — and naming the `messages` tool,
 * because text written here reaches no one. It informs, it never forces.
 */
import { nudgeOnce, type TurnHook } from "../core/turn_hook.ts";

/** Opening of the mention nudge. */
export const MENTION_NUDGE_HEAD =
  "You were mentioned by name in what you just read, and this turn is about to end with " +
  "nothing posted, shared, or done on the timeline.";

/** Opening of the one-on-one nudge. */
export const ONE_ON_ONE_NUDGE_HEAD =
  "You are the only other party in this conversation, and this turn is about to end with " +
  "nothing posted, shared, or done on the timeline.";

/** The shared tail (leading space included). Never implies anyone reads the log. */
export const NUDGE_TAIL = " That may be exactly right — silence is a legitimate choice, and no " +
  "one will force you out of it. If the silence is deliberate, leave your reason in your " +
  "unspoken text — for the record and for your own memory; no one is waiting on it. If it is " +
  "not deliberate, act now — speaking means calling the `messages` tool; text written here " +
  "reaches no one.";

/** Why a turn is armed: the agent's handle was in it, or it is a 1-on-1 counterpart message. */
export type NudgeReason = "mention" | "one-on-one";

/** The full nudge text for `reason`. */
export function nudgeText(reason: NudgeReason): string {
  return (reason === "mention" ? MENTION_NUDGE_HEAD : ONE_ON_ONE_NUDGE_HEAD) + NUDGE_TAIL;
}

/**
 * Whether `text` mentions `@handle`: case-insensitive, not glued to a handle-ish character on
 * either side (so `@bob` does not fire inside `@bobby` or `x@bob`).
 */
export function mentions(text: string, handle: string): boolean {
  const bare = handle.replace(/^@/, "");
  if (!bare) return false;
  const escaped = bare.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![A-Za-z0-9_-])@${escaped}(?![A-Za-z0-9_-])`, "i").test(text);
}

/**
 * Whether the timeline is a one-on-one: its viewers (participants ∪ owner) are exactly the agent
 * and one other. Fixed at wake time.
 */
export function isOneOnOne(viewers: Iterable<string>, self: string): boolean {
  const set = new Set(viewers);
  return set.size === 2 && set.has(self);
}

/** Which nudge (if any) a turn is armed with; mention wins when both hold. */
export function armedReason(input: {
  readonly text: string;
  readonly handle: string;
  /** One-on-one timeline AND the turn is a batch holding a counterpart's message. */
  readonly counterpartOnOneOnOne: boolean;
}): NudgeReason | undefined {
  if (mentions(input.text, input.handle)) return "mention";
  return input.counterpartOnOneOnOne ? "one-on-one" : undefined;
}

/**
 * The turn hook: when armed and the reply ends with no visible act since arming, append one nudge
 * and extend the turn. `acted` reads the wake's visible-act tally for this turn.
 */
export function nudgeHook(reason: NudgeReason | undefined, acted: () => boolean): TurnHook {
  return nudgeOnce(() => (reason && !acted() ? nudgeText(reason) : undefined));
}
