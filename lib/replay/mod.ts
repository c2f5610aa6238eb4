/**
 * `harness replay` (docs/records.md#replay) is built on {@link replayTurns}; the pieces are
 * exported for tests and for library users who replay turns their own way.
 * @module
 */
export { type RecordedModel, type ReplayOptions, replayTurns } from "./replay.ts";
export { parseTurnIds, type SelectedTurns, selectTurns, type TurnSelection } from "./select.ts";
export { prepareReplay, type ReplayModel, type ReplaySetup } from "./setup.ts";
export { runTurn, type TurnRun, unreplayable } from "./turn.ts";
export {
  diffSides,
  type FailRule,
  judgeRules,
  mentions,
  NAMED_FAIL_RULES,
  parseFailOn,
  similarity,
  summarize,
} from "./diff.ts";
export {
  type Diff,
  HistorySchema,
  type ReplayReport,
  ReplayReportSchema,
  type Side,
  type Summary,
  type ThresholdReport,
  type TurnReport,
} from "./report.ts";
export { notCaptured, ReplayCapture, ReplayTurnTools } from "./tools.ts";
export { REPLAY_OFFLINE, replayContext } from "./context.ts";
export { replayTable } from "./table.ts";
export {
  HistoryUnavailable,
  type HistoryUsed,
  rebuildHistory,
  type RebuiltHistory,
  TranscriptCache,
} from "./history.ts";
