/**
 * Appending a turn record (the API the wake calls once per engaged turn). Under an exclusive
 * lock on the chain file, the writer finds the last valid record, seals the new one onto it
 * (`seq`, `prev_hash`, `record_hash`), appends it as one line with one write call on an
 * `O_APPEND` descriptor, fsyncs, moves the head file (atomic replace) to it, and names it once more
 * in the box's witness log (lib/home/records/witness.ts).
 *
 * Concurrency: per-timeline wakes are serialised by the router, and the lock (`flock`) makes two
 * writers on one box take turns anyway, so the chain stays linear. A writer that does not take
 * the lock (another tool, a filesystem without `flock`) can fork the chain; the verifier then
 * names the second record of the fork (`fork`).
 *
 * A corrupt tail (a torn append after a crash, a garbage line, an edited last record) is never
 * chained onto: the new record chains onto the last valid one and carries `recovered_from`
 * (what was stepped over, with its sha256). A torn fragment is first terminated with a newline
 * in the same write, so it stays on a line of its own where the verifier reports it.
 */
import { atomicWrite } from "../../base/atomic_write.ts";
import { errorMessage } from "../../base/error_text.ts";
import { openLocked } from "../../base/locked_file.ts";
import { scrubSecrets } from "../../journal/scrub.ts";
import {
  canonicalHashAsync,
  canonicalJson,
  GENESIS_HASH,
  recordHashAsync,
  sha256HexAsync,
} from "./canonical.ts";
import { readAnchor } from "./anchor.ts";
import { anchorPath, chainPath, headPath, recordsDir } from "./files.ts";
import {
  type ContextAnatomy,
  type Outcome,
  RECORD_VERSION,
  type ToolCallOutcome,
  type TurnRecord,
  TurnRecordSchema,
  type TurnResult,
} from "./schema.ts";
import { readTail } from "./tail.ts";
import { appendWitness } from "./witness.ts";

/** A tool call as the engine reports it (`ToolCallRecord` fits; extra fields are ignored). */
export interface ToolCallInput {
  readonly name: string;
  readonly outcome: ToolCallOutcome;
  /** The call's `action` argument, when the tool takes one (the engine records it). */
  readonly action?: string;
  /** The provider's call id. */
  readonly callId?: string;
  /** The call's arguments as persisted (encoded canonically, then capped or hashed). */
  readonly arguments?: unknown;
  /** The result text as persisted (capped or hashed). */
  readonly result?: string;
}

/** Characters kept of each tool call's arguments and result (docs/records.md#fields). */
export const TOOL_TEXT_CAP = 4000;

/** A text the turn read or posted. */
export interface PostInput {
  readonly uuid: string;
  readonly kind: string;
  readonly text: string;
}

/** One gate decision. */
export interface VerdictInput {
  readonly kind: string;
  readonly verdict: "passed" | "refused";
  readonly checks: readonly string[];
  /** The tone check's verdict on this post, when one ran. */
  readonly tone?: ToneVerdictInput;
}

/** A tone verdict as the gate gives it (lib/gate/tone.ts `ToneVerdict` fits). */
export interface ToneVerdictInput {
  readonly passed: boolean;
  readonly reason: string;
  readonly model: string;
  readonly bodySha256: string;
  readonly instructionSha256: string;
  readonly error?: "failed" | "unparseable";
}

/**
 * The conversation before the turn, measured on the transcript's own bytes, and the recall and
 * working-state texts as they were sent (absent: none was sent).
 */
export interface ContextInput {
  readonly history: {
    readonly messages: number;
    readonly turns: number;
    readonly bytes: number;
    readonly sha256: string;
  };
  readonly memory?: string;
  readonly workingState?: string;
}

/** Usage as the engine sums it (`UsageTotals` fits). */
export interface UsageInput {
  readonly calls?: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly cachedTokens: number;
  /** Written to the prompt cache; left out of the record when no call reported it. */
  readonly cacheWriteTokens?: number;
  readonly cost?: number;
}

/** Milliseconds per stage; `total` is required (see {@link StageTimer}). */
export type LatencyInput = Readonly<Record<string, number>> & { readonly total: number };

