/**
 * Per-timeline state under `HARNESS_HOME` (docs/home-layout.md): marks, the task seen-set,
 * two-phase item claims, the wake breaker, the billing marker, the cleanup that removes a
 * deleted timeline's share of all of it, and the sweep of temp files a killed writer stranded. File names and bytes match the Python reference, so a box
 * can switch runtimes without losing anything.
 * @module
 */
export { type MarkKind, readMark, writeMark } from "./marks.ts";
export { addSeen, readSeen } from "./seen.ts";
export {
  CLAIM_STALE_AFTER_SECONDS,
  type ClaimKind,
  type ClaimOutcome,
  ClaimStore,
  type ClaimStoreOptions,
  newWakeId,
  TAKEOVER_HOPS,
} from "./claims.ts";
export {
  type ClaimPhase,
  type ClaimRecord,
  encodeClaimRecord,
  isSettled,
  parseClaimRecord,
} from "./claim_record.ts";
export { livenessSnapshot, processAlive } from "./liveness.ts";
export { type BreakerOptions, type BreakerVerdict, recordAndCheck } from "./breaker.ts";
export { clearBillingBlocked, isBillingBlocked, markBillingBlocked } from "./billing.ts";
export {
  manualPurgeLine,
  purgeTimeline,
  type RemovePath,
  sweep,
  SweepCredentialError,
  type SweepSummary,
  sweepSummaryLine,
  type TimelineLookup,
  timelinesOnDisk,
} from "./cleanup.ts";
export {
  type Listed,
  sweepStaleTemps,
  TEMP_STALE_AFTER_SECONDS,
  type TempFile,
  type TempSweepOptions,
  type TempSweepResult,
  timelineTemps,
} from "./temps.ts";
export {
  engagedWalls,
  homeTimelines,
  type InFlightClaim,
  inFlightClaims,
  type InspectOptions,
  lastWakeSeen,
  type StrandedTemp,
  strandedTemps,
  type TimelineWalls,
} from "./inspect.ts";
export { billingPath, breakerPaths, CLAIM_KINDS, claimsDir, markPath, seenPath } from "./paths.ts";
