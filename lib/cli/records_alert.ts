/**
 * `harness records stats --alert` (docs/records.md#alerting-on-drift): the four drift numbers of
 * one window — guardrail-failure rate, escalation rate, p95 latency, cache-hit rate — held
 * against the operator's thresholds, for a timer to run. Exit 0 when none is crossed, 1 naming
 * each crossed threshold on stderr, {@link NO_DATA_EXIT} when the window holds no turn at all.
 */
import type { Io } from "./command.ts";
import { UsageError } from "./command.ts";
import type { DriftReport } from "../home/records/mod.ts";

/** The exit code of an alert run whose window holds no turn (nothing to judge). */
export const NO_DATA_EXIT = 3;
/** The window an alert judges when `--since` is not given. */
export const DEFAULT_ALERT_SPAN = "1d";

/** One threshold flag: the drift number it reads and which side of it is wrong. */
interface Rule {
  /** The flag, without `--`. */
  readonly flag: string;
  /** The field of {@link DriftBucket} it reads. */
  readonly metric:
    | "guardrail_failure_rate"
    | "escalation_rate"
    | "p95_latency_ms"
    | "cache_hit_ratio";
  /** `max`: crossed above the threshold; `min`: crossed below it. */
  readonly side: "max" | "min";
  /** A rate is a number from 0 to 1; milliseconds are any number from 0. */
  readonly unit: "rate" | "ms";
}

/** The threshold flags, in the order they are judged and reported. */
export const ALERT_RULES: readonly Rule[] = [
  {
    flag: "max-guardrail-failure-rate",
    metric: "guardrail_failure_rate",
    side: "max",
    unit: "rate",
  },
  { flag: "max-escalation-rate", metric: "escalation_rate", side: "max", unit: "rate" },
  { flag: "max-p95-latency-ms", metric: "p95_latency_ms", side: "max", unit: "ms" },
  { flag: "min-cache-hit-rate", metric: "cache_hit_ratio", side: "min", unit: "rate" },
];

/** The threshold flags as the argument parser declares them. */
export const ALERT_OPTIONS = {
  alert: { type: "boolean" },
  "max-guardrail-failure-rate": { type: "string" },
  "max-escalation-rate": { type: "string" },
  "max-p95-latency-ms": { type: "string" },
  "min-cache-hit-rate": { type: "string" },
} as const;

/** One threshold as given. */
export interface Threshold {
  readonly rule: Rule;
  readonly value: number;
}

/**
 * The thresholds from the parsed flags; undefined when `--alert` is not given.
 * @throws {UsageError} for a threshold without `--alert`, `--alert` without a threshold, or a
 * value that is not a plain number in its range.
 */
export function alertThresholds(
  values: Readonly<Record<string, string | boolean | undefined>>,
): Threshold[] | undefined {
  const given = ALERT_RULES.filter((rule) => values[rule.flag] !== undefined);
  if (values.alert !== true) {
    if (given.length) throw new UsageError(`--${given[0].flag} is an option of stats --alert`);
    return undefined;
  }
  if (!given.length) {
    throw new UsageError(
      `--alert needs at least one threshold: ${ALERT_RULES.map((r) => `--${r.flag}`).join(", ")}`,
    );
  }
  return given.map((rule) => ({ rule, value: thresholdValue(rule, String(values[rule.flag])) }));
}

function thresholdValue(rule: Rule, raw: string): number {
  const text = raw.trim();
  const value = Number(text);
  const plain = /^\d+(\.\d+)?$/.test(text) && Number.isFinite(value);
  if (rule.unit === "rate" && (!plain || value > 1)) {
    throw new UsageError(
      `--${rule.flag} '${raw}' must be a rate from 0 to 1 (e.g. 0.05 for 5%)`,
    );
  }
  if (rule.unit === "ms" && !plain) {
    throw new UsageError(
      `--${rule.flag} '${raw}' must be a number of milliseconds from 0 (e.g. 30000)`,
    );
  }
  return value;
}

/** One judged threshold. */
export interface AlertCheck {
  readonly metric: Rule["metric"];
  readonly flag: string;
  readonly side: Rule["side"];
  readonly threshold: number;
  /** The window's number; null when it has none (no latency, no input tokens). */
  readonly value: number | null;
  readonly crossed: boolean;
}

/** Judges `report.total` against `thresholds`; a number the window lacks is never crossed. */
export function judge(report: DriftReport, thresholds: readonly Threshold[]): AlertCheck[] {
  return thresholds.map(({ rule, value: threshold }) => {
    const value = report.total[rule.metric];
    const crossed = value !== null &&
      (rule.side === "max" ? value > threshold : value < threshold);
    return { metric: rule.metric, flag: rule.flag, side: rule.side, threshold, value, crossed };
  });
}

/**
 * Prints the verdict and resolves to the exit code: one line per threshold on stdout (or one
 * JSON document), and an `ALERT` line per crossed threshold on stderr.
 */
export function reportAlert(
  report: DriftReport,
  thresholds: readonly Threshold[],
  span: string,
  json: boolean,
  io: Io,
): number {
  const turns = report.total.turns;
  const checks = turns === 0 ? [] : judge(report, thresholds);
  const crossed = checks.filter((check) => check.crossed);
  const window = `since ${report.since} (--since ${span}), ${turns} turn(s)`;
  if (json) {
    const document = { since: report.since, turns, checks, crossed: crossed.length };
    io.stdout(`${JSON.stringify(document, null, 2)}\n`);
  } else if (turns > 0) {
    io.stdout(`records alert: ${window}\n`);
    for (const check of checks) {
      io.stdout(
        `${check.crossed ? "ALERT" : "ok   "} ${check.metric} ${shown(check.value)} ` +
          `(${check.side} ${check.threshold})\n`,
      );
    }
  }
  if (turns === 0) {
    io.stderr(
      `harness records: no turns ${window.replace(/, 0 turn\(s\)$/, "")}: nothing to judge; ` +
        `exit ${NO_DATA_EXIT}.\n`,
    );
    return NO_DATA_EXIT;
  }
  for (const check of crossed) {
    const word = check.side === "max" ? "over" : "under";
    io.stderr(
      `harness records: ALERT ${check.metric} ${shown(check.value)} is ${word} ` +
        `--${check.flag} ${check.threshold}, ${window}\n`,
    );
  }
  return crossed.length ? 1 : 0;
}

/** A rate to four places, milliseconds whole; `-` when the window has none. */
function shown(value: number | null): string {
  if (value === null) return "-";
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}
