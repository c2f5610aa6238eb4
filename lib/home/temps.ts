/**
 * Stranded temp files (docs/home-layout.md#stranded-temp-files). Every replacement under
 * `HARNESS_HOME` stages its bytes in a temp beside the target and renames it over; a writer
 * killed in between (SIGKILL, OOM, power loss) leaves the temp behind, and nothing else would
 * ever remove it — a transcript's temp is a whole copy of the conversation, tens of megabytes.
 * A later wake of the same timeline sweeps that timeline's temps: the ones whose writer is gone,
 * and the ones nobody has touched for {@link TEMP_STALE_AFTER_SECONDS}. A temp a live process
 * may still be filling is never removed.
 *
 * Liveness follows the claims' rule (lib/home/liveness.ts): `kill(pid, 0)` needs the run
 * permission a locked wake gives up, so the wake judges the writers' pids in its liveness
 * snapshot, before it narrows, and hands that lookup to {@link sweepStaleTemps}.
 */
import { parseTempName } from "../base/atomic_write.ts";
import { errorMessage } from "../base/error_text.ts";
import { basename, dirname, join } from "../base/paths.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { quote } from "../pycompat/quote.ts";
import { chainPath, headPath } from "./records/files.ts";
import {
  billingPath,
  breakerPaths,
  CLAIM_KINDS,
  claimsDir,
  markPath,
  seenPath,
  workingStatePath,
} from "./paths.ts";

/**
 * A temp untouched this long is stranded whoever its writer was: a write takes seconds and
 * touches the file as it goes, so only a temp from an unknown naming scheme, or one whose pid
 * has since been reused by another process, lives this long. Six hours, as for an in-flight
 * claim whose pid still looks alive.
 */
export const TEMP_STALE_AFTER_SECONDS = 6 * 60 * 60;

/** One temp file of a timeline, and its writer's pid when the name says. */
export interface TempFile {
  /** The temp file's absolute path. */
  readonly path: string;
  /** The writing process; undefined for a name that does not carry one (age decides). */
  readonly pid: number | undefined;
}

/** A folder holding files of one timeline, and which of its names those are. */
interface Place {
  readonly dir: string;
  /** The timeline's file names here; `undefined`: everything in the folder is the timeline's. */
  readonly targets: ReadonlySet<string> | undefined;
}

/** Every folder a timeline's files live in (docs/home-layout.md#at-a-glance). */
function placesOf(home: string, timeline: string): Place[] {
  const files = [
    join(home, "sessions", `${quote(`timeline:${timeline}`)}.json`),
    markPath(home, "messages", timeline),
    markPath(home, "assets", timeline),
    markPath(home, "webhook_events", timeline),
    seenPath(home, timeline),
    breakerPaths(home, timeline).wakes,
    breakerPaths(home, timeline).tripped,
    breakerPaths(home, timeline).last,
    billingPath(home, timeline),
    workingStatePath(home, timeline),
    chainPath(home, timeline),
    headPath(home, timeline),
  ];
  const byDir = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byDir.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byDir.set(dirname(file), names);
  }
  const places: Place[] = [...byDir].map(([dir, targets]) => ({ dir, targets }));
  // A claims directory is the timeline's alone: its temps stage claim records and tokens.
  for (const kind of CLAIM_KINDS) {
    places.push({ dir: claimsDir(home, kind, timeline), targets: undefined });
  }
  return places;
}

// A claim commit's temp, `<uuid>.claim.<pid>.tmp` (lib/home/claims.ts).
const CLAIM_COMMIT_TEMP = /^.+\.claim\.([1-9][0-9]{0,9})\.tmp$/;
// A claim birth's or take-over's temp, `.<uuid>.<wake>.new` / `.<uuid>.<wake>.takeover.new`.
const CLAIM_LINK_TEMP = /^\..+\.new$/;
// Any `<target>.<stamp>.tmp`, the shape every atomic write here has used, whoever wrote it.
const STAMP = /^[^./]+\.tmp$/;

