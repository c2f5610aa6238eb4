/**
 * Verdicts: what one deterministic check says about one message body. Checks are pure functions
 * of the text, so a logged refusal is reproducible and a test can pin every outcome.
 */

/** One check's judgement of one body. */
export interface Verdict {
  /** The check's stable name (`not_empty`, `max_length`, `forbidden_patterns`, …). */
  readonly check: string;
  /** Whether the body may go out as far as this check is concerned. */
  readonly passed: boolean;
  /**
   * Why it failed, written for the model to act on. Never quotes the offending text: a secret
   * echoed in a refusal would land in the transcript and be replayed every wake.
   */
  readonly reason?: string;
  /**
   * Where in the body the check found what it refused, as `[start, end)` UTF-16 ranges: a
   * secret's spans, so a refusal can hand back the body with them redacted. Absent for checks
   * that judge the whole body (length, emptiness, forbidden patterns).
   */
  readonly spans?: readonly (readonly [number, number])[];
}

/** A deterministic check: a name and a pure judgement of the body. */
export interface Check {
  /** The name its verdicts carry. */
  readonly name: string;
  /** Judges `body`; must not throw and must not depend on anything but `body` and its config. */
  judge(body: string): Verdict;
}

/** A passing verdict for `check`. */
export function pass(check: string): Verdict {
  return { check, passed: true };
}

/** A failing verdict for `check`, with the model-readable `reason` and any refused `spans`. */
export function fail(
  check: string,
  reason: string,
  spans?: readonly (readonly [number, number])[],
): Verdict {
  return spans === undefined ? { check, passed: false, reason } : {
    check,
    passed: false,
    reason,
    spans,
  };
}
