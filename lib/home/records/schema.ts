/**
 * The turn record: one JSON line per engaged turn, everything needed to say afterwards what the
 * turn saw, which prompt and config it ran under, what it did and what it cost. Keys are
 * snake_case on disk (the fleet reads these with jq and Python); the schema is strict, so a
 * record carrying a key this version does not know is reported rather than half-read.
 */
import * as z from "../../base/zod.ts";

/** The record format this writer produces; a reader refuses any other. */
export const RECORD_VERSION = 1;

const Hash = z.string().regex(/^[0-9a-f]{64}$/, "a lowercase sha256 hex digest");
const Count = z.number().int().nonnegative();
const Millis = z.number().nonnegative();

/** How a turn ended. `reported`: the harness posted a failure report instead of a model turn. */
export const OutcomeSchema = z.enum(["ok", "error", "declined", "reported"]);
/** How a turn ended. */
export type Outcome = z.infer<typeof OutcomeSchema>;

/** One platform item the turn was triggered by. */
export const TriggerSchema = z.strictObject({
  uuid: z.string().min(1),
  /** `message`, `asset`, `event`, `task`, … — the wake's item kind. */
  kind: z.string().min(1),
});

/**
 * How a tool call ended, as its `tool` journal line says: `ok` only when it did what was asked;
 * `error` (it failed), `invalid` (its arguments were refused), `refused` (the tool declined on
 * policy) or `blocked` (the outbound gate refused its text).
 */
export const ToolCallOutcomeSchema = z.enum(["ok", "error", "invalid", "refused", "blocked"]);
/** How a tool call ended. */
export type ToolCallOutcome = z.infer<typeof ToolCallOutcomeSchema>;

/** One tool call the turn made: the name, and how it ended. */
export const ToolCallSchema = z.strictObject({
  name: z.string().min(1),
  outcome: ToolCallOutcomeSchema,
  /** The `action` argument for tools that take one (`messages` → `create`), when known. */
  action: z.string().optional(),
  /** The provider's call id. */
  call_id: z.string().optional(),
  /** The arguments as persisted (canonical JSON), capped; or their sha256 in `hashes` mode. */
  arguments: z.string().optional(),
  /** The result text as persisted, capped; or its sha256 in `hashes` mode. */
  result: z.string().optional(),
  /** Whether `arguments` or `result` was cut at the cap (the text is the first part). */
  truncated: z.boolean().optional(),
});

/** A text field: the text itself (`full`) or its sha256 (`hashes`), never both. */
const TextOrHash = {
  text: z.string().optional(),
  text_sha256: Hash.optional(),
};

/** What the model read for the turn: the user turn's text and the items it rendered. */
export const InboundSchema = z.strictObject({
  items: z.array(z.string()),
  ...TextOrHash,
});

/** One post that reached the timeline during the turn. */
export const OutboundSchema = z.strictObject({
  /** The created message's uuid. */
  uuid: z.string(),
  /** `tool` (the agent's speech) or the wake's own `report`, `ack`, …. */
  kind: z.string(),
  ...TextOrHash,
});

/**
 * The tone judge's verdict on a post (docs/records.md#the-tone-verdict): whether it passed, the
 * judge's reason (or what went wrong, with `error`), the model, and the hashes replay matches a
 * recorded verdict by.
 */
export const ToneVerdictSchema = z.strictObject({
  passed: z.boolean(),
  reason: z.string(),
  model: z.string(),
  body_sha256: Hash,
  instruction_sha256: Hash,
  /** `failed` or `unparseable`: the judge gave no judgement and the post was refused. */
  error: z.enum(["failed", "unparseable"]).optional(),
});

/** One outbound-gate decision on a post the turn tried. */
export const GateVerdictSchema = z.strictObject({
  kind: z.string(),
  verdict: z.enum(["passed", "refused"]),
  /** The failing checks of a refusal, in pipeline order. */
  checks: z.array(z.string()),
  /** The tone check's verdict, when one ran on this post. */
  tone: ToneVerdictSchema.optional(),
});

