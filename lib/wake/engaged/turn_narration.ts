/**
 * A turn's closing text (docs/context.md#the-step-budget): never posted — it is logged as
 * `unspoken` and handed to memory with what the agent said aloud in the turn, so the exchange is
 * remembered as it happened.
 */
import type { Message } from "../../core/types/message.ts";
import { unspoken, type UnspokenKind } from "../../journal/catalogue_engine.ts";
import { observeMemory } from "../../memory/hooks.ts";
import type { TurnSpec } from "../engaged_half.ts";
import type { Wake } from "../wake_state.ts";

/** The narration substituted when the reserve summary failed: nothing is posted. */
export const STUCK_NOTE = "I got stuck working through that and stopped before reaching an answer.";

/** What settling a narration needs: the journal, the memory provider, whose and which timeline. */
export type NarrationWake = Pick<Wake, "journal" | "memory" | "settings" | "context">;

/** Logs the turn's final text as unspoken and hands the exchange (and its posts) to memory. */
export async function settleNarration(
  wake: NarrationWake,
  spec: TurnSpec,
  text: string,
  kind: UnspokenKind,
  posts?: readonly string[],
): Promise<void> {
  const timeline = wake.settings.timeline;
  unspoken(wake.journal, { timeline, kind, text });
  await observeMemory(wake.memory, {
    user: spec.text,
    assistant: text,
    posts,
    scope: { agent: wake.context.self.uuid, timeline },
  }, wake.journal);
}

/**
 * The bodies of the `messages` creates the model called from the turn's user message on, so
 * memory keeps what the agent said aloud beside its closing text. A body the gate redacted is
 * already the redacted text (the gate rewrites the call's own arguments).
 */
export function postedBodies(live: readonly Message[], turnMessage: Message): string[] {
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
