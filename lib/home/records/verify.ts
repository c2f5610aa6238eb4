/**
 * Checking a chain: every line must be a valid record, spelled exactly as the writer spells it
 * (canonical JSON, `\n` line ends), whose own hash matches its content, whose `prev_hash` is the
 * previous line's `record_hash` (64 zeros for the first) and whose `seq` counts up from 1; and
 * the chain must still reach the record its head names and the record the box's witness log
 * names, which is what catches records cut off the end — even with the head removed too. A chain
 * of two or more records without a head is reported as well (the writer always leaves one). The
 * first bad line is named with a reason:
 *
 * - `edited`: the line's content no longer hashes to its `record_hash`;
 * - `removed`: the record it chains onto is nowhere in the file (or the record the head or the
 *   witness log names is missing);
 * - `reordered`: it chains onto a record that comes later, or not onto the line before it;
 * - `duplicate`: the same record appears earlier;
 * - `fork`: two records chain onto the same one (two writers appended without the lock);
 * - `torn`: the file ends mid-line (an interrupted append, or a cut);
 * - `invalid`: not JSON, not canonical, not a record of this version, a bad or missing head.
 */
import { GENESIS_HASH } from "./canonical.ts";
import { parseAnchor } from "./anchor.ts";
import {
  anchorPath,
  chainFileName,
  chainPath,
  headPath,
  readRegular,
  RECORDS_DIR,
  recordsListing,
  type SkippedEntry,
} from "./files.ts";
import { parseWitnesses, type Witness, witnessPath } from "./witness.ts";
import { type HashHex, judgeLine, splitLines } from "./line.ts";
import * as z from "../../base/zod.ts";

/** Why a line is bad. */
export type BadReason =
  | "edited"
  | "removed"
  | "reordered"
  | "duplicate"
  | "fork"
  | "torn"
  | "invalid";

/** The first bad line of one chain. */
export interface BadRecord {
  readonly timeline: string;
  /** `records/<quote(timeline)>.jsonl`, relative to `HARNESS_HOME`. */
  readonly file: string;
  /** 1-based; one past the last line when records were cut off the end. */
  readonly line: number;
  readonly reason: BadReason;
  readonly detail: string;
}

/** One chain's verdict. */
export interface ChainReport {
  readonly timeline: string;
  readonly file: string;
  /** Valid, correctly chained records before the first bad line (all of them when ok). */
  readonly records: number;
  readonly bad?: BadRecord;
}

/** Every chain's verdict. */
export interface VerifyReport {
  readonly ok: boolean;
  readonly chains: readonly ChainReport[];
  /** Valid records over all chains. */
  readonly records: number;
  /** The first bad line of each bad chain, in timeline order. */
  readonly bad: readonly BadRecord[];
  /** Entries of `records/` that hold no chain, head or anchor: named, skipped, not a failure. */
  readonly skipped: readonly SkippedEntry[];
}

/** Verifies every timeline's chain under `home`, or only `timeline`'s. */
export async function verifyRecords(
  home: string,
  options: { readonly timeline?: string } = {},
): Promise<VerifyReport> {
  const listing = await recordsListing(home);
  const timelines = options.timeline === undefined ? listing.timelines : [options.timeline];
  const skipped = options.timeline === undefined ? listing.skipped : [];
  const chains: ChainReport[] = [];
  // The native digest: verify reads every line of every chain, the pure one is ~20× slower. Loaded
  // here, not at the top, so a wake (which imports this module's folder) never boots node compat.
  const { createHash } = await import("node:crypto");
  const hash = (text: string) => createHash("sha256").update(text).digest("hex");
  const log = await readRegular(witnessPath(home));
  const witnesses = typeof log === "string" ? parseWitnesses(log) : new Map<string, Witness>();
  for (const timeline of timelines) {
    const [text, head, anchor] = await Promise.all([
      readRegular(chainPath(home, timeline)),
      readRegular(headPath(home, timeline)),
      readRegular(anchorPath(home, timeline)),
    ]);
    if (text === "not-a-file" || head === "not-a-file" || anchor === "not-a-file") {
      const which = text === "not-a-file" ? "chain" : head === "not-a-file" ? "head" : "anchor";
      const file = `${RECORDS_DIR}/${chainFileName(timeline)}`;
      const detail = `the ${which} file's name is taken by a directory or a link, not a file`;
      chains.push({
        timeline,
        file,
        records: 0,
        bad: { timeline, file, line: 1, reason: "invalid", detail },
      });
      continue;
    }
    const witness = witnesses.get(timeline);
    chains.push(verifyChain(timeline, text ?? "", { head, anchor, witness }, hash));
  }
  const bad = chains.flatMap((chain) => chain.bad ? [chain.bad] : []);
  const records = chains.reduce((sum, chain) => sum + chain.records, 0);
  return { ok: bad.length === 0, chains, records, bad, skipped };
}