/** What the wake knows about a finished turn; the writer adds the chain fields and hashes. */
export interface TurnRecordInput {
  readonly timeline: string;
  /** The transcript key; defaults to `timeline:<timeline>`. */
  readonly source?: string;
  /** One id per wake process, shared by the records of its turns. */
  readonly wakeId: string;
  readonly deliveryId?: string;
  /** Defaults to a random uuid. */
  readonly recordId?: string;
  /** The platform items the turn answered. */
  readonly triggers: readonly { readonly uuid: string; readonly kind: string }[];
  readonly provider: string;
  readonly model: string;
  /** The charter text the turn ran under; hashed, never stored. Absent: `prompt_hash` null. */
  readonly prompt?: string;
  /** sha256 hex of the knowledge pack the turn ran with; absent when none was read. */
  readonly knowledgeSha256?: string;
  /** The resolved config (any JSON value); hashed canonically, never stored. */
  readonly config: unknown;
  readonly toolCalls: readonly ToolCallInput[];
  readonly outcome: Outcome;
  readonly outcomeKind?: string;
  /** Scrubbed of secrets before it is stored. */
  readonly error?: string;
  /** Model steps used; defaults to 0. */
  readonly steps?: number;
  readonly latencyMs: LatencyInput;
  readonly usage: UsageInput;
  /** `full` (default) stores the texts; `hashes` stores their sha256 instead. */
  readonly content?: "full" | "hashes";
  /** The user turn as the model read it, and the items it rendered. */
  readonly inbound?: { readonly items: readonly string[]; readonly text: string };
  /** Posts that reached the timeline during the turn. */
  readonly outbound?: readonly PostInput[];
  /** What the model read around the user turn (see {@link ContextInput}). */
  readonly history?: ContextInput;
  readonly gateVerdicts?: readonly VerdictInput[];
  readonly regenerated?: boolean;
  readonly result?: TurnResult;
  readonly escalationReason?: string;
  /** The tool specs the model was offered (any JSON value); hashed canonically, never stored. */
  readonly toolManifest?: unknown;
  /** The first request's anatomy (docs/records.md#the-request-anatomy), stored as given. */
  readonly context?: ContextAnatomy;
}

/** Knobs for tests. */
export interface AppendOptions {
  /** The record's `at` clock. */
  readonly now?: () => Date;
}

const encoder = new TextEncoder();

/**
 * Appends one turn record to `$HARNESS_HOME/records/<quote(timeline)>.jsonl` and returns it as
 * stored. Throws (writing nothing) when the input does not make a valid record; the caller
 * should log and carry on — a lost record must not fail the turn it describes.
 */
export async function appendTurnRecord(
  home: string,
  input: TurnRecordInput,
  options: AppendOptions = {},
): Promise<TurnRecord> {
  const draft = draftOf(input, (options.now ?? (() => new Date()))(), {
    prompt: input.prompt === undefined ? null : await sha256HexAsync(input.prompt),
    config: await canonicalHashAsync(input.config),
  });
  Object.assign(draft, await completeFields(input));
  await Deno.mkdir(recordsDir(home), { recursive: true });
  const file = await openChainLocked(chainPath(home, input.timeline));
  try {
    const tail = await readTail(file, (await file.stat()).size);
    // A chain retention emptied continues from its anchor, not from genesis.
    const anchor = tail.last ? undefined : await readAnchor(anchorPath(home, input.timeline));
    const last = tail.last ??
      (anchor && anchor !== "invalid" ? { seq: anchor.seq, hash: anchor.record_hash } : undefined);
    const sealed: Record<string, unknown> = {
      ...draft,
      seq: (last?.seq ?? 0) + 1,
      prev_hash: last?.hash ?? GENESIS_HASH,
      recovered_from: tail.skipped && { after_seq: last?.seq ?? 0, ...tail.skipped },
    };
    sealed.record_hash = await recordHashAsync(sealed);
    // Checked before anything is written: the writer never produces a line the verifier rejects.
    const record = TurnRecordSchema.parse(sealed);
    const line = `${tail.torn ? "\n" : ""}${canonicalJson(record)}\n`;
    await writeAll(file, encoder.encode(line));
    await file.sync();
    const head = canonicalJson({ seq: record.seq, record_hash: record.record_hash });
    await atomicWrite(headPath(home, input.timeline), `${head}\n`);
    const witness = { at: record.at, record_hash: record.record_hash, seq: record.seq };
    try {
      await appendWitness(home, { ...witness, timeline: input.timeline });
    } catch (error) {
      throw new Error(
        `record seq ${record.seq} and its head were written, but the witness log ` +
          `(records/witness.log) could not be appended: ${errorMessage(error)}`,
      );
    }
    return record;
  } finally {
    file.close();
  }
}

/**
 * Opens the chain file for appending and takes its lock. Pruning replaces the file (atomic
 * rename) under the same lock, so a descriptor opened before a prune is reopened on the new file
 * rather than appending to the unlinked old one.
 */
function openChainLocked(path: string): Promise<Deno.FsFile> {
  return openLocked(path, { read: true, append: true, create: true });
}

/** One write call in practice; the loop only guards against a short write. */
async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

/**
 * The complete-record fields (docs/records.md#fields), in stored spelling; none of them when the
 * caller gave no `content` (a bare record, as older writers made). Texts are scrubbed of secrets
 * in `full` mode and replaced by the sha256 of the unscrubbed text in `hashes` mode.
 */
