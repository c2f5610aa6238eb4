/** The gate's refusal: a model-readable error naming the check that failed. */
import { REDACTED } from "../journal/scrub.ts";
import type { Verdict } from "./verdict.ts";

/**
 * Gate refusals of the agent's words in one turn after which the turn's speaking closes and the
 * turn escalates (docs/security.md#stop-at-the-second-refusal): `guardrails.json`'s default
 * `max_refusals_per_turn`. Here, beside the refusal, rather than with the file's parser, because
 * every wake needs the number and an idle wake does not load the parser.
 */
export const DEFAULT_MAX_REFUSALS_PER_TURN = 2;

/**
 * `body` with every span replaced by `[redacted]` (the journal's marker). Overlapping and
 * touching spans are merged first, so a secret found by two checks is one marker.
 */
export function redactSpans(body: string, spans: Iterable<readonly [number, number]>): string {
  const sorted = [...spans]
    .map(([start, end]) => [Math.max(0, start), Math.min(body.length, end)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let out = "";
  let at = 0;
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i][0];
    let end = sorted[i][1];
    while (i + 1 < sorted.length && sorted[i + 1][0] <= end) end = Math.max(end, sorted[++i][1]);
    out += body.slice(at, start) + REDACTED;
    at = end;
  }
  return out + body.slice(at);
}

/**
 * Thrown by the gate when a message fails a check; nothing was sent. The message names the
 * check and says how to fix the text, and never quotes the text (it may hold a secret).
 */
export class GateRefusal extends Error {
  /** Always "GateRefusal". */
  override name = "GateRefusal";
  /** The first check that failed. */
  readonly check: string;
  /** Every failing verdict, in pipeline order (at least one). */
  readonly failed: readonly Verdict[];
  /**
   * Each refused field's text with every secret a failing check located replaced by
   * `[redacted]`, by field name — a post's `body`, or a create's filename, description and
   * content — for the caller to swap into the arguments it keeps (the transcript holds them), so
   * the secret does not stay on disk and replay to the model. Empty when nothing was located.
   */
  readonly redactedFields: Readonly<Record<string, string>>;

  /**
   * `failed` must hold at least one failing verdict; `body` is the text they judged. `subject`
   * names what was refused for the model ("the task's instructions"; default: the message).
   */
  constructor(
    failed: readonly Verdict[],
    body?: string,
    subject?: string,
    redactedFields: Readonly<Record<string, string>> = {},
  ) {
    if (failed.length === 0) throw new TypeError("GateRefusal needs a failing verdict");
    const reasons = failed.map((v) => `${v.check} — ${v.reason ?? "failed"}`).join("; ");
    const names = [...new Set(failed.map((v) => v.check))].join(", ");
    const plural = names.includes(",") ? "s" : "";
    super(
      subject === undefined
        ? `the outbound gate blocked it (failed check${plural}: ${names}). ` +
          `${reasons}. Nothing was posted; correct the message and try again.`
        : `the outbound gate blocked ${subject} (failed check${plural}: ${names}). ` +
          `${reasons}. Nothing was sent; correct it and try again.`,
    );
    this.check = failed[0].check;
    this.failed = failed;
    const spans = failed.flatMap((v) => v.spans ?? []);
    // A post's redacted body is one more redacted field, so one helper rewrites any call.
    this.redactedFields = Object.freeze({
      ...(body === undefined || spans.length === 0 ? {} : { body: redactSpans(body, spans) }),
      ...redactedFields,
    });
  }
}