/** The files beside a chain, as read (absent: undefined). */
export interface ChainCompanions {
  /** The head file's text. */
  readonly head?: string;
  /** The anchor file's text (docs/records.md#retention). */
  readonly anchor?: string;
  /** The witness log's last line for this timeline. */
  readonly witness?: Witness;
}

const Head = z.strictObject({
  seq: z.number().int().positive(),
  record_hash: z.string(),
});

/**
 * Verifies one chain's text against its companions (head, anchor, witness). Pure. With an anchor
 * (docs/records.md#retention) the first line must chain onto the anchor's record and carry the
 * next `seq`; a chain whose first line is still a genesis record (a prune interrupted before the
 * rewrite) is checked from genesis.
 */
export function verifyChain(
  timeline: string,
  text: string,
  companions: ChainCompanions = {},
  hash?: HashHex,
): ChainReport {
  const { head, anchor, witness } = companions;
  const file = `${RECORDS_DIR}/${chainFileName(timeline)}`;
  const { lines, torn } = splitLines(text);
  const bad = (line: number, reason: BadReason, detail: string, records: number) => ({
    timeline,
    file,
    records,
    bad: { timeline, file, line, reason, detail: detail + recoveryNote(lines, line) },
  });
  // Every line's claimed hash and predecessor, for telling removal from reordering from a fork.
  const claims = lines.map(claimsOf);
  const lineOfHash = new Map<string, number>();
  claims.forEach((claim, i) => {
    if (claim.hash && !lineOfHash.has(claim.hash)) lineOfHash.set(claim.hash, i + 1);
  });
  let base = { seq: 0, hash: GENESIS_HASH };
  if (anchor !== undefined) {
    const parsed = parseAnchor(anchor);
    if (!parsed) return bad(1, "invalid", "the anchor file is unreadable", 0);
    if (claims[0]?.prev !== GENESIS_HASH) base = { seq: parsed.seq, hash: parsed.record_hash };
  }
  const hashes: string[] = []; // record_hash of each verified line, in order
  const seqOfLine: number[] = [];
  const successor = new Map<string, number>(); // prev_hash → first verified line chaining onto it
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const verdict = judgeLine(lines[i], hash);
    if (!verdict.ok) return bad(line, verdict.fault, verdict.detail, hashes.length);
    const record = verdict.record;
    const expected = hashes.at(-1) ?? base.hash;
    if (record.prev_hash !== expected) {
      const [reason, detail] = chainFault(record.prev_hash, record.record_hash, line, {
        lineOfHash,
        successor,
      });
      return bad(line, reason, detail, hashes.length);
    }
    const want = (seqOfLine.at(-1) ?? base.seq) + 1;
    if (record.seq !== want) {
      return bad(line, "invalid", `seq ${record.seq} where ${want} was due`, hashes.length);
    }
    hashes.push(record.record_hash);
    seqOfLine.push(record.seq);
    successor.set(record.prev_hash, line);
  }
  if (torn !== undefined) {
    return bad(
      lines.length + 1,
      "torn",
      `the file ends mid-line (${new TextEncoder().encode(torn).length} bytes with no newline: ` +
        "an interrupted append, or a cut)",
      hashes.length,
    );
  }
  if (head !== undefined) {
    const fault = headFault(head, hashes, lines.length, base);
    if (fault) return bad(fault.line, fault.reason, fault.detail, hashes.length);
  }
  if (witness !== undefined && !witnessesOlderChain(witness, lines)) {
    const fault = endFault(
      { seq: witness.seq, record_hash: witness.record_hash },
      "the witness log",
      hashes,
      lines.length,
      base,
    );
    if (fault) return bad(fault.line, fault.reason, fault.detail, hashes.length);
  }
  const written = base.seq + hashes.length;
  if (head === undefined && written >= 2) {
    // The writer replaces the head after every append, so only the first record can be without
    // one (a crash between the append and the head); a longer chain lost it by hand.
    return bad(
      lines.length + 1,
      "invalid",
      `the head file is missing (a chain of ${written} records always has one): records may ` +
        "have been cut off the end",
      hashes.length,
    );
  }
  return { timeline, file, records: hashes.length };
}

/**
 * Whether the witness names a record of a chain that was retired before this one began: this
 * chain starts from genesis with a record written after the witnessed one (docs/records.md: a
 * damaged chain is retired by moving its files aside, and the next turn starts a new chain).
 */