async function completeFields(input: TurnRecordInput): Promise<Record<string, unknown>> {
  if (input.content === undefined) return {};
  const hashes = input.content === "hashes";
  const text = async (value: string) =>
    hashes ? { text_sha256: await sha256HexAsync(value) } : { text: scrubSecrets(value) };
  const capped = async (value: string) =>
    hashes
      ? { value: await sha256HexAsync(value), cut: false }
      : value.length > TOOL_TEXT_CAP
      ? { value: scrubSecrets(value.slice(0, TOOL_TEXT_CAP)), cut: true }
      : { value: scrubSecrets(value), cut: false };
  const toolCalls = [];
  for (const call of input.toolCalls) {
    const args = call.arguments === undefined
      ? undefined
      : await capped(canonicalJson(call.arguments));
    const result = call.result === undefined ? undefined : await capped(call.result);
    toolCalls.push({
      name: call.name,
      outcome: call.outcome,
      action: call.action,
      call_id: call.callId,
      arguments: args?.value,
      result: result?.value,
      truncated: args?.cut || result?.cut ? true : undefined,
    });
  }
  const outbound = [];
  for (const post of input.outbound ?? []) {
    outbound.push({ uuid: post.uuid, kind: post.kind, ...await text(post.text) });
  }
  const context = input.history;
  const brief = async (key: string, value: string | undefined) =>
    value === undefined
      ? {}
      : hashes
      ? { [`${key}_sha256`]: await sha256HexAsync(value) }
      : { [key]: scrubSecrets(value) };
  return {
    content: input.content,
    tool_calls: toolCalls,
    inbound: input.inbound &&
      { items: [...input.inbound.items], ...await text(input.inbound.text) },
    outbound,
    history: context && {
      history_messages: context.history.messages,
      history_turns: context.history.turns,
      history_bytes: context.history.bytes,
      history_sha256: context.history.sha256,
      ...await brief("memory", context.memory),
      ...await brief("working_state", context.workingState),
    },
    gate_verdicts: (input.gateVerdicts ?? []).map((v) => ({
      kind: v.kind,
      verdict: v.verdict,
      checks: [...v.checks],
      tone: v.tone && {
        passed: v.tone.passed,
        // The judge's reason may paraphrase the message: scrubbed like every stored text.
        reason: scrubSecrets(v.tone.reason),
        model: v.tone.model,
        body_sha256: v.tone.bodySha256,
        instruction_sha256: v.tone.instructionSha256,
        error: v.tone.error,
      },
    })),
    regenerated: input.regenerated ?? false,
    result: input.result,
    escalation_reason: input.escalationReason,
    tool_manifest_hash: input.toolManifest === undefined
      ? undefined
      : await canonicalHashAsync(input.toolManifest),
  };
}

/** The stored fields the caller determines, in stored spelling. */
function draftOf(
  input: TurnRecordInput,
  at: Date,
  hashes: { readonly prompt: string | null; readonly config: string },
): Record<string, unknown> {
  const { usage } = input;
  return {
    version: RECORD_VERSION,
    record_id: input.recordId ?? crypto.randomUUID(),
    at: at.toISOString(),
    timeline: input.timeline,
    source: input.source ?? `timeline:${input.timeline}`,
    wake_id: input.wakeId,
    delivery_id: input.deliveryId ?? null,
    trigger_items: input.triggers.map(({ uuid, kind }) => ({ uuid, kind })),
    provider: input.provider,
    model: input.model,
    prompt_hash: hashes.prompt,
    knowledge_sha256: input.knowledgeSha256,
    config_hash: hashes.config,
    tool_calls: input.toolCalls.map(({ name, outcome, action }) => ({ name, outcome, action })),
    outcome: input.outcome,
    outcome_kind: input.outcomeKind,
    error: input.error === undefined ? undefined : scrubSecrets(input.error),
    steps: input.steps ?? 0,
    latency_ms: { ...input.latencyMs },
    usage: {
      calls: usage.calls ?? 0,
      tokens_in: usage.tokensIn,
      tokens_out: usage.tokensOut,
      cached_tokens: usage.cachedTokens,
      // Only where a provider reports cache writes, so other providers' records keep their shape.
      ...(usage.cacheWriteTokens === undefined
        ? {}
        : { cache_write_tokens: usage.cacheWriteTokens }),
      cost_usd: usage.cost ?? null,
    },
    context: input.context && {
      parts: input.context.parts.map((p) => ({ ...p })),
      first_call: input.context.first_call && { ...input.context.first_call },
    },
  };
}

/**
 * Per-stage wall-clock timing for `latencyMs`: `lap("model")` charges the time since the last
 * lap to that stage (repeated laps add up); `latency()` adds `total` since construction.
 */
export class StageTimer {
  readonly #now: () => number;
  readonly #start: number;
  #last: number;
  readonly #stages: Record<string, number> = {};

  /** Starts the clock. */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#start = this.#last = now();
  }

  /** Charges the time since the previous lap to `stage`. */
  lap(stage: string): void {
    const now = this.#now();
    this.#stages[stage] = (this.#stages[stage] ?? 0) + round(now - this.#last);
    this.#last = now;
  }

  /** The stages so far plus `total`. */
  latency(): LatencyInput {
    return { ...this.#stages, total: round(this.#now() - this.#start) };
  }
}

/** Whole microseconds are plenty, and keep the stored numbers short. */
function round(ms: number): number {
  return Math.max(0, Math.round(ms * 1000) / 1000);
}
