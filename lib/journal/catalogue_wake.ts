/**
 * The wake's verdict lines (docs/journal.md#the-line-catalogue): the bookends, skips,
 * failures and the billing needles the fleet's alarms match. Each helper is the only author of
 * its bytes, so a field can never drift out of the documented order. Verdict heads are coloured;
 * `delivery` is the router's correlation id and is omitted when absent.
 */
import type { Journal, Level } from "./journal.ts";
import { formatDuration } from "./render.ts";

/** What fired a wake; the first non-empty of message, event, asset becomes `trigger=`. */
export interface WakeTrigger {
  /** The message uuid the router passed (`--message`). */
  readonly message?: string | null;
  /** The webhook event uuid the router passed (`--event`). */
  readonly event?: string | null;
  /** The asset uuid the router passed (`--asset`). */
  readonly asset?: string | null;
}

/** `message:<u>` / `event:<u>` / `asset:<u>`, or `undefined` when the router named nothing. */
export function triggerLabel(trigger: WakeTrigger | undefined): string | undefined {
  if (!trigger) return undefined;
  if (trigger.message) return `message:${trigger.message}`;
  if (trigger.event) return `event:${trigger.event}`;
  if (trigger.asset) return `asset:${trigger.asset}`;
  return undefined;
}

/** INFO `wake start` (green): `timeline [trigger] provider model [delivery]`. */
export function wakeStart(journal: Journal, f: {
  timeline: string;
  trigger?: WakeTrigger;
  provider: string;
  model: string;
  delivery?: string | null;
}): void {
  journal.event("INFO", "wake start", {
    timeline: f.timeline,
    trigger: triggerLabel(f.trigger),
    provider: f.provider,
    model: f.model,
    delivery: f.delivery,
  }, { color: "green" });
}

/** How a wake ended; the `outcome=` pair is coloured (ok green, error red, declined yellow). */
export type WakeOutcome = "ok" | "error" | "declined";

/** INFO `wake end` (blue): `timeline outcome turns steps=N/M posted duration [delivery]`. */
export function wakeEnd(journal: Journal, f: {
  timeline: string;
  outcome: WakeOutcome;
  turns: number;
  steps: number;
  maxSteps: number;
  posted: number;
  seconds: number;
  delivery?: string | null;
}): void {
  journal.event("INFO", "wake end", {
    timeline: f.timeline,
    outcome: f.outcome,
    turns: f.turns,
    steps: `${f.steps}/${f.maxSteps}`,
    posted: f.posted,
    duration: formatDuration(f.seconds),
    delivery: f.delivery,
  }, { color: "blue" });
}

/** INFO `wake skipped` (yellow): `timeline [delivery] reason=timeline_deleted`. */
export function wakeSkipped(journal: Journal, f: {
  timeline: string;
  delivery?: string | null;
}): void {
  journal.event("INFO", "wake skipped", {
    timeline: f.timeline,
    delivery: f.delivery,
    reason: "timeline_deleted",
  }, { color: "yellow" });
}

/** ERROR `wake failed` (red): `timeline error [delivery]`. */
export function wakeFailed(journal: Journal, f: {
  timeline: string;
  error: string;
  delivery?: string | null;
}): void {
  journal.event("ERROR", "wake failed", {
    timeline: f.timeline,
    error: f.error,
    delivery: f.delivery,
  }, { color: "red" });
}

/** Fields of the two billing needles. `source`/`agent` are the log-grammar probe's trailers. */
export interface BillingFields {
  /** `out_of_funds` for a real outage; `log_grammar_probe` for the synthetic probe. */
  readonly reason?: string;
  /** The model provider whose account is out of funds. */
  readonly provider?: string | null;
  /** The timeline the wake was for. */
  readonly timeline?: string | null;
  /** The router's delivery id, when it passed one. */
  readonly delivery?: string | null;
  /** Who wrote the probe line (the log-grammar probe only). */
  readonly source?: string | null;
  /** The agent the probe ran as (the log-grammar probe only). */
  readonly agent?: string | null;
}

/**
 * ERROR `wake reported_failure` (red), billing onset: `kind=billing reason provider timeline
 * [delivery] [source] [agent]`. The probe passes `level` INFO (it ships `INFO <line>`).
 */
export function billingOnset(journal: Journal, f: BillingFields, level: Level = "ERROR"): void {
  journal.event(level, "wake reported_failure", {
    kind: "billing",
    reason: f.reason ?? "out_of_funds",
    provider: f.provider,
    timeline: f.timeline,
    delivery: f.delivery,
    source: f.source,
    agent: f.agent,
  }, { color: "red" });
}

/**
 * WARNING `wake billing_blocked` (yellow), the debounced repeat: `reason provider timeline
 * [delivery] [source] [agent]`. The probe passes `level` INFO.
 */
export function billingBlocked(journal: Journal, f: BillingFields, level: Level = "WARNING"): void {
  journal.event(level, "wake billing_blocked", {
    reason: f.reason ?? "out_of_funds",
    provider: f.provider,
    timeline: f.timeline,
    delivery: f.delivery,
    source: f.source,
    agent: f.agent,
  }, { color: "yellow" });
}

/** INFO `wake billing_recovered` (green): `timeline [delivery]`. */
export function billingRecovered(journal: Journal, f: {
  timeline: string;
  delivery?: string | null;
}): void {
  journal.event("INFO", "wake billing_recovered", {
    timeline: f.timeline,
    delivery: f.delivery,
  }, { color: "green" });
}