/**
 * What the model read around the user turn (docs/records.md#fields), so `harness replay
 * --with-history` can rebuild it: the conversation before the turn as the transcript saved it
 * (counted and hashed, never copied: the transcript holds it), and the recalled memory and the
 * working-state block as they were sent (texts in `full` mode, their sha256 in `hashes` mode).
 */
export const TurnContextSchema = z.strictObject({
  /** Messages of the transcript before the turn's user message. */
  history_messages: Count,
  /** Of those, the user turns (injected work not counted). */
  history_turns: Count,
  /** UTF-8 bytes of those messages as the transcript file writes them. */
  history_bytes: Count,
  /** sha256 of those bytes. */
  history_sha256: Hash,
  memory: z.string().optional(),
  memory_sha256: Hash.optional(),
  working_state: z.string().optional(),
  working_state_sha256: Hash.optional(),
});

/** What the model read around the user turn. */
export type TurnContext = z.infer<typeof TurnContextSchema>;

/**
 * What the turn came to, in one word: it posted, stayed silent, escalated (a notice went out,
 * or the gate's refusals closed its speaking), the model refused, the output limit cut its
 * reply, or it failed.
 */
export const TurnResultSchema = z.enum([
  "spoke",
  "silent",
  "escalated",
  "refused",
  "truncated",
  "failed",
]);
/** What the turn came to. */
export type TurnResult = z.infer<typeof TurnResultSchema>;

/** What decides a turn's {@link TurnResult}, as the wake records it and replay reproduces it. */
export interface TurnResultFacts {
  /** The turn failed (an error, out of funds, a permanent rejection). */
  readonly failed: boolean;
  /** How the engine ended the turn (`refused` and `truncated` are hand-offs). */
  readonly kind: string | undefined;
  /** The turn escalated, or the gate's refusals closed its speaking. */
  readonly escalated: boolean;
  /** A message or an image reached the timeline. */
  readonly spoke: boolean;
}

/**
 * The turn in one word (docs/records.md#fields), in this order: failed, refused, escalated,
 * truncated, spoke, silent.
 */
export function turnResultOf(facts: TurnResultFacts): TurnResult {
  if (facts.failed) return "failed";
  if (facts.kind === "refused") return "refused";
  if (facts.escalated) return "escalated";
  if (facts.kind === "truncated") return "truncated";
  return facts.spoke ? "spoke" : "silent";
}

/** Provider-reported usage summed over the turn's model calls. */
export const UsageSchema = z.strictObject({
  calls: Count,
  tokens_in: Count,
  tokens_out: Count,
  /** Input tokens served from the provider's prompt cache (a subset of `tokens_in`). */
  cached_tokens: Count,
  /**
   * Input tokens written to the provider's prompt cache (a subset of `tokens_in`); present only
   * where the provider reports writes (Anthropic), so older records still verify.
   */
  cache_write_tokens: Count.optional(),
  /** USD; null when no call reported a cost. */
  cost_usd: z.number().nonnegative().nullable(),
});

/**
 * One part of a turn's first request (docs/records.md#the-request-anatomy), in request order:
 * its name (`tools`, `charter`, `transcript`, `brief`, `recall`, `working_state`, `new_turn`, or a
 * part a later version adds), its size in characters and the sha256 of its text. The text itself
 * is never stored here.
 */
export const ContextPartSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, "a lower-case part name"),
  chars: Count,
  sha256: Hash,
  /** How many messages the part holds (message parts only). */
  messages: Count.optional(),
});

/** One part of a turn's first request. */
export type ContextPart = z.infer<typeof ContextPartSchema>;

/**
 * What the turn's first request was made of, and what the provider reported for that one call:
 * `first_call` holds its usage counters by their snake_case names (`tokens_in`, `cached_tokens`,
 * …), so a provider that reports more counters adds keys, not schema.
 */
export const ContextAnatomySchema = z.strictObject({
  parts: z.array(ContextPartSchema),
  first_call: z.record(
    z.string().regex(/^[a-z][a-z0-9_]*$/, "a snake_case usage counter"),
    z.number().nonnegative(),
  ).optional(),
});

