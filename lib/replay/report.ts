/**
 * The replay report: what `harness replay --json` prints, described by zod so the shape is
 * checked on the way out and documented in one place (docs/records.md#the-json-report).
 */
import * as z from "../base/zod.ts";
import { TURN_COST_FIELDS } from "../home/records/mod.ts";

/** One side of a turn: what the record says, or what the replay did. */
export const SideSchema = z.strictObject({
  /**
   * The turn in one word (docs/records.md#fields): the record's `result`; for the replay, what
   * the wake's record would say (`spoke`, `silent`, `escalated`, `refused` or `truncated`).
   */
  result: z.string(),
  spoke: z.boolean(),
  /** The agent's own posts (`outbound` of kind `tool`; for the replay, the captured ones). */
  texts: z.array(z.string()),
  /** Tool calls in order, `name` or `name/action`. */
  tool_calls: z.array(z.string()),
  /** Outbound-gate decisions on the agent's posts, in order. */
  verdicts: z.array(z.strictObject({
    verdict: z.enum(["passed", "refused"]),
    checks: z.array(z.string()),
    /**
     * The tone judge's verdict on the post, when one ran; `reused` (replay side only): true when
     * the record's verdict was taken, false when the judge was asked.
     */
    tone: z.strictObject({
      passed: z.boolean(),
      reason: z.string(),
      model: z.string(),
      reused: z.boolean().optional(),
    }).optional(),
  })),
  /** Of `verdicts`, the refused ones: gate refusals (a model refusal is `result: refused`). */
  refusals: z.number().int().nonnegative(),
  ...TURN_COST_FIELDS,
});

/** One side of a turn. */
export type Side = z.infer<typeof SideSchema>;

/** How the two sides differ. */
export const DiffSchema = z.strictObject({
  /** Any of the four flags below, or a `result_change`. */
  changed: z.boolean(),
  spoke_changed: z.boolean(),
  text_changed: z.boolean(),
  tools_changed: z.boolean(),
  verdicts_changed: z.boolean(),
  /**
   * The two sides' `result` words when they differ (`{before: "spoke", after: "refused"}`), null
   * when the replay ended the turn as the record says it ended.
   */
  result_change: z.strictObject({ before: z.string(), after: z.string() }).nullable(),
  /** Token-set Jaccard of the posted texts, 0…1 (docs/records.md#similarity). */
  similarity: z.number().min(0).max(1),
  tokens_in_delta: z.number().int(),
  tokens_out_delta: z.number().int(),
  /** null when either side reported no cost. */
  cost_delta_usd: z.number().nullable(),
});

/** How the two sides differ. */
export type Diff = z.infer<typeof DiffSchema>;

/** The conversation a turn was replayed after (`--with-history`, docs/records.md#replaying-with-history). */
export const HistorySchema = z.strictObject({
  /** Transcript messages before the turn's user message. */
  messages: z.number().int().nonnegative(),
  /** Of those, the user turns. */
  turns: z.number().int().nonnegative(),
  /** Their UTF-8 bytes as the transcript file writes them, and the sha256 of those bytes. */
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
  /** UTF-8 bytes of the recorded recall and working-state block (0: none). */
  memory_bytes: z.number().int().nonnegative(),
  working_state_bytes: z.number().int().nonnegative(),
});

/** One selected turn. */
export const TurnReportSchema = z.strictObject({
  record_id: z.string(),
  timeline: z.string(),
  seq: z.number().int().positive(),
  at: z.string(),
  /** `replayed`, `skipped` (cannot be replayed) or `failed` (the replay raised). */
  status: z.enum(["replayed", "skipped", "failed"]),
  /** Why it was skipped or failed. */
  reason: z.string().optional(),
  /** Whether the inbound text mentions `--handle` (every turn counts without one). */
  mention: z.boolean(),
  original: SideSchema,
  replay: SideSchema.optional(),
  diff: DiffSchema.optional(),
  /** Calls the record answered / had nothing for. */
  calls_from_record: z.number().int().nonnegative().optional(),
  calls_not_captured: z.number().int().nonnegative().optional(),
  /** The history the turn was replayed after; only with `--with-history`. */
  history: HistorySchema.optional(),
  /** Whether the replay's charter / tool manifest hash equals the record's. */
  same_charter: z.boolean(),
  same_tools: z.boolean().nullable(),
});

/** One selected turn. */
export type TurnReport = z.infer<typeof TurnReportSchema>;

/** One `--fail-on` rule and whether the run crossed it. */
export const ThresholdSchema = z.strictObject({
  rule: z.string(),
  crossed: z.boolean(),
  detail: z.string(),
});

/** One `--fail-on` rule's outcome. */
export type ThresholdReport = z.infer<typeof ThresholdSchema>;

/** The totals over the replayed turns (skipped and failed ones are not counted). */
export const SummarySchema = z.strictObject({
  selected: z.number().int().nonnegative(),
  replayed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  /** Turns the replay ended with another `result` than the record's (each also `changed`). */
  results_changed: z.number().int().nonnegative(),
  spoke_before: z.number().int().nonnegative(),
  spoke_after: z.number().int().nonnegative(),
  /** Gate refusals, summed over the turns' sides. */
  refusals_before: z.number().int().nonnegative(),
  refusals_after: z.number().int().nonnegative(),
  /** Turns whose `result` is `refused`: the model itself refused (gate refusals are above). */
  model_refusals_before: z.number().int().nonnegative(),
  model_refusals_after: z.number().int().nonnegative(),
  replies_to_mentions_before: z.number().int().nonnegative(),
  replies_to_mentions_after: z.number().int().nonnegative(),
  /** null when nothing was replayed. */
  min_similarity: z.number().min(0).max(1).nullable(),
  tokens_in_before: z.number().int().nonnegative(),
  tokens_in_after: z.number().int().nonnegative(),
  tokens_out_before: z.number().int().nonnegative(),
  tokens_out_after: z.number().int().nonnegative(),
  cost_usd_before: z.number().nonnegative().nullable(),
  cost_usd_after: z.number().nonnegative().nullable(),
});

/** The totals. */
export type Summary = z.infer<typeof SummarySchema>;

/** What the turns were replayed against. */
export const AgainstSchema = z.strictObject({
  /** The provider, or null when each turn uses its record's provider. */
  provider: z.string().nullable(),
  sdk: z.string(),
  surface: z.string().nullable(),
  /** The model, or null when each turn uses its record's model. */
  model: z.string().nullable(),
  base_url: z.string().nullable(),
  /** Whether it is the sandbox's deterministic model, started in this process. */
  sandbox_model: z.boolean(),
  /** `--with-history`: each turn after the conversation it read. */
  with_history: z.boolean(),
  config_home: z.string(),
  /** sha256 of the replay's charter (null without one). */
  charter_hash: z.string().nullable(),
});

/**
 * The whole report. Within `version` 1 fields are only ever added, never removed, renamed or
 * retyped, so a reader of version 1 takes the fields it knows and ignores the rest
 * (docs/records.md#the-json-report).
 */
export const ReplayReportSchema = z.strictObject({
  version: z.literal(1),
  against: AgainstSchema,
  turns: z.array(TurnReportSchema),
  summary: SummarySchema,
  thresholds: z.array(ThresholdSchema),
  /** Record lines that were not valid records, skipped by the selection. */
  unreadable: z.number().int().nonnegative(),
  /** `--turns` ids no record carries. */
  missing: z.array(z.string()),
});

/** The whole report. */
export type ReplayReport = z.infer<typeof ReplayReportSchema>;
