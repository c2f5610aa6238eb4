/**
 * Retention (docs/records.md#retention): `records.json`'s `retention_days` keeps that many whole
 * UTC days of records before today; `harness cleanup` drops older ones. Only a leading run of
 * valid, correctly chained records is ever dropped — pruning stops at the first record inside the
 * window and at the first damaged line, so damage stays for `verify` to report. The last dropped
 * record's `seq` and `record_hash` go to `<timeline>.anchor` first (atomic replace), then the
 * chain file is replaced by its remaining lines (atomic rename, under the writer's lock), so the
 * remaining chain verifies from the anchor, and a crash between the two steps leaves a chain that
 * still verifies from genesis. Afterwards the witness log is compacted to each chain's newest
 * record.
 */
import { atomicWrite } from "../../base/atomic_write.ts";
import { canonicalJson, GENESIS_HASH } from "./canonical.ts";
import { readAnchor } from "./anchor.ts";
import { anchorPath, chainPath, recordedTimelines } from "./files.ts";
import { judgeLine, splitLines } from "./line.ts";
import { compactWitnesses } from "./witness.ts";

/** What one prune did. */
export interface PruneReport {
  /** Records removed, over all chains. */
  readonly removed: number;
  /** Chains that lost at least one record. */
  readonly chains: number;
  /** The oldest `at` kept: records written before this UTC midnight were due. */
  readonly cutoff: string;
}

/** The UTC midnight `days` whole days before `now`'s day. */
export function retentionCutoff(now: Date, days: number): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - days * 86_400_000);
}

/** Prunes every chain under `home` to the last `days` UTC days before today (and today). */
export async function pruneRecords(
  home: string,
  days: number,
  now: Date = new Date(),
): Promise<PruneReport> {
  const cutoff = retentionCutoff(now, days);
  let removed = 0;
  let chains = 0;
  for (const timeline of await recordedTimelines(home)) {
    const n = await pruneChain(home, timeline, cutoff, now);
    removed += n;
    if (n > 0) chains++;
  }
  // Each chain's newest record is all the witness log needs to keep.
  if (removed > 0) await compactWitnesses(home);
  return { removed, chains, cutoff: cutoff.toISOString() };
}

async function pruneChain(home: string, timeline: string, cutoff: Date, now: Date) {
  const path = chainPath(home, timeline);
  let file: Deno.FsFile;
  try {
    if (!(await Deno.lstat(path)).isFile) return 0; // a stray entry by that name: verify says so
    file = await Deno.open(path, { read: true, write: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
  try {
    await file.lock(true); // the writer's lock: no append lands between the read and the rename
    const text = await Deno.readTextFile(path);
    const { lines, torn } = splitLines(text);
    const anchor = await readAnchor(anchorPath(home, timeline));
    if (anchor === "invalid") return 0; // left for verify to report
    let prev = anchor?.record_hash ?? GENESIS_HASH;
    let seq = anchor?.seq ?? 0;
    const first = lines.length > 0 ? judgeLine(lines[0]) : undefined;
    if (first?.ok && first.record.prev_hash === GENESIS_HASH) {
      prev = GENESIS_HASH; // an interrupted prune left the old chain whole
      seq = 0;
    }
    let drop = 0;
    let last: { seq: number; hash: string; at: string } | undefined;
    for (const line of lines) {
      const verdict = judgeLine(line);
      if (!verdict.ok) break;
      const record = verdict.record;
      if (record.prev_hash !== prev || record.seq !== seq + 1) break;
      if (Date.parse(record.at) >= cutoff.getTime()) break;
      last = { seq: record.seq, hash: record.record_hash, at: record.at };
      prev = record.record_hash;
      seq = record.seq;
      drop++;
    }
    if (!last) return 0;
    await atomicWrite(
      anchorPath(home, timeline),
      `${
        canonicalJson({
          seq: last.seq,
          record_hash: last.hash,
          at: last.at,
          pruned_at: now.toISOString(),
        })
      }\n`,
    );
    const rest = lines.slice(drop);
    const kept = rest.length ? `${rest.join("\n")}\n` : "";
    await atomicWrite(path, kept + (torn ?? ""));
    return drop;
  } finally {
    file.close();
  }
}
