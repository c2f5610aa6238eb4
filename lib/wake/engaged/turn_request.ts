/**
 * The turn's first request, measured (docs/records.md#the-request-anatomy): the request view with
 * the working state in it, observed so the turn record gets the first request's anatomy and the
 * first call's usage, and the `context attribution` line written from the request itself.
 */
import type { Engine } from "../../core/engine.ts";
import type { ColdStartFilter } from "../../core/idle_filter.ts";
import type { Message } from "../../core/types/message.ts";
import type { TurnHook } from "../../core/turn_hook.ts";
import { contextAttribution } from "../../journal/catalogue_context.ts";
import { sourceOf, type Wake } from "../wake_state.ts";
import { anatomyOf, firstCallHook, observeFirstRequest } from "./anatomy.ts";
import { attribute } from "./attribution.ts";
import type { TurnFacts } from "./turn_record.ts";
import { turnContext } from "./turn_context.ts";
import { withWorkingState } from "./working_state.ts";

/** A request view: the transcript in, what the provider is sent out. */
export type RequestView = (messages: readonly Message[]) => Promise<readonly Message[]>;

/** What a turn's request is made of, beside the wake: the brief's view and the working state. */
export interface RequestParts {
  readonly engine: Engine;
  /** The brief's view (lib/wake/engaged/turn_brief.ts). */
  readonly view: (messages: readonly Message[]) => readonly Message[];
  /** The working-state block, when there is one. */
  readonly block: string | undefined;
  /** The cold-start filter, when the wake decided for it. */
  readonly cold: ColdStartFilter | null;
  readonly live: readonly Message[];
  readonly turnStart: number;
}

/**
 * The turn's request view and the hook that reads the first call's usage. It fills `facts` with
 * what the record keeps of the request, and writes the `context attribution` line.
 */
export async function measuredRequest(
  wake: Pick<Wake, "brief" | "journal" | "settings">,
  parts: RequestParts,
  facts: TurnFacts,
): Promise<{ request: RequestView; hook: TurnHook }> {
  const { engine, block, cold, live, turnStart } = parts;
  const brief = wake.brief;
  // The first request's anatomy is read off the request the engine actually sends.
  const request = observeFirstRequest(withWorkingState(parts.view, block, cold), async (sent) => {
    facts.anatomy = await anatomyOf({
      sent,
      tools: engine.registry.specs(),
      lead: [["charter", brief.charter], ["knowledge", brief.knowledge?.text]],
      volatile: brief.volatile ? { text: brief.volatile, parts: brief.parts ?? [] } : undefined,
      block,
    });
  });
  const hook = firstCallHook((usage) => facts.firstCall = usage);
  facts.history = await turnContext(wake, live, turnStart, block);
  // What the first request of this turn carries, measured from the request itself.
  contextAttribution(
    wake.journal,
    attribute({
      source: sourceOf(wake.settings.timeline),
      sent: await request(live),
      transcript: cold ? cold.apply(live) : live,
      briefParts: [
        ["charter", brief.charter ?? ""],
        ["knowledge", brief.knowledge?.text ?? ""],
        ...(brief.parts ?? []),
        ["working_state", block ?? ""],
      ],
      tools: engine.registry.specs(),
    }),
  );
  return { request, hook };
}
