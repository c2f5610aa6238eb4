/**
 * `harness records verify | stats | show`: reads the chained turn records under
 * `$HARNESS_HOME/records/`. `verify` exits 1 naming each damaged chain's first bad line as
 * `records/<file>:<line>: <reason>: <detail>`; `stats` prints the drift numbers per timeline;
 * `show` prints what each turn read and said (docs/records.md#reading-what-was-said).
 * Read-only: no platform, no model, no credentials.
 */
import { errorMessage } from "../base/error_text.ts";
import { didYouMean } from "../base/suggest.ts";
import { type Command, integerFlag, type Io, processIo, UsageError } from "./command.ts";
import { instantFlag } from "./instant_flag.ts";
import { showRecords } from "./records_show.ts";
import {
  type DriftBucket,
  type DriftBy,
  driftRecords,
  type DriftReport,
  parseSince,
  recordsListing,
  statsRecords,
  type TimelineStats,
  type TurnResult,
  TurnResultSchema,
  type TurnSelection,
  verifyRecords,
} from "../home/records/mod.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { builtInPriceTable, loadPrices } from "../config/prices.ts";
import { isTerminal } from "../journal/output.ts";
import {
  ALERT_OPTIONS,
  alertThresholds,
  DEFAULT_ALERT_SPAN,
  reportAlert,
  type Threshold,
} from "./records_alert.ts";

/** The subcommands, likeliest first (a typo is answered with the nearest). */
const ACTIONS = ["verify", "stats", "show"] as const;
/** The results `--result` can pick. */
const RESULTS: readonly TurnResult[] = TurnResultSchema.options;

/** The series `--chart` can draw. */
const CHART_SERIES = ["cost", "tokens", "p95", "cache"] as const;
/** One chartable series. */
export type ChartSeries = typeof CHART_SERIES[number];

const options = {
  timeline: { type: "string" },
  json: { type: "boolean" },
  since: { type: "string" },
  by: { type: "string", values: ["day", "week"] },
  chart: { type: "string", values: CHART_SERIES },
  until: { type: "string" },
  last: { type: "string" },
  result: { type: "string", values: RESULTS },
  ...ALERT_OPTIONS,
} as const;

/** What {@link runRecords} is given. */
export interface RecordsRun {
  /** `verify`, `stats` or `show`. */
  readonly action: string;
  readonly timeline?: string;
  readonly json?: boolean;
  /** `HARNESS_HOME`; undefined or blank is an error. */
  readonly home: string | undefined;
  readonly io?: Io;
  /** `--since` as parsed: the window's start (drift mode, docs/records.md#drift-over-time). */
  readonly since?: Date;
  readonly by?: DriftBy;
  readonly chart?: ChartSeries;
  /** Where `prices.json` is looked for; none: only the built-in prices apply. */
  readonly configHome?: string;
  /** Whether stdout is a terminal (a chart is drawn only then). */
  readonly terminal?: boolean;
  /** `show`: which turns (`since`, `until`, `result`, `last`; `timeline` above wins). */
  readonly selection?: TurnSelection;
  /** `stats --alert`: the thresholds, and the span `since` came from (for the report). */
  readonly alert?: { readonly thresholds: readonly Threshold[]; readonly span: string };
}

/** Runs a records action and resolves to the exit code. */
export async function runRecords(run: RecordsRun): Promise<number> {
  const io = run.io ?? processIo;
  const home = run.home?.trim();
  if (!home) {
    io.stderr(
      "harness records: HARNESS_HOME is not set; it names the directory whose records/ " +
        "folder holds the turn records.\n",
    );
    return 1;
  }
  try {
    if (run.action === "verify") return await verify(home, run, io);
    if (run.timeline === undefined) await nameSkipped(home, io);
    if (run.action === "show") {
      const selection = { ...run.selection, timeline: run.timeline };
      return await showRecords(home, selection, run.json === true, io);
    }
    if (run.alert && run.since) {
      const report = await driftRecords(home, {
        since: run.since,
        by: "day",
        timeline: run.timeline,
      });
      return reportAlert(report, run.alert.thresholds, run.alert.span, run.json === true, io);
    }
    return run.since ? await drift(home, run, run.since, io) : await stats(home, run, io);
  } catch (error) {
    const message = errorMessage(error);
    io.stderr(`harness records: ${message.replace(/\s+/g, " ").trim()}\n`);
    return 1;
  }
}

