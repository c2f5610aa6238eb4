/**
 * The brief's step of a turn (docs/invariants.md#6-stable-first-volatile-last): the charter, the
 * knowledge pack and the volatile half are composed at most once per wake, and only when a turn
 * is engaged — an idle wake composes nothing and never fetches the dashboard.
 */
import type { Message } from "../../core/types/message.ts";
import { recallMemory } from "../../memory/hooks.ts";
import { startDashboardRead, type Wake } from "../wake_state.ts";
import { briefView, composeVolatile, volatileParts, withKnowledge } from "./brief.ts";

/** What composing the brief reads: the config's charter and pack, the dashboard and memory. */
export type BriefWake = Pick<
  Wake,
  | "env"
  | "brief"
  | "client"
  | "charter"
  | "knowledge"
  | "memory"
  | "context"
  | "settings"
  | "journal"
  | "engine"
>;

/**
 * The provider's view for this wake: the charter (and knowledge pack) first, the volatile half
 * before the newest user turn; `query` keys the memory recall of the first engaged turn.
 */
export async function ensureBrief(
  wake: BriefWake,
  query: string,
): Promise<(messages: readonly Message[]) => Message[]> {
  const brief = wake.brief;
  if (!brief.composed) {
    startDashboardRead(wake); // unless started already (a resumed turn comes here first)
    brief.composed = true;
    // The pack is read before the charter is kept: a pack that refuses fails the turn before
    // anything is composed (docs/context.md#the-knowledge-pack).
    brief.knowledge = await wake.knowledge();
    brief.charter = await wake.charter();
    if (wake.env.onboard) {
      const [dashboard, memory] = await Promise.all([
        brief.dashboard,
        recallMemory(wake.memory, {
          agent: wake.context.self.uuid,
          timeline: wake.settings.timeline,
          query,
        }, wake.journal),
      ]);
      const input = {
        now: new Date(),
        maxSteps: wake.env.maxSteps,
        dashboard,
        memory: memory ?? undefined,
      };
      brief.volatile = composeVolatile(input);
      brief.parts = volatileParts(input);
    }
  }
  // An explicit-cache provider gets its one breakpoint on the last frozen turn (brief.ts).
  const { provider } = await wake.engine.get();
  const lead = withKnowledge(brief.charter, brief.knowledge?.text);
  return briefView(lead, brief.volatile, provider.cacheMode);
}
