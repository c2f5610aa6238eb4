/**
 * Checking a chain: every line must be a valid record whose own hash matches its content, whose
 * `prev_hash` is the previous line's `record_hash` (64 zeros for the first) and whose `seq`
 * counts up from 1; and the head file's record must still be there, which is what catches
 * records cut off the end. The first bad line is named with a reason:
 *
 * - `edited`: the line's content no longer hashes to its `record_hash`;
 * - `removed`: the record it chains onto is nowhere in the file (or the head's is missing);
 * - `reordered`: it chains onto a record that comes later, or not onto the line before it;
 * - `duplicate`: the same record appears earlier;
 * - `fork`: two records chain onto the same one (two writers appended without the lock);
 * - `torn`: the file ends mid-line (an interrupted append, or a cut);
 * - `invalid`: not JSON, not a record of this version, or a bad head file.
 */
import { GENESIS_HASH } from "./canonical.ts";
import { parseAnchor } from "./anchor.ts";
import {
  anchorPath,
  chainFileName,
  chainPath,
  headPath,
  recordedTimelines,
  RECORDS_DIR,
} from "./files.ts";
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
}

/** Verifies every timeline's chain under `home`, or only `timeline`'s. */
export async function verifyRecords(
  home: string,
  options: { readonly timeline?: string } = {},
): Promise<VerifyReport> {
  const timelines = options.timeline === undefined
    ? await recordedTimelines(home)
    : [options.timeline];
  const chains: ChainReport[] = [];
  // The native digest: verify reads every line of every chain, the pure one is ~20× slower. Loaded
  // here, not at the top, so a wake (which imports this module's folder) never boots node compat.
  const { createHash } = await import("node:crypto");
  const hash = (text: string) => createHash("sha256").update(text).digest("hex");
  for (const timeline of timelines) {
    const text = await readOptional(chainPath(home, timeline));
    const head = await readOptional(headPath(home, timeline));
    const anchor = await readOptional(anchorPath(home, timeline));
    chains.push(verifyChain(timeline, text ?? "", head, anchor, hash));
  }
  const bad = chains.flatMap((chain) => chain.bad ? [chain.bad] : []);
  const records = chains.reduce((sum, chain) => sum + chain.records, 0);
  return { ok: bad.length === 0, chains, records, bad };
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

const Head = z.strictObject({
  seq: z.number().int().positive(),
  record_hash: z.string(),
});

/**
 * Verifies one chain's text (and its head and anchor files' texts, if any). Pure. With an anchor
 * (docs/records.md#retention) the first line must chain onto the anchor's record and carry the
 * next `seq`; a chain whose first line is still a genesis record (a prune interrupted before the
 * rewrite) is checked from genesis.
 */
export function verifyChain(
  timeline: string,
  text: string,
  head?: string,
  anchor?: string,
  hash?: HashHex,
): ChainReport {
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
  return { timeline, file, records: hashes.length };
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
  if (head.seq > base.seq + hashes.length) {
    return {
      line: lines + 1,
      reason: "removed",
      detail: `the chain ends at seq ${base.seq + hashes.length} but its head says seq ` +
        `${head.seq} was written: records were removed from the end`,
    };
  }
  const named = head.seq === base.seq ? base.hash : hashes[head.seq - base.seq - 1];
  if (named !== head.record_hash) {
    return {
      line: head.seq,
      reason: "edited",
      detail: `the head names another record at seq ${head.seq}: the chain was rewritten`,
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