/** The temp `name` found in `place`, or undefined when `name` is not one of its temps. */
function tempIn(place: Place, name: string): TempFile | undefined {
  // Most names are not temps (a claims folder holds one claim per item ever answered): this
  // runs on every wake, so they are turned away before any regular expression or path.
  if (!name.endsWith(".tmp") && !name.endsWith(".new")) return undefined;
  const path = join(place.dir, name);
  const parsed = parseTempName(name);
  if (place.targets === undefined) {
    if (parsed) return { path, pid: parsed.pid };
    const commit = CLAIM_COMMIT_TEMP.exec(name);
    if (commit) return { path, pid: Number(commit[1]) };
    if (CLAIM_LINK_TEMP.test(name) || name.endsWith(".tmp")) return { path, pid: undefined };
    return undefined;
  }
  if (parsed && place.targets.has(parsed.target)) return { path, pid: parsed.pid };
  for (const target of place.targets) {
    if (name.startsWith(`${target}.`) && STAMP.test(name.slice(target.length + 1))) {
      return { path, pid: undefined }; // an older or foreign scheme: no pid to ask
    }
  }
  return undefined;
}

/** One folder's temps, and what went wrong listing it (nothing when it simply does not exist). */
interface Listing {
  readonly temps: TempFile[];
  readonly problem?: { readonly dir: string; readonly reason: string };
}

/** Folder → the entry names already read there (the liveness snapshot's claims listings). */
export type Listed = ReadonlyMap<string, readonly string[]>;

/**
 * The temp files of `timeline` under `home`, read synchronously (a handful of folders). A folder
 * in `listed` is not read again: a claims folder holds one file per item ever answered, and the
 * liveness snapshot has just listed it.
 */
function listTemps(home: string, timeline: string, listed?: Listed): Listing[] {
  const out: Listing[] = [];
  for (const place of placesOf(home, timeline)) {
    const known = listed?.get(place.dir);
    if (known) {
      // No entry types here: judge() looks at each candidate before it removes anything.
      const temps = known.map((name) => tempIn(place, name)).filter((t) => t !== undefined);
      out.push({ temps });
      continue;
    }
    let entries: Deno.DirEntry[];
    try {
      entries = Array.from(Deno.readDirSync(place.dir));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
        continue;
      }
      out.push({ temps: [], problem: { dir: place.dir, reason: errorMessage(error) } });
      continue;
    }
    const temps: TempFile[] = [];
    for (const entry of entries) {
      // Only plain files: a directory or a link with a temp's name is nothing a write left.
      if (!entry.isFile) continue;
      const temp = tempIn(place, entry.name);
      if (temp) temps.push(temp);
    }
    out.push({ temps });
  }
  return out;
}

/**
 * The temp files of `timeline` under `home` (unreadable folders are skipped); the folders in
 * `listed` are taken as already read.
 */
export function timelineTemps(home: string, timeline: string, listed?: Listed): TempFile[] {
  return listTemps(home, timeline, listed).flatMap((listing) => listing.temps);
}

/** The temps each liveness snapshot found, so the sweep it is handed to need not list again. */
const FOUND = new WeakMap<(pid: number) => boolean, readonly TempFile[]>();

/**
 * Records that the liveness lookup `isAlive` judged the writers of `temps` (what
 * `livenessSnapshot` found): {@link sweepStaleTemps} given that lookup sweeps these instead of
 * listing the timeline's folders a second time in the same wake.
 */
export function rememberTemps(
  isAlive: (pid: number) => boolean,
  temps: readonly TempFile[],
): void {
  FOUND.set(isAlive, temps);
}

/** How {@link sweepStaleTemps} decides. */
export interface TempSweepOptions {
  /**
   * Whether a pid is alive: the wake's `livenessSnapshot(home, timeline)` (which judged these
   * pids before the permissions narrowed), or `processAlive` where `kill` is allowed.
   */
  readonly isAlive: (pid: number) => boolean;
  /** Where the removal lines go (default: nowhere). */
  readonly journal?: Journal;
  /** The clock, epoch milliseconds (default: now). */
  readonly now?: number;
  /** Age past which any temp is stranded (default {@link TEMP_STALE_AFTER_SECONDS}). */
  readonly staleAfterSeconds?: number;
  /** This process's pid, whose temps are never judged by liveness (default `Deno.pid`). */
  readonly pid?: number;
}

