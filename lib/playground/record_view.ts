/**
 * A wake's turn records and its chain's verdict, read back from HARNESS_HOME/records with the
 * same verifier `harness records verify` runs (docs/records.md). A wake keeps only the facts the
 * page's summary shows ({@link RecordFacts}); the records themselves are read again whenever a
 * panel asks, so a restarted playground shows them as they are on disk.
 */
import {
  chainPath,
  type TurnRecord,
  TurnRecordSchema,
  verifyRecords,
} from "../home/records/mod.ts";

/** What the summary says about a wake's records. */
export interface RecordFacts {
  /** The ids of the records the wake wrote, in chain order (one per engaged turn). */
  readonly ids: readonly string[];
  /** Each record's `result` (`spoke`, `silent`, `escalated`, `failed`), in the same order. */
  readonly results: readonly string[];
  /** Whether the timeline's whole chain verifies. */
  readonly verified: boolean;
  /** Valid, chained records in the timeline's chain. */
  readonly chainRecords: number;
  /** The first bad line, as `records verify` names it (`records/<file>:<line>: reason: …`). */
  readonly problem: string | null;
}

/** Every valid record of the timeline's chain, in order; damaged lines are left to the verifier. */
export async function chainRecords(home: string, timeline: string): Promise<TurnRecord[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(chainPath(home, timeline));
  } catch {
    return [];
  }
  const records: TurnRecord[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const parsed = TurnRecordSchema.safeParse(JSON.parse(line));
      if (parsed.success) records.push(parsed.data);
    } catch {
      // A damaged line: the verifier names it.
    }
  }
  return records;
}

/** The chain's verdict, as `harness records verify --timeline` gives it. */
export async function chainVerdict(
  home: string,
  timeline: string,
): Promise<Pick<RecordFacts, "verified" | "chainRecords" | "problem">> {
  const report = await verifyRecords(home, { timeline });
  const chain = report.chains[0];
  const bad = chain?.bad;
  return {
    verified: report.ok,
    chainRecords: chain?.records ?? 0,
    problem: bad ? `${bad.file}:${bad.line}: ${bad.reason}: ${bad.detail}` : null,
  };
}

/** The facts of the records a wake wrote (by its delivery id); null when there is no chain yet. */
export async function recordFacts(
  home: string,
  timeline: string,
  delivery: string,
): Promise<RecordFacts | null> {
  const all = await chainRecords(home, timeline);
  const verdict = await chainVerdict(home, timeline);
  if (all.length === 0 && verdict.chainRecords === 0 && verdict.verified) return null;
  const mine = all.filter((r) => r.delivery_id === delivery);
  return {
    ids: mine.map((r) => r.record_id),
    results: mine.map((r) => r.result ?? r.outcome),
    ...verdict,
  };
}
