/**
 * `harness status [--timeline UUID] [--limit N] [--json]` (docs/operating.md#harness-status):
 * what this box's agent has been doing, from `HARNESS_HOME` alone — no platform, no model, no
 * credentials. Per timeline: the last engaged wakes (from the turn records), the items in flight
 * (claims no wake has settled) and the walls engaged (a tripped wake breaker, a billing wall).
 */
import { errorMessage } from "../base/error_text.ts";
import { type Command, integerFlag, type Io, processIo, UsageError } from "./command.ts";
import { isUuid } from "../base/uuid.ts";
import { engagedWalls, homeTimelines, inFlightClaims, lastWakeSeen } from "../home/inspect.ts";
import { recentWakes, type WakeSummary } from "../home/records/wakes.ts";

const options = {
  timeline: { type: "string" },
  limit: { type: "string" },
  json: { type: "boolean" },
} as const;

/** Wakes shown per timeline when `--limit` is not given. */
export const DEFAULT_WAKES_SHOWN = 5;

/** One item in flight, as `--json` prints it. */
export interface StatusClaim {
  readonly kind: string;
  readonly item: string;
  readonly pid: number | null;
  readonly wake: string | null;
  /** When it was taken (ISO 8601, UTC); null when the claim does not say. */
  readonly since: string | null;
  /** Its wake is over (pid gone, or over 6 h): the next wake takes it over. */
  readonly stale: boolean;
}

/** One timeline, as `--json` prints it. */
export interface StatusTimeline {
  readonly timeline: string;
  /**
   * When the newest wake the breaker window saw (engaged or idle) started, ISO 8601; null when
   * unknown.
   */
  readonly last_wake_started_at: string | null;
  /** The last engaged wakes, newest first. */
  readonly wakes: readonly Omit<WakeSummary, "timeline">[];
  readonly in_flight: readonly StatusClaim[];
  readonly walls: {
    /** When the wake breaker tripped, ISO 8601; null when it is not tripped. */
    readonly breaker_tripped_at: string | null;
    /** When the billing wall went up, ISO 8601; null when there is none. */
    readonly billing_blocked_since: string | null;
  };
}

/** The whole `--json` document. */
export interface StatusReport {
  readonly home: string;
  readonly timelines: readonly StatusTimeline[];
}

/** Epoch seconds as ISO 8601; null stays null (an unreadable stamp, 0, reads as unknown). */
function iso(seconds: number | null): string | null {
  return seconds === null || !(seconds > 0) ? null : new Date(seconds * 1000).toISOString();
}

/** Reads the status of `home` (every timeline on disk, or just `timeline`). Read-only. */
export async function readStatus(
  home: string,
  options: { readonly timeline?: string; readonly limit: number },
): Promise<StatusReport> {
  const timelines = options.timeline === undefined ? await homeTimelines(home) : [options.timeline];
  const wakes = await recentWakes(home, { timeline: options.timeline, limit: options.limit });
  const claims = await inFlightClaims(home, timelines);
  const walls = engagedWalls(home, timelines);
  return {
    home,
    timelines: timelines.map((timeline): StatusTimeline => {
      const wall = walls.find((w) => w.timeline === timeline);
      return {
        timeline,
        last_wake_started_at: iso(lastWakeSeen(home, timeline)),
        wakes: wakes.filter((w) => w.timeline === timeline).map(({ timeline: _, ...wake }) => wake),
        in_flight: claims.filter((c) => c.timeline === timeline).map((c) => ({
          kind: c.kind,
          item: c.item,
          pid: c.pid,
          wake: c.wake,
          since: iso(c.at),
          stale: c.stale,
        })),
        walls: {
          breaker_tripped_at: wall?.breakerTrippedAt != null
            ? iso(wall.breakerTrippedAt) ?? "unknown"
            : null,
          billing_blocked_since: wall?.billingBlockedSince != null
            ? iso(wall.billingBlockedSince) ?? "unknown"
            : null,
        },
      };
    }),
  };
}

const COLUMNS: readonly [string, (w: Omit<WakeSummary, "timeline">) => string][] = [
  ["record_written", (w) => w.record_written_at],
  ["outcome", (w) => (w.outcome_kind ? `${w.outcome}/${w.outcome_kind}` : w.outcome)],
  ["turns", (w) => String(w.turns)],
  ["posted", (w) => String(w.posted)],
  ["results", (w) => resultsCell(w.results)],
  ["steps", (w) => String(w.steps)],
  ["tokens_in", (w) => String(w.tokens_in)],
  ["tokens_out", (w) => String(w.tokens_out)],
  ["cost_usd", (w) => (w.cost_usd === null ? "-" : w.cost_usd.toFixed(4))],
  ["wake", (w) => w.wake_id],
];

