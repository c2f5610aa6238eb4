/**
 * The "run" of an assistant turn: the messages after it up to the next assistant turn. Its tool
 * results live there (step counters and injected turns may sit among them). Results are paired with
 * calls only inside their own run, never by a global `tool_call_id` lookup, because providers
 * reuse ids such as `call_0` on every turn.
 */
import type { Message } from "./message.ts";

/** Index of the next assistant turn after `assistant`, or `messages.length`. */
export function runEnd(messages: readonly Message[], assistant: number): number {
  let index = assistant + 1;
  while (index < messages.length && messages[index].role !== "assistant") index++;
  return index;
}

/** The `tool` results inside `messages[assistant]`'s run, by `toolCallId` (a later one wins). */
export function runResults(messages: readonly Message[], assistant: number): Map<string, Message> {
  const results = new Map<string, Message>();
  const end = runEnd(messages, assistant);
  for (let i = assistant + 1; i < end; i++) {
    const message = messages[i];
    if (message.role === "tool" && message.toolCallId !== undefined) {
      results.set(message.toolCallId, message);
    }
  }
  return results;
}

/**
 * The index of `callId`'s result inside `messages[assistant]`'s run, or -1; the same result
 * {@link runResults} picks (a later one wins).
 */
export function runResultIndex(
  messages: readonly Message[],
  assistant: number,
  callId: string,
): number {
  for (let i = runEnd(messages, assistant) - 1; i > assistant; i--) {
    if (messages[i].role === "tool" && messages[i].toolCallId === callId) return i;
  }
  return -1;
}
