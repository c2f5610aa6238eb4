/**
 * A wake's turn record and its chain's verdict, read back from HARNESS_HOME/records with the
 * same verifier `harness records verify` runs (docs/records.md).
 */
import {
  chainPath,
  type TurnRecord,
  TurnRecordSchema,
  verifyRecords,
} from "../home/records/mod.ts";

/** The record a wake wrote (by its delivery id) and whether its chain verifies. */
export interface RecordView {
  /** The wake's turn record; null for a wake that engaged no turn (an idle wake writes none). */
  readonly record: TurnRecord | null;
  readonly verified: boolean;
  /** Valid, chained records in the timeline's chain. */
  readonly records: number;
  /** The first bad line, as `records verify` names it (`records/<file>:<line>: reason: …`). */
  readonly problem: string | null;
}

/** Reads the timeline's chain under `home`, picks the wake's record and verifies the chain. */
export async function readTurnRecord(
  home: string,
  timeline: string,
  delivery: string,
): Promise<RecordView | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(chainPath(home, timeline));
  } catch {
    return null;
  }
  let record: TurnRecord | null = null;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const parsed = TurnRecordSchema.safeParse(JSON.parse(line));
      if (parsed.success && parsed.data.delivery_id === delivery) record = parsed.data;
    } catch {
      // A damaged line: the verifier below names it.
    }
  }
  const report = await verifyRecords(home, { timeline });
  const chain = report.chains[0];
  const bad = chain?.bad;
  return {
    record,
    verified: report.ok,
    records: chain?.records ?? 0,
    problem: bad ? `${bad.file}:${bad.line}: ${bad.reason}: ${bad.detail}` : null,
  };
}