/** What one sweep removed. */
export interface TempSweepResult {
  /** The temps removed, in the order found. */
  readonly removed: readonly string[];
  /** Their total size in bytes. */
  readonly bytes: number;
}

/**
 * Removes the stranded temp files of `timeline`'s files under `home` — its transcript, marks,
 * seen-set, claims, breaker and billing files and turn records: a temp whose writer's pid is
 * not alive, and any temp not modified for `staleAfterSeconds` (a temp with no pid in its name,
 * or a pid since reused). A temp of a live writer younger than that is kept, and so is every
 * temp of this very process. Each removal is an INFO line; a temp or folder that cannot be
 * handled is a WARNING and the sweep goes on. Never throws: housekeeping must not fail a wake.
 * Given the wake's liveness snapshot, it sweeps the temps that snapshot found (and judged).
 */
export function sweepStaleTemps(
  home: string,
  timeline: string,
  options: TempSweepOptions,
): TempSweepResult {
  const journal = options.journal ?? silentJournal;
  const now = options.now ?? Date.now();
  const staleAfter = options.staleAfterSeconds ?? TEMP_STALE_AFTER_SECONDS;
  const self = options.pid ?? Deno.pid;
  const removed: string[] = [];
  let bytes = 0;
  let listings: Listing[];
  try {
    const found = FOUND.get(options.isAlive);
    listings = found ? [{ temps: [...found] }] : listTemps(home, timeline);
  } catch (error) {
    journal.text("WARNING", `Could not look for stale temp files: ${errorMessage(error)}`);
    return { removed, bytes };
  }
  for (const { temps, problem } of listings) {
    if (problem) {
      journal.text(
        "WARNING",
        `Could not look for stale temp files in ${problem.dir}: ${problem.reason}`,
      );
    }
    for (const temp of temps) {
      const verdict = judge(temp, { now, staleAfter, self, isAlive: options.isAlive });
      if (verdict === undefined) continue;
      try {
        Deno.removeSync(temp.path);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) continue; // its writer renamed it after all
        journal.text(
          "WARNING",
          `Could not remove stale temp file ${temp.path}: ${errorMessage(error)}`,
        );
        continue;
      }
      removed.push(temp.path);
      bytes += verdict.size;
      journal.text(
        "INFO",
        `Removed stale temp file ${temp.path} (${verdict.size} bytes): ${verdict.reason}.`,
      );
    }
  }
  return { removed, bytes };
}

/** Why `temp` is stranded, with its size; undefined when it must be kept. */
function judge(
  temp: TempFile,
  rule: {
    readonly now: number;
    readonly staleAfter: number;
    readonly self: number;
    readonly isAlive: (pid: number) => boolean;
  },
): { reason: string; size: number } | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(temp.path);
  } catch {
    return undefined; // gone meanwhile (renamed into place), or not ours to judge
  }
  if (!info.isFile) return undefined;
  const { pid } = temp;
  if (pid !== undefined && pid !== rule.self && !rule.isAlive(pid)) {
    return { reason: `its writer (pid ${pid}) is gone`, size: info.size };
  }
  // No modification time (not on Linux) means no age: such a temp waits for its writer's end.
  const modified = info.mtime?.getTime();
  if (modified !== undefined && rule.now - modified > rule.staleAfter * 1000) {
    const age = rule.staleAfter % 3600 === 0
      ? `${rule.staleAfter / 3600} h`
      : `${rule.staleAfter} s`;
    const owner = pid === undefined ? "its name names no writer" : `pid ${pid} is alive`;
    return { reason: `untouched for over ${age} (${owner})`, size: info.size };
  }
  return undefined;
}
