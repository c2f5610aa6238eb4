/**
 * Re-running one recorded turn (docs/records.md#what-is-re-run): a fresh transcript holding only
 * the user turn exactly as the model read it (`inbound.text`) — after the conversation it read,
 * with `--with-history` — the replay's charter first and the volatile brief's time anchor (the
 * record's `at`) and step budget before the user turn, one engine run with the replay tool set.
 * No transcript is written, no memory is recalled or observed, nothing is posted.
 */
import { errorMessage } from "../base/error_text.ts";
import { Engine } from "../core/engine.ts";
import { ToolRegistry } from "../core/registry.ts";
import { Message } from "../core/types/message.ts";
import type { Provider } from "../core/types/provider.ts";
import type { TurnRecord, TurnResult } from "../home/records/schema.ts";
import { turnResultOf } from "../home/records/mod.ts";
import type { Journal } from "../journal/journal.ts";
import { scrubSecrets } from "../journal/scrub.ts";
import { briefView, composeVolatile, withKnowledge } from "../wake/engaged/brief.ts";
import { withWorkingState } from "../wake/engaged/working_state.ts";
import type { RebuiltHistory } from "./history.ts";
import { ReplayCapture, ReplayTurnTools } from "./tools.ts";
import type { ReplayToneVerdict } from "./tone.ts";
import type { ReplaySetup } from "./setup.ts";

/** One tool call, as the diff compares them: the name and the `action`, when there is one. */
export interface CallStep {
  readonly name: string;
  readonly action?: string;
}

/** What a replayed turn did. */
export interface TurnRun {
  /** The agent's speech that passed the gate (captured, not sent), in order. */
  readonly posts: readonly string[];
  readonly calls: readonly CallStep[];
  readonly verdicts: readonly {
    verdict: "passed" | "refused";
    checks: readonly string[];
    tone?: ReplayToneVerdict;
  }[];
  /**
   * The turn in one word, as the wake's record would say it: `refused` (the model refused),
   * `escalated` (the gate's refusals closed its speaking), `truncated`, `spoke` or `silent`.
   */
  readonly result: TurnResult;
  /** The turn's closing (unspoken) text. */
  readonly narration: string;
  readonly steps: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly cachedTokens: number;
  readonly costUsd: number | null;
  /** How many calls the record answered, and how many it had nothing for. */
  readonly fromRecord: number;
  readonly notCaptured: number;
}

/** Why a record cannot be replayed, or undefined when it can. */
export function unreplayable(record: TurnRecord): string | undefined {
  if (record.content === "hashes") {
    return "content=hashes: the record keeps only sha256 digests of what the model read";
  }
  if (record.inbound?.text === undefined) {
    return "the record has no inbound text (written before turn records carried it)";
  }
  return undefined;
}

/**
 * Re-runs `record` under `setup` with `provider`; with `history`, after the conversation the turn
 * read and with its recorded recall and working-state block (docs/records.md#replaying-with-history).
 * @throws whatever the provider or engine throws (the caller reports the turn as failed).
 */
export async function runTurn(
  record: TurnRecord,
  setup: ReplaySetup,
  provider: Provider,
  journal: Journal,
  history?: RebuiltHistory,
): Promise<TurnRun> {
  const capture = new ReplayCapture();
  const answers = new ReplayTurnTools({
    record,
    checks: setup.checks,
    capture,
    tone: setup.tone?.forRecord(record),
    maxRefusals: setup.maxRefusals,
  });
  const registry = new ToolRegistry({ policy: setup.policy });
  for (const tool of setup.tools) registry.register(answers.wrap(tool));
  const engine = new Engine(provider, registry, {
    journal,
    maxSteps: setup.maxSteps,
    responseRetries: setup.responseRetries,
    imagePrep: setup.imagePrep,
  });
  const volatile = setup.onboard
    ? composeVolatile({
      now: new Date(record.at),
      maxSteps: setup.maxSteps,
      memory: history?.memory,
    })
    : undefined;
  const messages = [
    ...history?.messages ?? [],
    Message.user(record.inbound?.text ?? "", { items: record.inbound?.items }),
  ];
  const view = briefView(
    withKnowledge(setup.charter, setup.knowledge.text),
    volatile,
    provider.cacheMode,
  );
  const result = await engine.run(messages, {
    view: history?.workingState ? withWorkingState(view, history.workingState, null) : view,
  });
  return {
    posts: capture.posts.map((post) => post.text),
    calls: result.toolCalls.map((call) =>
      call.action === undefined ? { name: call.name } : { name: call.name, action: call.action }
    ),
    verdicts: capture.verdicts.map(({ verdict, checks, tone }) => ({
      verdict,
      checks,
      ...(tone && { tone }),
    })),
    result: turnResultOf({
      failed: false,
      kind: result.kind,
      escalated: answers.closed,
      spoke: capture.posts.length > 0,
    }),
    narration: result.text,
    steps: result.steps,
    tokensIn: result.usage.tokensIn,
    tokensOut: result.usage.tokensOut,
    cachedTokens: result.usage.cachedTokens,
    costUsd: result.usage.cost ?? null,
    fromRecord: capture.sources.filter((s) => s.source === "record").length,
    notCaptured: capture.sources.filter((s) => s.source === "not_captured").length,
  };
}

/** A replay failure as one scrubbed line. */
export function failureText(error: unknown): string {
  const name = error instanceof Error ? error.name : "Error";
  return scrubSecrets(`${name}: ${errorMessage(error)}`.replace(/\s+/g, " ").trim());
}
