/**
 * The context's end of a turn (docs/context.md#the-context-budget): the model's own handoff, when
 * it filed one with `summarize`, else automatic compaction while the provider's last usage still
 * describes this transcript. The wake's one compactor is built here, and each summary it writes is
 * kept in memory.
 */
import { codePointLength } from "../../base/code_points.ts";
import { namedError } from "../../base/error_text.ts";
import {
  COMPACTION_OBSERVE_TEXT,
  compactionMemoryKey,
  Compactor,
} from "../../core/compaction/compaction.ts";
import { ContextCeiling } from "../../core/compaction/context_ceiling.ts";
import type { Engine } from "../../core/engine.ts";
import type { Message } from "../../core/types/message.ts";
import { sourceOf, type Wake } from "../wake_state.ts";
import type { WakeWorkingState } from "./working_state.ts";

/** What keeping a summary needs: the memory provider, the journal, whose and which timeline. */
export type SummaryWake = Pick<Wake, "memory" | "journal" | "settings" | "context">;

/**
 * The process's one compactor (built with the engine's provider on the first engaged turn): the
 * ceiling resolves the model's limit at most once, and each summary is written to memory.
 */
export function compactorOf(
  wake: SummaryWake & Pick<Wake, "loaded" | "env">,
  engine: Engine,
): Compactor {
  const journal = wake.journal;
  wake.loaded.compactor ??= new Compactor(
    engine.provider,
    new ContextCeiling(engine.provider, {
      override: wake.env.maxContextTokens,
      maxSteps: wake.env.maxSteps,
      journal,
    }),
    {
      journal,
      onSummary: (summary) => rememberSummary(wake, summary),
      retries: engine.responseRetries,
    },
  );
  return wake.loaded.compactor;
}

/**
 * Settles the context after a turn: a filed handoff replaces the conversation before
 * `turnMessage` (found by identity) and is saved; without one, automatic compaction runs. A
 * failed handoff is a WARNING and leaves compaction to run as usual; this never throws for it.
 */
export async function settleContext(
  working: WakeWorkingState,
  compactor: Compactor,
  turn: { live: Message[]; turnMessage: Message; engine: Engine; save: () => Promise<void> },
): Promise<void> {
  const { live, turnMessage, engine, save } = turn;
  try {
    if (await working.settle(live, turnMessage, engine)) {
      await save();
      return;
    }
  } catch (error) {
    working.warn(`summarize: the handoff failed: ${namedError(error)}`);
  }
  await compactor.afterTurn(live, save);
}

/**
 * A compaction summary, kept in memory (docs/context.md#the-context-budget): a store-backed
 * provider gets it under `compaction/<source>/<UTC>`; any other is handed it through `observe`. A
 * failure throws to the compactor, which logs a WARNING and keeps the compaction.
 */
export async function rememberSummary(
  wake: SummaryWake,
  summary: string,
  now: Date = new Date(),
): Promise<void> {
  const store = wake.memory.store;
  if (store) {
    const key = compactionMemoryKey(sourceOf(wake.settings.timeline), now);
    store.write(key, summary);
    wake.journal.event("INFO", "memory", { op: "write", key, chars: codePointLength(summary) });
    return;
  }
  if (!wake.memory.observe) return;
  // Called directly (not through observeMemory) so a failure reaches the compactor's WARNING.
  await wake.memory.observe({
    user: COMPACTION_OBSERVE_TEXT,
    assistant: summary,
    scope: { agent: wake.context.self.uuid, timeline: wake.settings.timeline },
  });
  wake.journal.event("INFO", "memory", {
    op: "observe",
    source: "compaction",
    chars: codePointLength(summary),
  });
}