/** Why an item failed permanently (no retry will help). */
export type PermanentReason = "payload_too_large" | "context_length";

/** ERROR `wake reported_failure` (red), permanent: `kind=permanent reason provider item timeline [delivery]`. */
export function permanentFailure(journal: Journal, f: {
  reason: PermanentReason;
  provider: string;
  item: string;
  timeline: string;
  delivery?: string | null;
}): void {
  journal.event("ERROR", "wake reported_failure", {
    kind: "permanent",
    reason: f.reason,
    provider: f.provider,
    item: f.item,
    timeline: f.timeline,
    delivery: f.delivery,
  }, { color: "red" });
}

/** WARNING `degraded` (yellow): `timeline reason` (the turn fell back to the canned narration). */
export function degraded(journal: Journal, f: { timeline: string; reason: string }): void {
  journal.event("WARNING", "degraded", { timeline: f.timeline, reason: f.reason }, {
    color: "yellow",
  });
}

/**
 * WARNING `turn handed off` (yellow): `timeline item result [model] [refusal]` — the model refused
 * (`result=refused`, with the vendor's words when it gave them) or the output limit cut the
 * reply (`result=truncated`). The turn posts nothing more and its tool calls were not run.
 */
export function turnHandedOff(journal: Journal, f: {
  timeline: string;
  item: string;
  result: "refused" | "truncated";
  model?: string;
  refusal?: string;
}): void {
  journal.event("WARNING", "turn handed off", {
    timeline: f.timeline,
    item: f.item,
    result: f.result,
    model: f.model,
    refusal: f.refusal,
  }, { color: "yellow", verbatim: f.refusal === undefined ? [] : ["refusal"] });
}

/** Who tried to post: the agent's `messages` tool, or the wake's own ack/report poster. */
export type PostKind = "tool" | "probe-ack" | "failure-report";

/** ERROR `post failed`: `timeline kind error`; red head only when the `messages` tool failed. */
export function postFailed(journal: Journal, f: {
  timeline: string;
  kind: PostKind;
  error: string;
}): void {
  journal.event("ERROR", "post failed", {
    timeline: f.timeline,
    kind: f.kind,
    error: f.error,
  }, f.kind === "tool" ? { color: "red" } : {});
}

/**
 * WARNING `create unsettled` (yellow): `timeline what attempts error`. A keyed create got no
 * definite answer even re-sent under its key; its claim stays in flight and the next wake's
 * recovery re-sends it under the same key. Not a failure: it may well have gone through.
 */
export function createUnsettled(journal: Journal, f: {
  timeline: string;
  /** What was being created: `message`, `asset`, `task`, `webhook_endpoint`. */
  what: string;
  attempts: number;
  error: string;
}): void {
  journal.event("WARNING", "create unsettled", {
    timeline: f.timeline,
    what: f.what,
    attempts: f.attempts,
    error: f.error,
  }, { color: "yellow" });
}

/** ERROR `cleanup failed` (red): `error`. */
export function cleanupFailed(journal: Journal, f: { error: string }): void {
  journal.event("ERROR", "cleanup failed", { error: f.error }, { color: "red" });
}

/**
 * INFO `escalation sent`: `reason item timeline`. The harness pushed its own notice to the
 * operator (docs/operating.md#escalation); the notice's text is never logged.
 */
export function escalationSent(journal: Journal, f: {
  reason: string;
  item: string;
  timeline: string;
}): void {
  journal.event("INFO", "escalation sent", {
    reason: f.reason,
    item: f.item,
    timeline: f.timeline,
  });
}

/**
 * WARNING `escalation failed` (yellow): `reason item why timeline`. The notice did not go out
 * (after the sender's one retry, where one applies) and is not tried again; `why` never holds
 * the token.
 */
export function escalationFailed(journal: Journal, f: {
  reason: string;
  item: string;
  why: string;
  timeline: string;
}): void {
  journal.event("WARNING", "escalation failed", {
    reason: f.reason,
    item: f.item,
    why: f.why,
    timeline: f.timeline,
  }, { color: "yellow" });
}

/**
 * WARNING `host refused`: `host via`. The host rules refused a request of the harness's own
 * (docs/security.md#host-rules) before it was sent; `via` is the request path (`web_fetch`,
 * `mcp`, `platform`, `model`, `media`, `ntfy`, `xai_management`, `embeddings`, `code`).
 */
export function hostRefused(journal: Journal, f: { host: string; via: string }): void {
  journal.event("WARNING", "host refused", { host: f.host, via: f.via });
}

/**
 * WARNING `url refused`: `via target [hop] reason`. The fetch path refused a URL before any
 * connection (docs/security.md#one-fetch-path): not http(s), credentials in it, or a URL handed
 * to the harness that leads to an address that is not public. `target` is the URL's origin (its
 * scheme alone when not http(s)), never its path or query; `hop` only for a redirect's target.
 */
export function urlRefused(journal: Journal, f: {
  via: string;
  target: string;
  hop: number;
  reason: string;
}): void {
  journal.event("WARNING", "url refused", {
    via: f.via,
    target: f.target || undefined,
    hop: f.hop > 0 ? f.hop : undefined,
    reason: f.reason,
  });
}
