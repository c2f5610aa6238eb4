/**
 * The witness log (docs/records.md#what-verify-detects): `records/witness.log`, one line of
 * canonical JSON per appended record, `{"at","record_hash","seq","timeline"}`, for every chain
 * of the box. It is the second witness of each chain's end, kept in another file than the chain
 * and its head: records cut off a chain's end are detected even when the head was removed (or
 * rewritten) along with them, because the log still names the last record that was written.
 *
 * The writer appends the line after the record and its head, under the chain's lock, so a
 * timeline's lines are in its chain's order; a crash before the line leaves the log one record
 * behind, which verify accepts (the witness only ever says "at least this far"). Appends and
 * the retention compaction take an exclusive lock on the log, so the compaction (which keeps
 * each timeline's last line) never drops a line appended meanwhile.
 */
import { atomicWrite } from "../../base/atomic_write.ts";
import { openLocked } from "../../base/locked_file.ts";
import { join } from "../../base/paths.ts";
import * as z from "../../base/zod.ts";
import { canonicalJson } from "./canonical.ts";
import { recordsDir, WITNESS_FILE } from "./files.ts";

/** One witnessed record. */
export const WitnessSchema = z.strictObject({
  at: z.string(),
  record_hash: z.string().regex(/^[0-9a-f]{64}$/),
  seq: z.number().int().positive(),
  timeline: z.string().min(1),
});

/** One witnessed record. */
export type Witness = z.infer<typeof WitnessSchema>;

/** `records/witness.log`. */
export function witnessPath(home: string): string {
  return join(recordsDir(home), WITNESS_FILE);
}

const encoder = new TextEncoder();

/** Appends one line naming `witness` (one write, under the log's lock). */
export async function appendWitness(home: string, witness: Witness): Promise<void> {
  const file = await openLocked(witnessPath(home), { read: true, append: true, create: true });
  try {
    const bytes = encoder.encode(`${canonicalJson(witness)}\n`);
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
  } finally {
    file.close();
  }
}

/**
 * Each timeline's last witnessed record in `text` (the log's order is each chain's order). A line
 * that is not a witness — torn by a crash, or edited — is passed over.
 */
export function parseWitnesses(text: string): Map<string, Witness> {
  const last = new Map<string, Witness>();
  for (const line of text.split("\n")) {
    if (!line) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = WitnessSchema.safeParse(raw);
    if (parsed.success) last.set(parsed.data.timeline, parsed.data);
  }
  return last;
}

/**
 * Rewrites the log keeping each timeline's last line (retention calls it after pruning); a log
 * that is absent stays absent.
 */
export async function compactWitnesses(home: string): Promise<void> {
  const path = witnessPath(home);
  try {
    if (!(await Deno.lstat(path)).isFile) return;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  const file = await openLocked(path, { read: true, append: true });
  try {
    const kept = [...parseWitnesses(await Deno.readTextFile(path)).values()]
      .map((witness) => `${canonicalJson(witness)}\n`).join("");
    await atomicWrite(path, kept);
  } finally {
    file.close();
  }
}
