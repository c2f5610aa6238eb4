/**
 * What `harness records show` prints (docs/records.md#reading-what-was-said): per turn, what the
 * agent read and what it posted, with the result, model, tokens and cost beside it. A record
 * written in `hashes` mode carries only sha256 digests of its texts, so its texts are null here
 * and `content` says why; a record older than the complete-record fields has no texts either.
 */
import * as z from "../../base/zod.ts";
import { ToolCallOutcomeSchema, type TurnRecord, TurnResultSchema } from "./schema.ts";
import type { SelectedTurns } from "./select.ts";

const Hash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * The model and what its calls cost, as every per-turn report prints them (`records show`, the
 * replay report's sides): spread into a `z.strictObject`.
 */
export const TURN_COST_FIELDS = {
  model: z.string(),
  tokens_in: z.number().int().nonnegative(),
  tokens_out: z.number().int().nonnegative(),
  cached_tokens: z.number().int().nonnegative(),
  /** USD as the provider reported it; null when none did. */
  cost_usd: z.number().nonnegative().nullable(),
};

/** One post of a shown turn. */
export const ShownPostSchema = z.strictObject({
  uuid: z.string(),
  /** `tool` (the agent's speech) or the wake's own `report`, `ack`, …. */
  kind: z.string(),
  /** The post's text; null in `hashes` mode. */
  text: z.string().nullable(),
  /** The text's sha256, when the record kept only that. */
  text_sha256: Hash.nullable(),
});

/** One post of a shown turn. */
export type ShownPost = z.infer<typeof ShownPostSchema>;

/** One turn as `records show --json` prints it. */
export const ShownTurnSchema = z.strictObject({
  record_id: z.string(),
  /** When the record was written (ISO 8601, UTC). */
  at: z.string(),
  timeline: z.string(),
  seq: z.number().int().positive(),
  /** spoke, silent, escalated or failed; null for a record older than the field. */
  result: TurnResultSchema.nullable(),
  escalation_reason: z.string().nullable(),
  provider: z.string(),
  ...TURN_COST_FIELDS,
  /** `full`, `hashes`, or null for a record older than the field. */
  content: z.enum(["full", "hashes"]).nullable(),
  /** What the agent read: the item uuids and the user turn's whole text (null when not kept). */
  inbound: z.strictObject({
    items: z.array(z.string()),
    text: z.string().nullable(),
    text_sha256: Hash.nullable(),
  }),
  outbound: z.array(ShownPostSchema),
  /** The tool calls, by name and outcome, in order. */
  tool_calls: z.array(z.strictObject({ name: z.string(), outcome: ToolCallOutcomeSchema })),
});
/** One turn as `records show --json` prints it. */
export type ShownTurn = z.infer<typeof ShownTurnSchema>;

/** The whole of `records show --json`. */
export const ShowReportSchema = z.strictObject({
  /** Oldest first. */
  turns: z.array(ShownTurnSchema),
  /** Lines under records/ that are not valid records, skipped. */
  unreadable: z.number().int().nonnegative(),
});
/** The whole of `records show --json`. */
export type ShowReport = z.infer<typeof ShowReportSchema>;

/** One record as shown. */
export function showTurn(record: TurnRecord): ShownTurn {
  return {
    record_id: record.record_id,
    at: record.at,
    timeline: record.timeline,
    seq: record.seq,
    result: record.result ?? null,
    escalation_reason: record.escalation_reason ?? null,
    provider: record.provider,
    model: record.model,
    tokens_in: record.usage.tokens_in,
    tokens_out: record.usage.tokens_out,
    cached_tokens: record.usage.cached_tokens,
    cost_usd: record.usage.cost_usd,
    content: record.content ?? null,
    inbound: {
      items: record.inbound?.items ?? record.trigger_items.map((item) => item.uuid),
      text: record.inbound?.text ?? null,
      text_sha256: record.inbound?.text_sha256 ?? null,
    },
    outbound: (record.outbound ?? []).map((post) => ({
      uuid: post.uuid,
      kind: post.kind,
      text: post.text ?? null,
      text_sha256: post.text_sha256 ?? null,
    })),
    tool_calls: record.tool_calls.map((call) => ({ name: call.name, outcome: call.outcome })),
  };
}

/** The selected records as shown. */
export function showReport(selected: SelectedTurns): ShowReport {
  return { turns: selected.records.map(showTurn), unreadable: selected.unreadable };
}
