/**
 * Comparing a recorded turn with its replay (docs/records.md#the-diff), the totals over a run and
 * the `--fail-on` rules (docs/records.md#exit-codes). Pure functions of the record and the run.
 */
import type { TurnRecord } from "../home/records/schema.ts";
import type { Diff, Side, Summary, ThresholdReport, TurnReport } from "./report.ts";
import type { TurnRun } from "./turn.ts";

/**
 * Token-set Jaccard similarity (docs/records.md#similarity): each text is lower-cased and cut
 * into its runs of letters and digits (Unicode-aware); the score is |A ∩ B| / |A ∪ B| of the two
 * sets, 1 when both are empty. Order, repetition, case and punctuation do not count.
 */
export function similarity(a: string, b: string): number {
  const left = tokenSet(a);
  const right = tokenSet(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const token of left) if (right.has(token)) shared++;
  return shared / (left.size + right.size - shared);
}

function tokenSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Whether `text` mentions `@handle` (a whole handle, any case). */
export function mentions(text: string, handle: string): boolean {
  const name = handle.replace(/^@/, "").toLowerCase();
  if (name === "") return false;
  return (text.toLowerCase().match(/@([a-z0-9_.-]+)/g) ?? []).some((m) =>
    m.slice(1).replace(/\.+$/, "") === name
  );
}

const step = (name: string, action?: string) => action ? `${name}/${action}` : name;

/** The record's side. */
export function originalSide(record: TurnRecord): Side {
  // The agent's words on every surface; the wake's own acknowledgements and reports are not.
  const verdicts = (record.gate_verdicts ?? [])
    .filter((v) => v.kind !== "probe-ack" && v.kind !== "failure-report")
    .map(({ verdict, checks, tone }) => ({
      verdict,
      checks,
      ...(tone && { tone: { passed: tone.passed, reason: tone.reason, model: tone.model } }),
    }));
  const texts = (record.outbound ?? []).filter((post) => post.kind === "tool")
    .map((post) => post.text ?? "");
  const result = record.result ?? (texts.length ? "spoke" : "silent");
  return {
    result,
    spoke: result === "spoke" || texts.length > 0,
    texts,
    tool_calls: record.tool_calls.map((call) => step(call.name, call.action)),
    verdicts,
    refusals: verdicts.filter((v) => v.verdict === "refused").length,
    tokens_in: record.usage.tokens_in,
    tokens_out: record.usage.tokens_out,
    cached_tokens: record.usage.cached_tokens,
    cost_usd: record.usage.cost_usd,
    model: record.model,
  };
}

/** The replay's side. */
export function replaySide(run: TurnRun, model: string): Side {
  const verdicts = run.verdicts.map(({ verdict, checks, tone }) => ({
    verdict,
    checks: [...checks],
    ...(tone && {
      tone: { passed: tone.passed, reason: tone.reason, model: tone.model, reused: tone.reused },
    }),
  }));
  return {
    result: run.result,
    spoke: run.posts.length > 0,
    texts: [...run.posts],
    tool_calls: run.calls.map((call) => step(call.name, call.action)),
    verdicts,
    refusals: verdicts.filter((v) => v.verdict === "refused").length,
    tokens_in: run.tokensIn,
    tokens_out: run.tokensOut,
    cached_tokens: run.cachedTokens,
    cost_usd: run.costUsd,
    model,
  };
}

/** How the replay differs from the record. */
export function diffSides(before: Side, after: Side): Diff {
  const spokeChanged = before.spoke !== after.spoke;
  const textChanged = before.texts.join("\n") !== after.texts.join("\n");
  const toolsChanged = before.tool_calls.join(",") !== after.tool_calls.join(",");
  // A decision changed, not a judge's wording: a re-judged pass with other words is the same.
  const decisions = (side: Side) => JSON.stringify(side.verdicts.map((v) => [v.verdict, v.checks]));
  const verdictsChanged = decisions(before) !== decisions(after);
  const score = !before.spoke && !after.spoke
    ? 1
    : before.spoke !== after.spoke
    ? 0
    : similarity(before.texts.join("\n"), after.texts.join("\n"));
  // How the turn ended is a change of its own: the same words posted and then a model refusal,
  // or a turn cut at the output limit instead of ending silent, differ in nothing else.
  const resultChange = before.result === after.result
    ? null
    : { before: before.result, after: after.result };
  return {
    changed: spokeChanged || textChanged || toolsChanged || verdictsChanged ||
      resultChange !== null,
    spoke_changed: spokeChanged,
    text_changed: textChanged,
    tools_changed: toolsChanged,
    verdicts_changed: verdictsChanged,
    result_change: resultChange,
    similarity: score,
    tokens_in_delta: after.tokens_in - before.tokens_in,
    tokens_out_delta: after.tokens_out - before.tokens_out,
    cost_delta_usd: before.cost_usd === null || after.cost_usd === null
      ? null
      : after.cost_usd - before.cost_usd,
  };
}

