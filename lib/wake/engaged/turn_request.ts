/**
 * The turn's first request, measured (docs/records.md#the-request-anatomy): the request view with
 * the working state in it, and the first request observed as the engine sends it, so the turn
 * record gets its anatomy and the first call's usage, and the `context attribution` line is
 * written from the request itself.
 */
import type { Engine } from "../../core/engine.ts";
import type { ColdStartFilter } from "../../core/idle_filter.ts";
import type { Message } from "../../core/types/message.ts";
import type { TurnHook } from "../../core/turn_hook.ts";
import { contextAttribution } from "../../journal/catalogue_context.ts";
import { sourceOf, type Wake } from "../wake_state.ts";
import { anatomyOf, firstCallHook } from "./anatomy.ts";
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

/** What the engine run is given to build and observe the turn's requests. */
export interface MeasuredRequest {
  /** The request view: the brief's, with the working state in it. */
  readonly view: RequestView;
  /** Sees each request as sent; the first one is measured. */
  readonly onRequest: (sent: readonly Message[]) => Promise<void>;
  /** Reads the first call's usage. */
  readonly hook: TurnHook;
}

/**
 * The turn's request view, and the observers that measure its first request as the provider is
 * sent it (images prepared): they fill `facts` with what the record keeps of the request and
 * write the `context attribution` line, before the first call is made.
 */
export async function measuredRequest(
  wake: Pick<Wake, "brief" | "journal" | "settings">,
  parts: RequestParts,
  facts: TurnFacts,
): Promise<MeasuredRequest> {
  const { engine, block, cold, live, turnStart } = parts;
  const brief = wake.brief;
  facts.history = await turnContext(wake, live, turnStart, block);
  let measured = false;
  const onRequest = async (sent: readonly Message[]) => {
    if (measured) return;
    measured = true;
    const tools = engine.registry.specs();
    facts.anatomy = await anatomyOf({
      sent,
      tools,
      lead: [["charter", brief.charter], ["knowledge", brief.knowledge?.text]],
      volatile: brief.volatile ? { text: brief.volatile, parts: brief.parts ?? [] } : undefined,
      block,
    });
    contextAttribution(
      wake.journal,
      attribute({
        source: sourceOf(wake.settings.timeline),
        sent,
        transcript: cold ? cold.apply(live) : live,
        briefParts: [
          ["charter", brief.charter ?? ""],
          ["knowledge", brief.knowledge?.text ?? ""],
          ...(brief.parts ?? []),
          ["working_state", block ?? ""],
        ],
        tools,
      }),
    );
  };
  return {
    view: withWorkingState(parts.view, block, cold),
    onRequest,
    hook: firstCallHook((usage) => facts.firstCall = usage),
  };
}
