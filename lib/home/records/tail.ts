/**
 * Finding what a new record chains onto: the last line of the chain file that is a valid record
 * on its own. Read backwards in chunks, so an append costs one small read however long the chain
 * is. Anything after that record — a torn append, a garbage line, an edited record — is the
 * corrupt tail the writer refuses to chain onto; it is measured and fingerprinted instead.
 */
import { sha256Hex } from "./canonical.ts";
import { judgeLine } from "./line.ts";
import { concatBytes } from "../../base/bytes.ts";

/** What the writer needs to know about a chain's end. */
export interface ChainTail {
  /** The last valid record, if any. */
  readonly last?: { readonly seq: number; readonly hash: string };
  /** The bytes after it, when there are any: they are stepped over, never chained onto. */
  readonly skipped?: { readonly lines: number; readonly bytes: number; readonly sha256: string };
  /** The file does not end with a newline (an interrupted append, or a cut). */
  readonly torn: boolean;
}

const CHUNK = 64 * 1024;
const NEWLINE = 10;
const decoder = new TextDecoder();

/** Reads `[from, to)` of an open file. */
async function readRange(file: Deno.FsFile, from: number, to: number): Promise<Uint8Array> {
  const out = new Uint8Array(to - from);
  await file.seek(from, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < out.length) {
    const n = await file.read(out.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return out.subarray(0, filled);
}

/** Scans an open chain file of `size` bytes from the end. */
export async function readTail(file: Deno.FsFile, size: number): Promise<ChainTail> {
  let start = size;
  let buffer = new Uint8Array(0);
  while (true) {
    const from = Math.max(0, start - CHUNK);
    const chunk = await readRange(file, from, start);
    buffer = concatBytes([chunk, buffer]);
    start = from;
    const found = scan(buffer, start === 0);
    if (found !== "more") return found;
  }
}

/**
 * Looks for the last valid record among the complete lines of `buffer` (the file's last
 * bytes). `atFileStart`: the buffer's first segment is a whole line, not the end of an unread
 * one. Answers "more" when it needs earlier bytes.
 */
function scan(buffer: Uint8Array, atFileStart: boolean): ChainTail | "more" {
  const torn = buffer.length > 0 && buffer[buffer.length - 1] !== NEWLINE;
  let end = torn ? buffer.length : buffer.length - 1; // exclusive end of the line being judged
  let skippedLines = torn ? 1 : 0;
  if (torn) {
    // The fragment after the last newline is never a record; step to the line before it.
    end = buffer.lastIndexOf(NEWLINE);
    if (end < 0) return atFileStart ? finish(buffer, 0, undefined, 1, torn) : "more";
  }
  while (end >= 0) {
    // (A negative fromIndex would count from the end, so a line at offset 0 is spelled out.)
    const begin = end === 0 ? 0 : buffer.lastIndexOf(NEWLINE, end - 1) + 1;
    if (begin === 0 && !atFileStart) return "more";
    const verdict = judgeLine(decoder.decode(buffer.subarray(begin, end)));
    if (verdict.ok) {
      const last = { seq: verdict.record.seq, hash: verdict.record.record_hash };
      return finish(buffer, end + 1, last, skippedLines, torn);
    }
    skippedLines++;
    if (begin === 0) break;
    end = begin - 1;
  }
  return finish(buffer, 0, undefined, skippedLines, torn);
}

function finish(
  buffer: Uint8Array,
  after: number,
  last: ChainTail["last"],
  lines: number,
  torn: boolean,
): ChainTail {
  const rest = buffer.subarray(after);
  if (rest.length === 0) return { last, torn };
  return { last, torn, skipped: { lines, bytes: rest.length, sha256: sha256Hex(rest) } };
}
