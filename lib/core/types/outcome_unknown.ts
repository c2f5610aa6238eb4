/**
 * What a keyed create's tool result says when the platform gave it no definite answer: the model
 * must not send it again (it may have gone through), and the harness settles it by re-sending it
 * under the same Idempotency-Key on the next wake. Like the interrupted sentinel, it is matched by
 * exact value — the recovery finds the calls to re-send by it — so it is never reworded.
 */
import type { Message } from "./message.ts";

/** The result of a create whose outcome is unknown. */
export const OUTCOME_UNKNOWN =
  "[Outcome unknown: the platform gave no definite answer to this create, even after the " +
  "harness re-sent it under the same replay-safe key. It may well have gone through. Do NOT send " +
  "it again: the harness settles it on its next wake by re-sending it under that same key, which " +
  "can never make a duplicate. Carry on as if it was sent.]";

/** Whether `message` is a tool result saying {@link OUTCOME_UNKNOWN}. */
export function isOutcomeUnknown(message: Message): boolean {
  return message.role === "tool" && message.content === OUTCOME_UNKNOWN;
}
