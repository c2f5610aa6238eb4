/**
 * The wake's Idempotency-Key bookkeeping (docs/operating.md#the-delivery-guarantee): which anchor a turn's creates hang
 * off, and each create's ordinal, computed from the live transcript so the wake that died and the
 * wake that recovers it mint the identical key. The ordinal of a create is 1 + the creates of the
 * same kind earlier in call order within the turn's work that already have a result — results are
 * paired with calls only inside their own assistant run, never by a global id lookup.
 */
import { createKind } from "../core/types/create_calls.ts";
import type { Message } from "../core/types/message.ts";
import { runResults } from "../core/types/runs.ts";
import { idempotencyKey, type KeyedKind } from "../platform/idempotency.ts";

/** Where a recorded call sits: its assistant turn's index and its position among that turn's calls. */
export interface CallPosition {
  readonly assistant: number;
  readonly call: number;
}

/**
 * The newest position of call `callId` at or after `turnStart` (providers reuse ids such as
 * `call_0` across turns, so the newest assistant turn naming it is the one being dispatched).
 */
export function findCall(
  messages: readonly Message[],
  turnStart: number,
  callId: string,
): CallPosition | undefined {
  for (let i = messages.length - 1; i >= Math.max(0, turnStart); i--) {
    const calls = messages[i].role === "assistant" ? messages[i].toolCalls : undefined;
    const index = calls?.findIndex((c) => c.id === callId) ?? -1;
    if (index >= 0) return { assistant: i, call: index };
  }
  return undefined;
}

/**
 * The ordinal of the create at `position` of `kind`: 1 + earlier creates of that kind (in call
 * order, within `messages[turnStart…]`) that already have a result in their own run. A create the
 * tool rejected still has a result, so it still consumes its ordinal.
 */
export function createOrdinal(
  messages: readonly Message[],
  turnStart: number,
  position: CallPosition,
  kind: string,
): number {
  let ordinal = 1;
  for (let i = Math.max(0, turnStart); i <= position.assistant; i++) {
    const turn = messages[i];
    if (turn.role !== "assistant" || !turn.toolCalls?.length) continue;
    const results = runResults(messages, i);
    const last = i === position.assistant ? position.call : turn.toolCalls.length;
    for (let c = 0; c < last; c++) {
      const call = turn.toolCalls[c];
      if (createKind(call) === kind && results.has(call.id)) ordinal++;
    }
  }
  return ordinal;
}

/** The turn a create belongs to: its anchor item and where its work starts in the transcript. */
export interface KeyedTurn {
  /** The engaged item (a batch's oldest message; a resumed turn's first item). */
  readonly anchor: string | undefined;
  /** Index of the turn's user message in the live transcript. */
  readonly turnStart: number;
  /** The live transcript the engine is appending to. */
  readonly messages: readonly Message[];
}

/**
 * The key for the create `callId` makes in `turn`, or undefined when the turn has no anchor. The
 * ordinal is counted now, from the transcript as it stands; only the hashing is awaited.
 */
export function keyForCall(
  timeline: string,
  turn: KeyedTurn | undefined,
  kind: KeyedKind,
  callId: string,
): Promise<string | undefined> {
  if (!turn?.anchor) return Promise.resolve(undefined);
  const position = findCall(turn.messages, turn.turnStart, callId);
  const ordinal = position ? createOrdinal(turn.messages, turn.turnStart, position, kind) : 1;
  return idempotencyKey({ timeline, anchor: turn.anchor, kind, ordinal });
}
