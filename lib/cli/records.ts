/**
 * `harness records verify | stats`: reads the chained turn records under
 * `$HARNESS_HOME/records/`. `verify` exits 1 naming each damaged chain's first bad line as
 * `records/<file>:<line>: <reason>: <detail>`; `stats` prints the drift numbers per timeline.
 * Read-only: no platform, no model, no credentials.
 */
import { errorMessage } from "../base/error_text.ts";
import { didYouMean } from "../base/suggest.ts";
import { type Command, type Io, processIo, UsageError } from "./command.ts";
import { statsRecords, type TimelineStats, verifyRecords } from "../home/records/mod.ts";

const options = {
  timeline: { type: "string" },
  json: { type: "boolean" },
} as const;

/** What {@link runRecords} is given. */
export interface RecordsRun {
  /** `verify` or `stats`. */
  readonly action: string;
  readonly timeline?: string;
  readonly json?: boolean;
  /** `HARNESS_HOME`; undefined or blank is an error. */
  readonly home: string | undefined;
  readonly io?: Io;
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
    return run.action === "verify" ? await verify(home, run, io) : await stats(home, run, io);
  } catch (error) {
    const message = errorMessage(error);
    io.stderr(`harness records: ${message.replace(/\s+/g, " ").trim()}\n`);
    return 1;
  }
}

async function verify(home: string, run: RecordsRun, io: Io): Promise<number> {
  const report = await verifyRecords(home, { timeline: run.timeline });
  if (run.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
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

async function stats(home: string, run: RecordsRun, io: Io): Promise<number> {
  const rows = await statsRecords(home, { timeline: run.timeline });
  io.stdout(run.json ? `${JSON.stringify({ timelines: rows }, null, 2)}\n` : statsTable(rows));
  return 0;
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

Read the chained turn records under HARNESS_HOME/records/ (one <timeline>.jsonl per timeline).

  verify   check every chain (or one timeline's): each record's hash matches its content,
           each prev_hash is the previous record's hash, and nothing was cut off the end.
           Prints "records ok: …" and exits 0, or names each bad chain's first bad line on
           stderr as records/<file>:<line>: <reason>: <detail> and exits 1. Reasons: edited,
           removed, reordered, duplicate, fork, torn, invalid.
  stats    per timeline: turns, posts (successful messages creates), tokens in/out, cache-hit
           ratio (cached/in), p95 total latency (nearest rank) and cost.

Options:
  --timeline UUID  only this timeline
  --json           print JSON instead of text
  -h, --help       show this help

Environment: HARNESS_HOME (required).
Exit codes: 0 ok; 1 a bad record or an error (named on stderr); 2 a usage error.
`,
  options,
  allowPositionals: true,
  positionalWords: ["verify", "stats"],
  run({ values, positionals }) {
    const [action, extra] = positionals;
    if (action !== "verify" && action !== "stats") {
      throw new UsageError(
        action === undefined
          ? "a subcommand is required: verify or stats"
          : `unknown subcommand '${action}' (expected verify or stats).${
            didYouMean(action, ["verify", "stats"])
          }`,
      );
    }
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    return runRecords({
      action,
      timeline: values.timeline?.trim() || undefined,
      json: values.json === true,
      home: Deno.env.get("HARNESS_HOME"),
    });
  },
};
