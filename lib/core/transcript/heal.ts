/**
 * Healing a transcript a killed wake left behind. A call written to disk before it ran
 * (docs/invariants.md#3-written-before-dispatched) may have no result: sending that transcript
 * would be malformed on every later wake. Each such call gets the interrupted sentinel as its
 * result, which says the outcome is unknown and that nothing was re-run (a create is re-issued only
 * by the recovery, which finds it by this exact text).
 */
import { Message } from "../types/message.ts";
import { isOutcomeUnknown } from "../types/outcome_unknown.ts";
import { runEnd } from "../types/runs.ts";

/** The synthesized result of an interrupted call; matched by exact value, so never reworded. */
export const INTERRUPTED =
  "[Interrupted: this wake was killed while this call was running, before its result could be " +
  "recorded. Its outcome is unknown — it may have completed, completed partially, or never " +
  "started. It has NOT been re-run, because re-running it could repeat something that already " +
  "happened. If it matters here, check for yourself and decide what to do.]";

/** Whether `message` is the interrupted sentinel (a `tool` result whose content is exactly it). */
export function isInterrupted(message: Message): boolean {
  return message.role === "tool" && message.content === INTERRUPTED;
}

/**
 * Whether a create's result leaves it for the recovery to re-send under its key: the wake died
 * while it ran (the interrupted sentinel), or the platform never answered it definitely.
 */
export function awaitsReissue(message: Message): boolean {
  return isInterrupted(message) || isOutcomeUnknown(message);
}

/** What healing produced: the new list and how many sentinels it inserted. */
export interface Healed {
  readonly messages: Message[];
  readonly healed: number;
}

/**
 * Gives every assistant tool call lacking a `tool` result inside its own run a sentinel result,
 * inserted right after that run (before the next assistant turn), in call order. Returns a new list;
 * `messages` is not modified.
 */
export function healInterruptedCalls(messages: readonly Message[]): Healed {
  const out: Message[] = [];
  let healed = 0;
  let index = 0;
  while (index < messages.length) {
    const turn = messages[index];
    if (turn.role !== "assistant" || !turn.toolCalls?.length) {
      out.push(turn);
      index++;
      continue;
    }
    const end = runEnd(messages, index);
    const answered = new Set<string | undefined>();
    for (let i = index; i < end; i++) {
      out.push(messages[i]);
      if (messages[i].role === "tool") answered.add(messages[i].toolCallId);
    }
    for (const call of turn.toolCalls) {
      if (answered.has(call.id)) continue;
      out.push(Message.tool(call.id, INTERRUPTED));
      healed++;
    }
    index = end;
  }
  return { messages: out, healed };
}
