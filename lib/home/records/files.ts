/**
 * Where records live: `$HARNESS_HOME/records/<quote(timeline)>.jsonl`, one chain per timeline,
 * so wakes of different timelines never touch the same file. Beside each chain a small
 * `<quote(timeline)>.head` names the newest record (its `seq` and `record_hash`): a hash chain
 * alone cannot tell that its last records were cut off, the head can.
 */
import { join } from "../../base/paths.ts";
import { readTextIfPresent } from "../../base/read_files.ts";
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

/** Timelines with a chain or a head on disk, sorted; none when the folder is missing. */
export async function recordedTimelines(home: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(recordsDir(home))) names.push(entry.name);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const timelines = new Set<string>();
  for (const name of names) {
    for (const suffix of [CHAIN_SUFFIX, HEAD_SUFFIX]) {
      if (name.endsWith(suffix)) timelines.add(unquote(name.slice(0, -suffix.length)));
    }
  }
  return [...timelines].sort();
}

/** A timeline's chain text; empty when the timeline has no chain file (yet, or any more). */
export async function readChain(home: string, timeline: string): Promise<string> {
  return (await readTextIfPresent(chainPath(home, timeline))) ?? "";
}

/** The timelines a query covers: just `timeline` when given, else every recorded one. */
export function queriedTimelines(home: string, timeline: string | undefined): Promise<string[]> {
  return timeline === undefined ? recordedTimelines(home) : Promise.resolve([timeline]);
}