/** `escalated:1,spoke:2`: the results the wake's turns came to, in the schema's order. */
function resultsCell(results: WakeSummary["results"]): string {
  const shown = Object.entries(results).filter(([, n]) => n > 0).map(([r, n]) => `${r}:${n}`);
  return shown.length ? shown.join(",") : "-";
}

/** The readable form: a block per timeline with its wakes' table, items in flight and walls. */
export function statusText(report: StatusReport): string {
  if (report.timelines.length === 0) return `no timelines under ${report.home}\n`;
  const blocks = report.timelines.map((t) => {
    const lines = [`timeline ${t.timeline}  last wake started ${t.last_wake_started_at ?? "-"}`];
    if (t.walls.breaker_tripped_at) {
      lines.push(`  WALL wake breaker tripped at ${t.walls.breaker_tripped_at}`);
    }
    if (t.walls.billing_blocked_since) {
      lines.push(`  WALL billing blocked since ${t.walls.billing_blocked_since}`);
    }
    if (t.wakes.length === 0) lines.push("  no engaged wakes recorded");
    else {
      const header = COLUMNS.map(([name]) => name);
      const cells = t.wakes.map((w) => COLUMNS.map(([, cell]) => cell(w)));
      const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
      for (const row of [header, ...cells]) {
        lines.push(`  ${row.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()}`);
      }
    }
    for (const c of t.in_flight) {
      lines.push(
        `  in flight: ${c.kind}/${c.item} pid ${c.pid ?? "-"} since ${c.since ?? "-"}` +
          (c.stale ? " (stale: its wake is over; the next wake takes it over)" : ""),
      );
    }
    return lines.join("\n");
  });
  return `${blocks.join("\n\n")}\n`;
}

/** What {@link runStatus} is given. */
export interface StatusRun {
  /** `HARNESS_HOME`; undefined or blank is an error. */
  readonly home: string | undefined;
  readonly timeline?: string;
  readonly limit: number;
  readonly json?: boolean;
  readonly io?: Io;
}

/** Prints the status and resolves to the exit code. */
export async function runStatus(run: StatusRun): Promise<number> {
  const io = run.io ?? processIo;
  const home = run.home?.trim();
  if (!home) {
    io.stderr(
      "harness status: HARNESS_HOME is not set; it names the directory that keeps this " +
        "agent's records, claims and breaker files.\n",
    );
    return 1;
  }
  try {
    const info = await Deno.stat(home);
    if (!info.isDirectory) throw new Error(`HARNESS_HOME ${home} is not a directory`);
    const report = await readStatus(home, { timeline: run.timeline, limit: run.limit });
    io.stdout(run.json ? `${JSON.stringify(report, null, 2)}\n` : statusText(report));
    return 0;
  } catch (error) {
    const message = error instanceof Deno.errors.NotFound
      ? `HARNESS_HOME ${home} does not exist (no wake has run here yet?)`
      : errorMessage(error).replace(/\s+/g, " ").trim();
    io.stderr(`harness status: ${message}\n`);
    return 1;
  }
}

/** `--timeline`, lower-cased; unlike a wake's, it never falls back to BASECRADLE_TIMELINE. */
function timelineFlag(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (!isUuid(value)) throw new UsageError(`--timeline must be a uuid, got '${value}'`);
  return value.toLowerCase();
}

/** `harness status`. */
export const statusCommand: Command<typeof options> = {
  name: "status",
  usage: `Usage: harness status [--timeline UUID] [--limit N] [--json]

What the agent has been doing, read from HARNESS_HOME alone (no network, no credentials). Per
timeline: when the last wake started (engaged or idle), the walls engaged (a tripped wake
breaker, a billing wall), the last engaged wakes from the turn records (record_written: when the
wake's last turn record was written, at the end of its last turn; outcome, turns, posted,
results — what its turns came to, e.g. escalated:1,refused:1 — steps, tokens_in, tokens_out,
cost_usd, wake id) and the items in flight (claims not yet settled, with
when they were taken; "stale" when their wake is over). A wake that found nothing new writes no
turn record and is not listed.

Options:
  --timeline UUID  only this timeline
  --limit N        engaged wakes shown per timeline (default ${DEFAULT_WAKES_SHOWN})
  --json           print JSON: {home, timelines: [{timeline, last_wake_started_at, wakes,
                   in_flight, walls}]}
  -h, --help       show this help

Environment: HARNESS_HOME (required).
Exit codes: 0 printed; 1 no readable HARNESS_HOME (named on stderr); 2 a usage error.
`,
  options,
  run({ values }) {
    return runStatus({
      home: Deno.env.get("HARNESS_HOME"),
      timeline: timelineFlag(values.timeline),
      limit: integerFlag("limit", values.limit, { min: 1, max: 1000 }) ?? DEFAULT_WAKES_SHOWN,
      json: values.json === true,
    });
  },
};
