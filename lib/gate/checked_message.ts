/**
 * The one shape a message can take on its way to the platform. A `CheckedMessage` exists only
 * if a pipeline of checks actually ran on its exact body and every verdict passed: its
 * constructor is private (and guarded at run time), and the only way to get one is `screen`,
 * which runs the checks itself. The gate's delivery takes nothing else, so "post without
 * checking" is not a thing the code can express.
 */
import { ClearedText } from "../platform/mod.ts";
import { GateRefusal } from "./refusal.ts";
import type { Check, Verdict } from "./verdict.ts";

/** What a caller wants posted, before any check has run. */
export interface Draft {
  /** The timeline to post to. */
  readonly timeline: string;
  /** The body, exactly as it should appear. */
  readonly body: string;
}

// Module-private: holding it is what `screen` has and nobody else does. The `private`
// constructor stops TypeScript callers; this stops a cast.
const SEAL: unique symbol = Symbol("CheckedMessage.seal");

/** A message whose body passed every check of a non-empty pipeline. */
export class CheckedMessage {
  /** The timeline to post to. */
  readonly timeline: string;
  /** The body that was checked; immutable, so what was checked is what is sent. */
  readonly body: string;
  /** The verdicts that let it through: non-empty, all passed. */
  readonly verdicts: readonly Verdict[];
  /** The same body, sealed for the platform client's message create. */
  readonly cleared: ClearedText<"message">;
  // An ES private field makes the class nominal: a look-alike object literal does not type-check.
  readonly #sealed = true;

  private constructor(seal: typeof SEAL, draft: Draft, verdicts: readonly Verdict[]) {
    if (seal !== SEAL) throw new TypeError("a CheckedMessage is only made by screen()");
    if (verdicts.length === 0) throw new TypeError("a CheckedMessage needs verdicts");
    const failed = verdicts.filter((v) => !v.passed);
    if (failed.length > 0) throw new GateRefusal(failed, draft.body);
    this.timeline = draft.timeline;
    this.body = draft.body;
    this.verdicts = Object.freeze([...verdicts]);
    this.cleared = ClearedText.seal("message", { body: draft.body }, verdicts);
    Object.freeze(this);
  }

  /** Whether `value` really came from `screen` (a run-time backstop for untyped callers). */
  static is(value: unknown): value is CheckedMessage {
    return typeof value === "object" && value !== null && #sealed in value;
  }

  /**
   * Runs every check on `draft.body` and returns the sealed message, or throws GateRefusal
   * carrying every failing verdict. An empty pipeline is a programming error, not a pass.
   */
  static screen(draft: Draft, checks: readonly Check[]): CheckedMessage {
    const body = String(draft.body);
    const verdicts = checks.map((check) => check.judge(body));
    return new CheckedMessage(SEAL, { timeline: draft.timeline, body }, verdicts);
  }
}