/** What the turn's first request was made of. */
export type ContextAnatomy = z.infer<typeof ContextAnatomySchema>;

/**
 * Written by the writer when the file's tail was not a valid record (a torn append, a garbage
 * line, an edited last record): it chains onto the last valid record instead and says what it
 * stepped over, so the damage stays visible and fingerprinted rather than silently adopted.
 */
export const RecoveredFromSchema = z.strictObject({
  /** `seq` of the record this one chains onto (0: none, the chain restarted from genesis). */
  after_seq: Count,
  /** Lines stepped over (a torn fragment counts as one). */
  lines: z.number().int().positive(),
  /** Bytes stepped over. */
  bytes: z.number().int().positive(),
  /** sha256 hex of exactly those bytes. */
  sha256: Hash,
});

/** One turn record as it is stored. */
export const TurnRecordSchema = z.strictObject({
  version: z.literal(RECORD_VERSION),
  /** 1-based position in this timeline's chain. */
  seq: z.number().int().positive(),
  record_id: z.string().min(1),
  /** When the record was written (ISO 8601, UTC). */
  at: z.iso.datetime(),
  timeline: z.string().min(1),
  /** The transcript key, `timeline:<uuid>`. */
  source: z.string().min(1),
  wake_id: z.string().min(1),
  /** The router's delivery id; null when the wake had none. */
  delivery_id: z.string().nullable(),
  trigger_items: z.array(TriggerSchema),
  provider: z.string(),
  model: z.string(),
  /** sha256 hex of the charter (system prompt) text; null when the turn ran without one. */
  prompt_hash: Hash.nullable(),
  /**
   * sha256 hex of the rendered knowledge pack (docs/records.md#fields); the sha256 of no bytes
   * when the pack is empty; absent in records older than the pack or from a turn that failed
   * before the pack was read.
   */
  knowledge_sha256: Hash.optional(),
  /** sha256 hex of the canonical encoding of the resolved config. */
  config_hash: Hash,
  tool_calls: z.array(ToolCallSchema),
  outcome: OutcomeSchema,
  /** Finer detail: `narration`, `reserve`, `stuck`, `context_length`, `billing`, … */
  outcome_kind: z.string().optional(),
  /** The error, scrubbed of secrets, when the outcome is `error`. */
  error: z.string().optional(),
  /** Model steps the turn used. */
  steps: Count,
  /** Milliseconds per stage; `total` is required, the other stage names are the caller's. */
  latency_ms: z.record(z.string(), Millis).and(z.object({ total: Millis })),
  usage: UsageSchema,
  recovered_from: RecoveredFromSchema.optional(),
  // The complete-record fields (docs/records.md#fields): optional, so older records still verify.
  /** `full` or `hashes`: what the text fields below hold. */
  content: z.enum(["full", "hashes"]).optional(),
  inbound: InboundSchema.optional(),
  outbound: z.array(OutboundSchema).optional(),
  history: TurnContextSchema.optional(),
  gate_verdicts: z.array(GateVerdictSchema).optional(),
  /** Whether the turn was rebuilt (read-speed pacing found new peers and built it again). */
  regenerated: z.boolean().optional(),
  result: TurnResultSchema.optional(),
  /** The escalation reason, when the turn escalated. */
  escalation_reason: z.string().optional(),
  /** sha256 hex of the canonical encoding of the tool manifest the model was offered. */
  tool_manifest_hash: Hash.optional(),
  /** The first request's anatomy: its parts' sizes and hashes, and the first call's usage. */
  context: ContextAnatomySchema.optional(),
  /** The previous record's `record_hash`, or 64 zeros for the chain's first record. */
  prev_hash: Hash,
  /** sha256 hex of the canonical encoding of this record without `record_hash`. */
  record_hash: Hash,
});

/** One turn record as it is stored. */
export type TurnRecord = z.infer<typeof TurnRecordSchema>;