/** The totals over the replayed turns. */
export function summarize(turns: readonly TurnReport[]): Summary {
  const done = turns.filter((t) => t.status === "replayed" && t.replay && t.diff);
  const sum = (f: (t: TurnReport) => number) => done.reduce((n, t) => n + f(t), 0);
  const cost = (side: (t: TurnReport) => Side | undefined) => {
    const costs = done.map((t) => side(t)?.cost_usd ?? null).filter((c) => c !== null);
    return costs.length ? costs.reduce((a, b) => a + b, 0) : null;
  };
  const similarities = done.map((t) => t.diff!.similarity);
  return {
    selected: turns.length,
    replayed: done.length,
    skipped: turns.filter((t) => t.status === "skipped").length,
    failed: turns.filter((t) => t.status === "failed").length,
    changed: done.filter((t) => t.diff!.changed).length,
    results_changed: done.filter((t) => t.diff!.result_change !== null).length,
    spoke_before: done.filter((t) => t.original.spoke).length,
    spoke_after: done.filter((t) => t.replay!.spoke).length,
    refusals_before: sum((t) => t.original.refusals),
    refusals_after: sum((t) => t.replay!.refusals),
    model_refusals_before: done.filter((t) => t.original.result === "refused").length,
    model_refusals_after: done.filter((t) => t.replay!.result === "refused").length,
    replies_to_mentions_before: done.filter((t) => t.mention && t.original.spoke).length,
    replies_to_mentions_after: done.filter((t) => t.mention && t.replay!.spoke).length,
    min_similarity: similarities.length ? Math.min(...similarities) : null,
    tokens_in_before: sum((t) => t.original.tokens_in),
    tokens_in_after: sum((t) => t.replay!.tokens_in),
    tokens_out_before: sum((t) => t.original.tokens_out),
    tokens_out_after: sum((t) => t.replay!.tokens_out),
    cost_usd_before: cost((t) => t.original),
    cost_usd_after: cost((t) => t.replay),
  };
}

/** One `--fail-on` rule, parsed. */
export type FailRule =
  | { readonly kind: "more-refusals" }
  | { readonly kind: "fewer-replies" }
  | { readonly kind: "result-changed" }
  | { readonly kind: "similarity"; readonly below: number };

/** The rules `--fail-on` takes by name (`similarity<N` aside). */
export const NAMED_FAIL_RULES = ["more-refusals", "fewer-replies", "result-changed"] as const;

const isNamedRule = (part: string): part is (typeof NAMED_FAIL_RULES)[number] =>
  (NAMED_FAIL_RULES as readonly string[]).includes(part);

/**
 * Parses `--fail-on`: comma-separated rules, each `more-refusals`, `fewer-replies`,
 * `result-changed` or `similarity<N` with N from 0 to 1. Returns the rules, or the first bad
 * one's message.
 */
export function parseFailOn(raw: string): FailRule[] | string {
  const rules: FailRule[] = [];
  for (const part of raw.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    if (isNamedRule(part)) {
      rules.push({ kind: part });
      continue;
    }
    const match = /^similarity\s*<\s*(\d+(?:\.\d+)?|\.\d+)$/.exec(part);
    const below = match ? Number(match[1]) : Number.NaN;
    if (!match || below < 0 || below > 1) {
      return `--fail-on '${part}' is not a rule: use more-refusals, fewer-replies, ` +
        "result-changed or similarity<N with N from 0 to 1 (e.g. similarity<0.8)";
    }
    rules.push({ kind: "similarity", below });
  }
  if (rules.length === 0) return "--fail-on needs at least one rule";
  return rules;
}

/** `id spoke → refused`, for a rule's detail. */
const endedAs = (t: TurnReport) =>
  `${t.record_id} ${t.diff!.result_change!.before} → ${t.diff!.result_change!.after}`;

/** Judges each rule against the run. */
export function judgeRules(
  rules: readonly FailRule[],
  turns: readonly TurnReport[],
  summary: Summary,
): ThresholdReport[] {
  const replayed = turns.filter((t) => t.status === "replayed" && t.replay && t.diff);
  return rules.map((rule) => {
    if (rule.kind === "more-refusals") {
      // Gate refusals are compared as totals (what the rule always counted); a model refusal is
      // judged per turn, so a turn the model newly refuses is never hidden by another turn that
      // stopped being refused.
      const refused = replayed.filter((t) =>
        t.replay!.result === "refused" && t.original.result !== "refused"
      );
      return {
        rule: "more-refusals",
        crossed: summary.refusals_after > summary.refusals_before || refused.length > 0,
        detail: `gate refusals ${summary.refusals_before} → ${summary.refusals_after}; model ` +
          `refusals ${summary.model_refusals_before} → ${summary.model_refusals_after}` +
          (refused.length ? `, newly refused: ${refused.map((t) => t.record_id).join(", ")}` : ""),
      };
    }
    if (rule.kind === "fewer-replies") {
      return {
        rule: "fewer-replies",
        crossed: summary.replies_to_mentions_after < summary.replies_to_mentions_before,
        detail: `replies to mentions ${summary.replies_to_mentions_before} → ` +
          summary.replies_to_mentions_after,
      };
    }
    if (rule.kind === "result-changed") {
      const ended = replayed.filter((t) => t.diff!.result_change !== null);
      return {
        rule: "result-changed",
        crossed: ended.length > 0,
        detail: ended.length
          ? `${ended.length} turn(s) ended otherwise: ${ended.map(endedAs).join(", ")}`
          : "every replayed turn ended as recorded",
      };
    }
    const low = turns.filter((t) => t.diff && t.diff.similarity < rule.below);
    return {
      rule: `similarity<${rule.below}`,
      crossed: low.length > 0,
      detail: low.length
        ? `${low.length} turn(s) below ${rule.below}: ${low.map((t) => t.record_id).join(", ")}`
        : `every replayed turn at or above ${rule.below}`,
    };
  });
}