async function verify(home: string, run: RecordsRun, io: Io): Promise<number> {
  const report = await verifyRecords(home, { timeline: run.timeline });
  if (run.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  for (const { entry, why } of report.skipped) io.stderr(`${entry}: skipped: ${why}\n`);
  for (const bad of report.bad) {
    io.stderr(`${bad.file}:${bad.line}: ${bad.reason}: ${bad.detail}\n`);
  }
  if (!report.ok) return 1;
  if (!run.json) {
    const n = report.chains.length;
    io.stdout(
      `records ok: ${report.records} record${report.records === 1 ? "" : "s"} in ${n} ` +
        `chain${n === 1 ? "" : "s"}\n`,
    );
  }
  return 0;
}

/**
 * Names each entry of `records/` that holds no chain, head or anchor on stderr (stats and show
 * read every chain but those, and never fail for them).
 */
async function nameSkipped(home: string, io: Io): Promise<void> {
  for (const { entry, why } of (await recordsListing(home)).skipped) {
    io.stderr(`${entry}: skipped: ${why}\n`);
  }
}

async function stats(home: string, run: RecordsRun, io: Io): Promise<number> {
  const rows = await statsRecords(home, { timeline: run.timeline });
  io.stdout(run.json ? `${JSON.stringify({ timelines: rows }, null, 2)}\n` : statsTable(rows));
  return 0;
}

async function drift(home: string, run: RecordsRun, since: Date, io: Io): Promise<number> {
  const prices = run.configHome === undefined
    ? builtInPriceTable()
    : await loadPrices(run.configHome);
  const report = await driftRecords(home, {
    since,
    by: run.by ?? "day",
    timeline: run.timeline,
    prices,
  });
  if (run.json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  io.stdout(driftTable(report));
  if (run.chart && run.terminal && report.buckets.length > 0) {
    io.stdout(driftChart(report.buckets, run.chart));
  }
  return 0;
}

const pct = (ratio: number | null) => ratio === null ? "-" : `${(ratio * 100).toFixed(1)}%`;

const DRIFT_COLUMNS: readonly [string, (row: DriftBucket) => string][] = [
  ["turns", (r) => String(r.turns)],
  ["wakes", (r) => String(r.wakes)],
  ["guard_fail", (r) => pct(r.guardrail_failure_rate)],
  ["escalated", (r) => pct(r.escalation_rate)],
  ["p95_ms", (r) => r.p95_latency_ms === null ? "-" : String(Math.round(r.p95_latency_ms))],
  ["cache_hit", (r) => pct(r.cache_hit_ratio)],
  ["tokens_in", (r) => String(r.tokens_in)],
  ["tokens_out", (r) => String(r.tokens_out)],
  ["cost_usd", (r) => r.cost_usd === null ? "-" : r.cost_usd.toFixed(4)],
];

/** The drift table: one row per period, then the window's total. */
export function driftTable(report: DriftReport): string {
  if (report.total.turns === 0) return `no turn records since ${report.since}\n`;
  const rows = [...report.buckets, report.total];
  const header = [report.by === "day" ? "day" : "week_of", ...DRIFT_COLUMNS.map(([n]) => n)];
  const cells = rows.map((row) => [row.period, ...DRIFT_COLUMNS.map(([, cell]) => cell(row))]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const render = (cols: string[]) =>
    cols.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ")
      .trimEnd();
  const notes = [
    report.total.unpriced_turns > 0
      ? `${report.total.unpriced_turns} turn(s) had no provider cost and no prices.json entry\n`
      : "",
    report.unreadable > 0 ? `${report.unreadable} unreadable line(s) skipped\n` : "",
  ].join("");
  return `${[header, ...cells].map(render).join("\n")}\n${notes}`;
}

const SERIES: Readonly<Record<ChartSeries, (row: DriftBucket) => number | null>> = {
  cost: (r) => r.cost_usd,
  tokens: (r) => r.tokens_in + r.tokens_out,
  p95: (r) => r.p95_latency_ms,
  cache: (r) => r.cache_hit_ratio === null ? null : r.cache_hit_ratio * 100,
};
const BLOCKS = "▁▂▃▄▅▆▇█";
const BAR_WIDTH = 40;

/** A sparkline of `series` over the periods, then one bar per period (full blocks, scaled). */
export function driftChart(buckets: readonly DriftBucket[], series: ChartSeries): string {
  const values = buckets.map(SERIES[series]);
  const max = Math.max(0, ...values.map((v) => v ?? 0));
  const level = (v: number | null) =>
    v === null ? " " : BLOCKS[max === 0 ? 0 : Math.min(7, Math.floor((v / max) * 7.999))];
  const spark = values.map(level).join("");
  const width = Math.max(...buckets.map((b) => b.period.length));
  const bars = buckets.map((bucket, i) => {
    const v = values[i];
    const n = v === null || max === 0 ? 0 : Math.round((v / max) * BAR_WIDTH);
    const shown = v === null ? "-" : series === "cost" ? v.toFixed(4) : String(Math.round(v));
    return `${bucket.period.padEnd(width)}  ${"█".repeat(n).padEnd(BAR_WIDTH)}  ${shown}`;
  });
  return `\n${series}: ${spark}\n${bars.join("\n")}\n`;
}

const COLUMNS: readonly [string, (row: TimelineStats) => string][] = [
  ["turns", (r) => String(r.turns)],
  ["posts", (r) => String(r.posts)],
  ["tokens_in", (r) => String(r.tokens_in)],
  ["tokens_out", (r) => String(r.tokens_out)],
  [
    "cache_hit",
    (r) => r.cache_hit_ratio === null ? "-" : `${(r.cache_hit_ratio * 100).toFixed(1)}%`,
  ],
  ["p95_ms", (r) => r.p95_latency_ms === null ? "-" : String(Math.round(r.p95_latency_ms))],
  ["cost_usd", (r) => r.cost_usd === null ? "-" : r.cost_usd.toFixed(4)],
  // The hand-offs: turns the harness stopped, the model refused, or the output limit cut.
  ["escalated", (r) => String(r.results.escalated)],
  ["refused", (r) => String(r.results.refused)],
  ["truncated", (r) => String(r.results.truncated)],
];

/** The readable table: the timeline left-aligned, numbers right-aligned. */
export function statsTable(rows: readonly TimelineStats[]): string {
  if (rows.length === 0) return "no turn records\n";
  const cells = rows.map((row) => [row.timeline, ...COLUMNS.map(([, cell]) => cell(row))]);
  const header = ["timeline", ...COLUMNS.map(([name]) => name)];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const render = (cols: string[]) =>
    cols.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ")
      .trimEnd();
  const unreadable = rows.filter((r) => r.unreadable > 0)
    .map((r) => `${r.timeline}: ${r.unreadable} unreadable line(s) skipped\n`).join("");
  return `${[header, ...cells].map(render).join("\n")}\n${unreadable}`;
}

/** `harness records`. */
export const recordsCommand: Command<typeof options> = {
  name: "records",
  usage: `Usage: harness records verify [--timeline UUID] [--json]
       harness records stats [--timeline UUID] [--json]
       harness records stats --since SPAN [--by day|week] [--chart SERIES] [--timeline UUID]
                             [--json]
       harness records stats --alert [--since SPAN] [--timeline UUID] [--json]
                             [--max-guardrail-failure-rate R] [--max-escalation-rate R]
                             [--max-p95-latency-ms MS] [--min-cache-hit-rate R]
       harness records show [--timeline UUID] [--since WHEN] [--until WHEN] [--last N]
                            [--result spoke|silent|escalated|refused|truncated|failed] [--json]

Read the chained turn records under HARNESS_HOME/records/ (one <timeline>.jsonl per timeline).

  verify   check every chain (or one timeline's): each record's hash matches its content,
           each line is spelled as the writer spells it, each prev_hash is the previous
           record's hash, and nothing was cut off the end (the head and the witness log both
           name the last record written). Prints "records ok: …" and exits 0, or names each
           bad chain's first bad line on stderr as records/<file>:<line>: <reason>: <detail>
           and exits 1. Reasons: edited, removed, reordered, duplicate, fork, torn, invalid.
           Entries of records/ that are no chain, head or anchor are named on stderr as
           records/<name>: skipped: <why>, and skipped (so by stats and show).
  stats    per timeline: turns, posts (successful messages creates), tokens in/out, cache-hit
           ratio (cached/in), p95 total latency (nearest rank), cost, and the hand-offs:
           turns escalated, refused by the model, or truncated by the output limit.
           With --since: the drift numbers per UTC day or ISO week over the window —
           guardrail-failure rate (turns with a gate refusal / turns), escalation rate,
           p95 latency, cache-hit rate — with tokens, cost and wakes, and the total.
           prices.json in the config home prices turns whose provider reported no cost.
           With --alert: the window's (default --since 1d) four drift numbers against the
           thresholds given (rates from 0 to 1): one ok/ALERT line each on stdout, and
           "ALERT <number> <value> is over|under --<flag> <threshold>" on stderr for each
           crossed one. Exit 0 none crossed, 1 at least one, 3 no turns in the window.
  show     one entry per turn, oldest first: time, timeline, result, model, tokens
           in/out/cached, cost, what the agent read (first 200 characters; whole in --json)
           and each post's uuid and text. Records kept in hashes mode show "(hashes only)".
           Nothing selected prints "no turns …" and exits 0.

Options:
  --timeline UUID  only this timeline
  --json           print JSON instead of text
  --since SPAN     only records of the last SPAN: <n>h, <n>d or <n>w (e.g. 7d);
                   show also takes an ISO 8601 time
  --until WHEN     show: only records written at or before WHEN (a span back or ISO 8601)
  --last N         show: after the other filters, only the newest N turns
  --result R       show: only turns that came to R (spoke, silent, escalated, refused,
                   truncated, failed)
  --by day|week    bucket by UTC day (default) or by ISO week (Monday to Sunday)
  --chart SERIES   below the table, a bar chart of cost, tokens, p95 or cache per period;
                   drawn only when stdout is a terminal
  --alert          stats: judge the window against the thresholds below (for a timer)
  --max-guardrail-failure-rate R   alert when turns with a gate refusal / turns > R
  --max-escalation-rate R          alert when escalated turns / turns > R
  --max-p95-latency-ms MS          alert when the p95 total turn latency > MS
  --min-cache-hit-rate R           alert when cached / input tokens < R
  -h, --help       show this help

Environment: HARNESS_HOME (required); BASECRADLE_CONFIG_HOME or HOME (for prices.json).
Exit codes: 0 ok; 1 a bad record, a crossed --alert threshold or an error (named on stderr);
2 a usage error; 3 stats --alert found no turns in the window.
`,
  options,
  allowPositionals: true,
  positionalWords: [...ACTIONS],
  run({ values, positionals }) {
    const [action, extra] = positionals;
    if (action !== "verify" && action !== "stats" && action !== "show") {
      throw new UsageError(
        action === undefined
          ? "a subcommand is required: verify, stats or show"
          : `unknown subcommand '${action}' (expected verify, stats or show).${
            didYouMean(action, ACTIONS)
          }`,
      );
    }
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    const thresholds = alertThresholds(values);
    if (thresholds && action !== "stats") throw new UsageError("--alert is an option of stats");
    if (action === "show") return show(values);
    const only = (["until", "last", "result"] as const).filter((k) => values[k] !== undefined);
    if (only.length > 0) throw new UsageError(`--${only[0]} is an option of show`);
    const span = values.since?.trim() ?? (thresholds ? DEFAULT_ALERT_SPAN : undefined);
    const since = span === undefined ? undefined : parseSince(span, new Date());
    if (span !== undefined && since === undefined) {
      throw new UsageError(`--since '${span}' is not a span: use <n>h, <n>d or <n>w (e.g. 7d)`);
    }
    const by = values.by?.trim();
    if (by !== undefined && by !== "day" && by !== "week") {
      throw new UsageError(`--by '${by}' must be day or week`);
    }
    const chart = values.chart?.trim();
    if (chart !== undefined && !(CHART_SERIES as readonly string[]).includes(chart)) {
      throw new UsageError(`--chart '${chart}' must be one of ${CHART_SERIES.join(", ")}`);
    }
    if ((by !== undefined || chart !== undefined) && since === undefined) {
      throw new UsageError("--by and --chart need --since (e.g. --since 7d)");
    }
    if (since !== undefined && action !== "stats") {
      throw new UsageError("--since, --by and --chart are options of stats");
    }
    return runRecords({
      action,
      timeline: values.timeline?.trim() || undefined,
      json: values.json === true,
      home: Deno.env.get("HARNESS_HOME"),
      since,
      by: by as DriftBy | undefined,
      chart: chart as ChartSeries | undefined,
      configHome: since === undefined ? undefined : configHomeOrNone(),
      terminal: chart !== undefined && isTerminal("stdout"),
      alert: thresholds && span !== undefined ? { thresholds, span } : undefined,
    });
  },
};

/** `records show`: the selection flags checked, then the run. */
function show(values: {
  timeline?: string;
  json?: boolean;
  since?: string;
  until?: string;
  last?: string;
  result?: string;
  by?: string;
  chart?: string;
}): Promise<number> {
  if (values.by !== undefined || values.chart !== undefined) {
    throw new UsageError(`--${values.by !== undefined ? "by" : "chart"} is an option of stats`);
  }
  const now = new Date();
  const result = values.result?.trim();
  if (result !== undefined && !(RESULTS as readonly string[]).includes(result)) {
    throw new UsageError(
      `--result '${result}' must be one of ${RESULTS.join(", ")}.${didYouMean(result, RESULTS)}`,
    );
  }
  return runRecords({
    action: "show",
    timeline: values.timeline?.trim() || undefined,
    json: values.json === true,
    home: Deno.env.get("HARNESS_HOME"),
    selection: {
      since: instantFlag("since", values.since, now),
      until: instantFlag("until", values.until, now),
      last: integerFlag("last", values.last, { min: 1, max: 1_000_000 }),
      result: result as TurnResult | undefined,
    },
  });
}

/** The config home for `prices.json`; none when it cannot be found (built-in prices only). */
function configHomeOrNone(): string | undefined {
  try {
    return resolveConfigHome({
      configHome: Deno.env.get("BASECRADLE_CONFIG_HOME"),
      home: Deno.env.get("HOME"),
    });
  } catch {
    return undefined;
  }
}
