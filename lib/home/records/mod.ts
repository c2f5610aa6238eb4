/**
 * Turn records: one chained JSON line per engaged turn under `$HARNESS_HOME/records/`, one chain
 * per timeline. The wake calls {@link appendTurnRecord} after each turn; `harness records verify`
 * and `harness records stats|show` read them back.
 * @module
 */
export { canonicalHash, canonicalJson, GENESIS_HASH, recordHash, sha256Hex } from "./canonical.ts";
export { type Anchor, parseAnchor } from "./anchor.ts";
export { pruneRecords, type PruneReport, retentionCutoff } from "./prune.ts";
export {
  anchorPath,
  chainPath,
  headPath,
  queriedTimelines,
  readChain,
  recordedTimelines,
  RECORDS_DIR,
  recordsDir,
  type RecordsListing,
  recordsListing,
  type SkippedEntry,
  WITNESS_FILE,
} from "./files.ts";
export {
  appendWitness,
  compactWitnesses,
  parseWitnesses,
  type Witness,
  witnessPath,
  WitnessSchema,
} from "./witness.ts";
export {
  type ContextAnatomy,
  ContextAnatomySchema,
  type ContextPart,
  ContextPartSchema,
  type Outcome,
  RECORD_VERSION,
  type TurnContext,
  TurnContextSchema,
  type TurnRecord,
  TurnRecordSchema,
  type TurnResult,
  type TurnResultFacts,
  turnResultOf,
  TurnResultSchema,
} from "./schema.ts";
export {
  type AppendOptions,
  appendTurnRecord,
  type ContextInput,
  type LatencyInput,
  type PostInput,
  StageTimer,
  TOOL_TEXT_CAP,
  type ToolCallInput,
  type TurnRecordInput,
  type UsageInput,
  type VerdictInput,
} from "./writer.ts";
export {
  type BadReason,
  type BadRecord,
  type ChainCompanions,
  type ChainReport,
  verifyChain,
  verifyRecords,
  type VerifyReport,
} from "./verify.ts";
export { percentile, statsOfChain, statsRecords, type TimelineStats } from "./stats.ts";
export {
  type DriftBucket,
  type DriftBy,
  type DriftPrice,
  driftRecords,
  type DriftReport,
  parseSince,
  periodOf,
} from "./drift.ts";
export { type SelectedTurns, selectTurns, type TurnSelection } from "./select.ts";
export {
  type ShownPost,
  ShownPostSchema,
  type ShownTurn,
  ShownTurnSchema,
  type ShowReport,
  showReport,
  ShowReportSchema,
  showTurn,
  TURN_COST_FIELDS,
} from "./show.ts";
