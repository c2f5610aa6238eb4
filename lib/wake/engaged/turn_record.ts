/**
 * The turn's record (docs/records.md): what a turn gathered while it ran — the engine's result,
 * the outcome, the stage timings, the first request's anatomy — written as one line of the
 * timeline's chain, and, while request capture is on, the first request's text beside it.
 */
import { namedError } from "../../base/error_text.ts";
import type { Engine, EngineResult, ToolCallRecord } from "../../core/engine.ts";
import type { Message } from "../../core/types/message.ts";
import {
  appendTurnRecord,
  type StageTimer,
  type TurnResult,
  turnResultOf,
} from "../../home/records/mod.ts";
import { writeCapture } from "../../home/request_capture.ts";
import type { TurnOutcome, TurnSpec } from "../engaged_half.ts";
import type { Wake } from "../wake_state.ts";
import type { turnContext } from "./turn_context.ts";
import type { AnatomyPart } from "./anatomy.ts";

/** What the turn record is made of, gathered while the turn runs. */
export interface TurnFacts {
  readonly timer: StageTimer;
  engine?: Engine;
  result?: EngineResult;
  /** `narration`, `reserve`, `stuck`, `billing` or a permanent reason. */
  kind?: string;
  error?: string;
  /** The transcript the turn ran over and where its user turn sits (for the tool texts). */
  readonly live: readonly Message[];
  readonly turnStart: number;
  /** Whether this build replaced a discarded one. */
  readonly regenerated: boolean;
  /** The escalation reason, when the turn escalated. */
  escalated?: string;
  /** The first request's parts (docs/records.md#the-request-anatomy), once it was built. */
  anatomy?: readonly AnatomyPart[];
  /** The first model call's usage counters, when the provider reported any. */
  firstCall?: Record<string, number>;
  /** What the model read around the user turn (lib/wake/engaged/turn_context.ts). */
  history?: Awaited<ReturnType<typeof turnContext>>;
}

/** What a turn's record reads of the wake: its settings, configs, brief, gate and journal. */
export type RecordingWake = Pick<
  Wake,
  "settings" | "env" | "brief" | "records" | "context" | "journal"
>;

/**
 * Appends the turn's record — the chain `harness records verify` checks — and, with
 * `HARNESS_CAPTURE_REQUESTS` on, the first request's text beside it. A record (or capture) that
 * cannot be written is a WARNING: a lost record never fails the turn it describes.
 */
export async function recordTurn(
  wake: RecordingWake,
  spec: TurnSpec,
  outcome: TurnOutcome | undefined,
  facts: TurnFacts,
): Promise<void> {
  const { settings, env } = wake;
  const recordId = crypto.randomUUID();
  const items = spec.itemLabel.split(",").filter((uuid) => uuid);
  try {
    const result = facts.result;
    await appendTurnRecord(settings.home, {
      timeline: settings.timeline,
      wakeId: settings.wakeId,
      deliveryId: env.deliveryId,
      recordId,
      triggers: items.map((uuid) => ({ uuid, kind: spec.report.kind })),
      provider: env.aiProvider,
      model: settings.model,
      prompt: wake.brief.charter,
      knowledgeSha256: wake.brief.knowledge?.sha256,
      config: {
        provider: env.aiProvider,
        sdk: env.aiSdk,
        surface: env.aiSdkSurface,
        model: settings.model,
        tools: facts.engine?.registry.names() ?? [],
      },
      toolCalls: persistedCalls(result?.toolCalls ?? [], facts.live.slice(facts.turnStart)),
      outcome: outcome === undefined
        ? "error"
        : outcome === "done" || outcome === "unsettled"
        ? "ok"
        : "reported",
      outcomeKind: facts.kind,
      error: outcome === undefined ? facts.error : undefined,
      steps: result?.steps ?? 0,
      latencyMs: facts.timer.latency(),
      usage: result?.usage ?? { calls: 0, tokensIn: 0, tokensOut: 0, cachedTokens: 0 },
      content: wake.records.content,
      inbound: { items, text: spec.text },
      outbound: wake.context.outbound,
      history: facts.history,
      gateVerdicts: wake.context.verdicts,
      regenerated: facts.regenerated,
      result: turnResult(wake, outcome, facts),
      escalationReason: facts.escalated,
      toolManifest: facts.engine?.registry.specs(),
      context: facts.anatomy && {
        parts: facts.anatomy.map(({ name, chars, sha256, messages }) => ({
          name,
          chars,
          sha256,
          messages,
        })),
        first_call: facts.firstCall,
      },
    });
  } catch (error) {
    const why = namedError(error);
    wake.journal.text("WARNING", `Could not append the turn record; continuing. (${why})`);
    return;
  }
  if (!env.captureRequests || !facts.anatomy) return;
  try {
    await writeCapture(settings.home, {
      recordId,
      timeline: settings.timeline,
      wakeId: settings.wakeId,
      parts: facts.anatomy,
    });
  } catch (error) {
    const why = namedError(error);
    wake.journal.text("WARNING", `Could not keep the request's text beside its record. (${why})`);
  }
}

/** The turn in one word (docs/records.md#fields), from what the wake saw of it. */
function turnResult(
  wake: Pick<Wake, "context">,
  outcome: TurnOutcome | undefined,
  facts: TurnFacts,
): TurnResult {
  const acts = wake.context.acts;
  return turnResultOf({
    failed: outcome === undefined || outcome === "billing" || outcome === "permanent",
    kind: facts.kind,
    escalated: Boolean(facts.escalated) || wake.context.closed,
    spoke: acts.includes("message") || acts.includes("post_image"),
  });
}

/**
 * The engine's tool calls with their arguments and results as the transcript persisted them
 * (matched by call id; a call compaction already folded away keeps only its name and outcome).
 */
function persistedCalls(calls: readonly ToolCallRecord[], turn: readonly Message[]) {
  const args = new Map<string, unknown>();
  const results = new Map<string, string>();
  for (const message of turn) {
    for (const call of message.toolCalls ?? []) args.set(call.id, call.arguments);
    if (message.role === "tool" && message.toolCallId !== undefined) {
      results.set(message.toolCallId, message.content ?? "");
    }
  }
  return calls.map((call) => ({
    name: call.name,
    outcome: call.outcome,
    action: call.action,
    callId: call.callId,
    arguments: args.get(call.callId),
    result: results.get(call.callId),
  }));
}
