/**
 * Choosing turn records (docs/records.md#reading-what-was-said): every valid record under
 * `$HARNESS_HOME/records/`, narrowed by timeline, time window, an explicit list of record ids, the
 * turn's result and a count of the newest. `harness records show` and `harness replay` both select this way.
 * Read-only and lenient as the stats are: a line that is not a valid record is counted and
 * skipped (whether the chain is intact is `verify`'s question).
 */
import type { TurnRecord, TurnResult } from "./schema.ts";
import { queriedTimelines, readChain } from "./files.ts";
import { judgeLine, splitLines } from "./line.ts";

/** Which turns to read; every field narrows, none given means every record. */
export interface TurnSelection {
  /** Only this timeline's chain. */
  readonly timeline?: string;
  /** Only records written at or after this instant. */
  readonly since?: Date;
  /** Only records written at or before this instant. */
  readonly until?: Date;
  /** Only these record ids (`record_id`), in any order. */
  readonly ids?: ReadonlySet<string>;
  /** Only turns that came to this result (records without a `result` never match). */
  readonly result?: TurnResult;
  /** After the other filters: only the newest N, by `at`. */
  readonly last?: number;
}

/** What the selection found. */
export interface SelectedTurns {
  /** The chosen records, oldest first (ties by timeline, then `seq`). */
  readonly records: readonly TurnRecord[];
  /** Lines that are not valid records, skipped. */
  readonly unreadable: number;
  /** Requested ids that no valid record carries. */
  readonly missing: readonly string[];
}

/** Reads the records under `home` and applies `selection`. */
export async function selectTurns(home: string, selection: TurnSelection): Promise<SelectedTurns> {
  const timelines = await queriedTimelines(home, selection.timeline);
  const all: TurnRecord[] = [];
  let unreadable = 0;
  for (const timeline of timelines) {
    const text = await readChain(home, timeline);
    const { lines, torn } = splitLines(text);
    if (torn !== undefined) unreadable++;
    for (const line of lines) {
      const verdict = judgeLine(line);
      if (verdict.ok) all.push(verdict.record);
      else unreadable++;
    }
  }
  const since = selection.since?.getTime();
  const until = selection.until?.getTime();
  let chosen = all.filter((record) => {
    const at = Date.parse(record.at);
    if (since !== undefined && at < since) return false;
    if (until !== undefined && at > until) return false;
    if (selection.result !== undefined && record.result !== selection.result) return false;
    return selection.ids === undefined || selection.ids.has(record.record_id);
  });
  chosen.sort((a, b) =>
    Date.parse(a.at) - Date.parse(b.at) || a.timeline.localeCompare(b.timeline) || a.seq - b.seq
  );
  if (selection.last !== undefined) {
    chosen = chosen.slice(Math.max(0, chosen.length - selection.last));
  }
  const found = new Set(all.map((record) => record.record_id));
  const missing = [...selection.ids ?? []].filter((id) => !found.has(id)).sort();
  return { records: chosen, unreadable, missing };
}
