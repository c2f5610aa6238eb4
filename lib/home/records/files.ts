/**
 * Where records live: `$HARNESS_HOME/records/<quote(timeline)>.jsonl`, one chain per timeline,
 * so wakes of different timelines never touch the same file. Beside each chain a small
 * `<quote(timeline)>.head` names the newest record (its `seq` and `record_hash`): a hash chain
 * alone cannot tell that its last records were cut off, the head can — and so can the box-wide
 * `witness.log`, which names it a second time in a second place.
 */
import { join } from "../../base/paths.ts";
import { parseTempName } from "../../base/atomic_write.ts";
import { quote, unquote } from "../../pycompat/quote.ts";

/** The folder under `HARNESS_HOME`. */
export const RECORDS_DIR = "records";
/** A chain file's suffix. */
export const CHAIN_SUFFIX = ".jsonl";
/** A head file's suffix. */
export const HEAD_SUFFIX = ".head";

/** An anchor file's suffix: the last record retention pruned (docs/records.md#retention). */
export const ANCHOR_SUFFIX = ".anchor";

/** `$HARNESS_HOME/records`. */
export function recordsDir(home: string): string {
  return join(home, RECORDS_DIR);
}

/** The chain file's name (no folder) for a timeline. */
export function chainFileName(timeline: string): string {
  return `${quote(timeline)}${CHAIN_SUFFIX}`;
}

/** The chain file for a timeline. */
export function chainPath(home: string, timeline: string): string {
  return join(recordsDir(home), chainFileName(timeline));
}

/** The head file for a timeline. */
export function headPath(home: string, timeline: string): string {
  return join(recordsDir(home), `${quote(timeline)}${HEAD_SUFFIX}`);
}

/** The anchor file for a timeline: present once retention pruned its oldest records. */
export function anchorPath(home: string, timeline: string): string {
  return join(recordsDir(home), `${quote(timeline)}${ANCHOR_SUFFIX}`);
}

/** `witness.log`: the second witness of each chain's newest record (lib/home/records/witness.ts). */
export const WITNESS_FILE = "witness.log";

/** An entry of `records/` that holds no chain, head or anchor, skipped by every reader. */
export interface SkippedEntry {
  /** The entry's path relative to `HARNESS_HOME`, `records/<name>`. */
  readonly entry: string;
  /** Why it was skipped, in a few words. */
  readonly why: string;
}

/** What `records/` holds: the timelines with a chain, head or anchor, and everything else. */
export interface RecordsListing {
  /** Sorted. */
  readonly timelines: string[];
  /** In name order. */
  readonly skipped: SkippedEntry[];
}

const SUFFIXES = [CHAIN_SUFFIX, HEAD_SUFFIX, ANCHOR_SUFFIX];

/**
 * Lists `records/` (nothing when the folder is missing). A timeline is a regular file named
 * `<quote(timeline)>.jsonl`, `.head` or `.anchor`, spelled exactly as the writer spells it; the
 * witness log and the temps of an interrupted atomic write are known and passed over; anything
 * else (a directory named like a chain, a symbolic link, a file of another name) is skipped and
 * named, so one stray entry never stops a reader from reading every chain.
 */
export async function recordsListing(home: string): Promise<RecordsListing> {
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(recordsDir(home))) entries.push(entry);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { timelines: [], skipped: [] };
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const timelines = new Set<string>();
  const skipped: SkippedEntry[] = [];
  const skip = (name: string, why: string) =>
    skipped.push({ entry: `${RECORDS_DIR}/${name}`, why });
  for (const entry of entries) {
    const { name } = entry;
    if (parseTempName(name)) continue; // a write in progress, or a stranded one the sweep removes
    const suffix = SUFFIXES.find((s) => name.endsWith(s));
    const stem = suffix === undefined ? undefined : name.slice(0, -suffix.length);
    const kind = entry.isDirectory
      ? "a directory"
      : entry.isSymlink
      ? "a symbolic link"
      : undefined;
    if (name === WITNESS_FILE) {
      if (kind) skip(name, `${kind}, not the witness log`);
      continue;
    }
    if (stem === undefined || stem === "" || quote(unquote(stem)) !== stem) {
      skip(
        name,
        kind ? `${kind}, not a chain, head or anchor file` : "not a chain, head or anchor file",
      );
      continue;
    }
    if (!entry.isFile) {
      const role = suffix === CHAIN_SUFFIX ? "chain" : suffix === HEAD_SUFFIX ? "head" : "anchor";
      skip(name, `${kind ?? "not a regular file"}, not a ${role} file`);
      continue;
    }
    timelines.add(unquote(stem));
  }
  return { timelines: [...timelines].sort(), skipped };
}

/** Timelines with a chain, head or anchor on disk, sorted; stray entries are passed over. */
export async function recordedTimelines(home: string): Promise<string[]> {
  return (await recordsListing(home)).timelines;
}

/**
 * A regular file's text: undefined when absent; `"not-a-file"` when the name is taken by
 * something else (a directory, a symbolic link), which no reader follows.
 */
export async function readRegular(path: string): Promise<string | undefined | "not-a-file"> {
  try {
    if (!(await Deno.lstat(path)).isFile) return "not-a-file";
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * A timeline's chain text; empty when the timeline has no chain file (yet, or any more), or when
 * its name is taken by something that is not a file (the listing names that entry).
 */
export async function readChain(home: string, timeline: string): Promise<string> {
  const text = await readRegular(chainPath(home, timeline));
  return text === undefined || text === "not-a-file" ? "" : text;
}

/** The timelines a query covers: just `timeline` when given, else every recorded one. */
export function queriedTimelines(home: string, timeline: string | undefined): Promise<string[]> {
  return timeline === undefined ? recordedTimelines(home) : Promise.resolve([timeline]);
}