function witnessesOlderChain(witness: Witness, lines: readonly string[]): boolean {
  const first = lines.length > 0 ? claimsOf(lines[0]) : undefined;
  if (first?.prev !== GENESIS_HASH) return false;
  const at = /"at":"([^"]+)"/.exec(lines[0])?.[1];
  return at !== undefined && Date.parse(at) > Date.parse(witness.at);
}

interface Claims {
  readonly hash?: string;
  readonly prev?: string;
}

const HASH_RE = /"record_hash":"([0-9a-f]{64})"/;
const PREV_RE = /"prev_hash":"([0-9a-f]{64})"/;

/** What a line claims about itself, whether or not it verifies. */
function claimsOf(line: string): Claims {
  // A canonical line spells both top-level keys once, unescaped: read them without parsing.
  const hash = HASH_RE.exec(line)?.[1];
  const prev = PREV_RE.exec(line)?.[1];
  if (hash !== undefined && prev !== undefined) return { hash, prev };
  try {
    const raw: unknown = JSON.parse(line);
    if (typeof raw !== "object" || raw === null) return {};
    const { record_hash: hash, prev_hash: prev } = raw as Record<string, unknown>;
    return {
      hash: typeof hash === "string" ? hash : undefined,
      prev: typeof prev === "string" ? prev : undefined,
    };
  } catch {
    return {};
  }
}

/** Names a valid record that does not chain onto the line before it. */
function chainFault(
  prev: string,
  own: string,
  line: number,
  seen: { lineOfHash: ReadonlyMap<string, number>; successor: ReadonlyMap<string, number> },
): [reason: BadReason, detail: string] {
  const copyOf = seen.lineOfHash.get(own);
  if (copyOf !== undefined && copyOf < line) {
    return ["duplicate", `the same record as line ${copyOf}`];
  }
  const sibling = seen.successor.get(prev);
  if (sibling !== undefined) {
    return [
      "fork",
      `chains onto the same record as line ${sibling} (two writers appended concurrently)`,
    ];
  }
  if (prev === GENESIS_HASH) {
    return ["reordered", "claims to be a chain's first record but is not the first line"];
  }
  const target = seen.lineOfHash.get(prev);
  if (target !== undefined) {
    const where = target > line ? "a later line" : "an earlier line";
    return ["reordered", `chains onto line ${target} (${where}), not onto the line before it`];
  }
  return line === 1
    ? ["removed", "prev_hash is not the genesis hash: the chain's first record(s) are missing"]
    : [
      "removed",
      "the record it chains onto is missing (removed just before this line, or that line " +
      "was edited and re-hashed)",
    ];
}

/** Checks the head file against the verified chain. */
function headFault(
  text: string,
  hashes: readonly string[],
  lines: number,
  base: { readonly seq: number; readonly hash: string },
): { line: number; reason: BadReason; detail: string } | undefined {
  let head;
  try {
    head = Head.parse(JSON.parse(text));
  } catch {
    return { line: lines + 1, reason: "invalid", detail: "the head file is unreadable" };
  }
  return endFault(head, "its head", hashes, lines, base);
}

/**
 * Checks a witness of the chain's end (the head, or the witness log's line) against the verified
 * chain: the chain must reach the named `seq`, and hold the named record there.
 */
function endFault(
  named: { readonly seq: number; readonly record_hash: string },
  who: string,
  hashes: readonly string[],
  lines: number,
  base: { readonly seq: number; readonly hash: string },
): { line: number; reason: BadReason; detail: string } | undefined {
  if (named.seq > base.seq + hashes.length) {
    return {
      line: lines + 1,
      reason: "removed",
      detail: `the chain ends at seq ${base.seq + hashes.length} but ${who} says seq ` +
        `${named.seq} was written: records were removed from the end`,
    };
  }
  if (named.seq < base.seq) return undefined; // pruned past what it names: nothing to compare
  const held = named.seq === base.seq ? base.hash : hashes[named.seq - base.seq - 1];
  if (held !== named.record_hash) {
    return {
      line: named.seq - base.seq,
      reason: "edited",
      detail: `${who} names another record at seq ${named.seq}: the chain was rewritten`,
    };
  }
  return undefined;
}

/** When a later record says the writer stepped over `line`, the report says so too. */
function recoveryNote(lines: readonly string[], line: number): string {
  for (let i = line; i < lines.length; i++) {
    if (lines[i].includes('"recovered_from"')) {
      return `; the writer resumed the chain past it at line ${i + 1}`;
    }
  }
  return "";
}
