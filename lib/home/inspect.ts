/**
 * A read-only look at `HARNESS_HOME` (docs/operating.md#harness-status), for `harness status` and
 * `harness doctor`: the items in flight (claims no wake has settled), the walls engaged on each
 * timeline (a tripped wake breaker, a billing marker) and the temp files a killed writer
 * stranded. Nothing here writes, removes or indexes anything: unlike a wake's own scans, it does
 * not add to the settled-claims index, and it judges stranded temps without sweeping them.
 */
import { join } from "../base/paths.ts";
import { parsePythonFloat } from "../pycompat/float.ts";
import { unquote } from "../pycompat/quote.ts";
import { isFinalText, isSettled } from "./claim_record.ts";
import { ClaimStore } from "./claims.ts";
import { processAlive } from "./liveness.ts";
import { billingPath, breakerPaths, CLAIM_KINDS, type ClaimKind, claimsDir } from "./paths.ts";
import { readSettledIndex } from "./settled_index.ts";
import { TEMP_STALE_AFTER_SECONDS, timelineTemps } from "./temps.ts";
import { timelinesOnDisk } from "./cleanup.ts";
import { recordedTimelines } from "./records/files.ts";

/** The clock and the liveness probe an inspection uses; both default to the real ones. */
export interface InspectOptions {
  /** Epoch seconds; default the wall clock. */
  readonly now?: number;
  /** Whether a pid is a live process; default `kill(pid, 0)` semantics. */
  readonly isAlive?: (pid: number) => boolean;
}

/** One claim a wake took and has not settled (committed or abandoned). */
export interface InFlightClaim {
  /** The timeline's uuid. */
  readonly timeline: string;
  /** What kind of item was claimed (message, asset, event, task). */
  readonly kind: ClaimKind;
  /** The item's uuid. */
  readonly item: string;
  /** The process that took it (null when the record does not say). */
  readonly pid: number | null;
  /** The 32-hex id of the wake that took it. */
  readonly wake: string | null;
  /** When it was taken, epoch seconds (null when the record does not say). */
  readonly at: number | null;
  /**
   * Whether its wake is over: its pid is gone, or it is older than the 6 h limit (a reused pid).
   * The next wake of the timeline takes such an item over and answers it.
   */
  readonly stale: boolean;
}

/** The walls engaged on one timeline. */
export interface TimelineWalls {
  /** The timeline's uuid. */
  readonly timeline: string;
  /** When the wake breaker tripped, epoch seconds; null when it is not tripped. */
  readonly breakerTrippedAt: number | null;
  /** When the out-of-funds notice was posted, epoch seconds; null when there is no wall. */
  readonly billingBlockedSince: number | null;
}

/** A temp file whose writer is gone, or that nobody touched for 6 h. */
export interface StrandedTemp {
  /** The timeline's uuid. */
  readonly timeline: string;
  /** The temp file's absolute path. */
  readonly path: string;
  /** Its size, so an operator sees what clearing it frees. */
  readonly bytes: number;
}

/**
 * Every timeline with anything under `home` (transcripts, marks, claims, breaker and billing
 * files, turn records), sorted.
 */
export async function homeTimelines(home: string): Promise<string[]> {
  const found = new Set([...await timelinesOnDisk(home), ...await recordedTimelines(home)]);
  return [...found].sort();
}

/**
 * The unsettled claims of `timelines`, by timeline, kind and item, each with its effective owner
 * (followed along take-over tokens) and whether that owner's wake is over, judged by the wakes'
 * own rule (`ClaimStore.isOrphaned`).
 */
export async function inFlightClaims(
  home: string,
  timelines: readonly string[],
  options: InspectOptions = {},
): Promise<InFlightClaim[]> {
  const now = options.now ?? Date.now() / 1000;
  // An observer, not a wake: no pid or wake id of its own can match a claim, so every record is
  // judged on its owner's liveness and age alone.
  const store = new ClaimStore(home, {
    pid: -1,
    wakeId: "",
    now: () => now,
    isAlive: options.isAlive ?? processAlive,
  });
  const out: InFlightClaim[] = [];
  for (const timeline of timelines) {
    for (const kind of CLAIM_KINDS) {
      const dir = claimsDir(home, kind, timeline);
      let names: string[];
      try {
        names = Array.from(Deno.readDirSync(dir), (entry) => entry.name);
      } catch {
        continue; // none of this kind, or unreadable: nothing to report from it
      }
      // The settled-claims index only ever names claims seen final: they are skipped unread.
      const settled = readSettledIndex(dir);
      for (const name of names.sort()) {
        if (!name.endsWith(".claim") || settled.has(name)) continue;
        let text: string;
        try {
          text = Deno.readTextFileSync(join(dir, name));
        } catch {
          continue;
        }
        if (isFinalText(text)) continue;
        const item = unquote(name.slice(0, -".claim".length));
        const record = await store.owner(kind, timeline, item);
        if (record === undefined || isSettled(record)) continue;
        out.push({
          timeline,
          kind,
          item,
          pid: record.pid,
          wake: record.wake,
          at: record.at,
          stale: store.isOrphaned(record),
        });
      }
    }
  }
  return out;
}

/** A marker file's timestamp; null when there is no marker, 0 when its stamp is unreadable. */
function stamp(path: string): number | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return null;
  }
  return parsePythonFloat(text) ?? 0;
}

/**
 * When a wake of `timeline` last ran, engaged or not, epoch seconds: `breaker/<q>.last`, or the
 * newest stamp of the breaker's window when that is newer (a home a Python harness woke, which
 * records every wake there; docs/home-layout.md#breaker-files). Null when neither says.
 */
export function lastWakeSeen(home: string, timeline: string): number | null {
  const paths = breakerPaths(home, timeline);
  const stamps = [readText(paths.last), readText(paths.wakes)]
    .flatMap((text) => text?.split("\n") ?? [])
    .map((line) => parsePythonFloat(line))
    .filter((v): v is number => v !== undefined);
  return stamps.length ? Math.max(...stamps) : null;
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** The timelines of `timelines` with a wall engaged (others are left out). */
export function engagedWalls(home: string, timelines: readonly string[]): TimelineWalls[] {
  const out: TimelineWalls[] = [];
  for (const timeline of timelines) {
    const breakerTrippedAt = stamp(breakerPaths(home, timeline).tripped);
    const billingBlockedSince = stamp(billingPath(home, timeline));
    if (breakerTrippedAt !== null || billingBlockedSince !== null) {
      out.push({ timeline, breakerTrippedAt, billingBlockedSince });
    }
  }
  return out;
}

/**
 * The stranded temps of `timelines`: what the next wake of each timeline would sweep (a writer
 * gone, or untouched for {@link TEMP_STALE_AFTER_SECONDS}), judged the same way, removed never.
 */
export function strandedTemps(
  home: string,
  timelines: readonly string[],
  options: InspectOptions = {},
): StrandedTemp[] {
  const nowMs = (options.now ?? Date.now() / 1000) * 1000;
  const isAlive = options.isAlive ?? processAlive;
  const out: StrandedTemp[] = [];
  for (const timeline of timelines) {
    for (const temp of timelineTemps(home, timeline)) {
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(temp.path);
      } catch {
        continue;
      }
      if (!info.isFile) continue;
      const gone = temp.pid !== undefined && temp.pid !== Deno.pid && !isAlive(temp.pid);
      const modified = info.mtime?.getTime();
      const old = modified !== undefined && nowMs - modified > TEMP_STALE_AFTER_SECONDS * 1000;
      if (gone || old) out.push({ timeline, path: temp.path, bytes: info.size });
    }
  }
  return out;
}
