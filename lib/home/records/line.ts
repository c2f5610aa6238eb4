/**
 * Reading one stored line back: JSON, then its own hash, then its spelling, then the schema — in
 * that order, so a line whose content was changed is called `edited` even when the change also
 * broke the schema, and a line whose content is intact but was re-spelled (CRLF line endings,
 * added spaces, reordered keys, other escapes) is `invalid`: the canonical encoding is the one
 * the writer produces, byte for byte. The writer, the verifier and the stats all judge a line
 * with this one function.
 */
import { errorMessage } from "../../base/error_text.ts";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import { RECORD_VERSION, type TurnRecord, TurnRecordSchema } from "./schema.ts";

/** Why a single line is not a usable record. */
export type LineFault = "invalid" | "edited";

/** One line, judged on its own (the chain is judged by the caller). */
export type LineVerdict =
  | { readonly ok: true; readonly record: TurnRecord }
  | { readonly ok: false; readonly fault: LineFault; readonly detail: string };

/** A sha256 hex function: the pure one by default; `verify` hands in the native one. */
export type HashHex = (text: string) => string;

const HASH_MEMBER = ',"record_hash":"';

/**
 * Whether `line` minus its own `record_hash` member hashes to `claimed`. A stored line is the
 * canonical encoding of its record, so this is the canonical encoding the writer hashed and a
 * match proves the content without re-encoding it; a mismatch (or a line not in canonical
 * spelling) is decided by re-encoding instead.
 */
function textualHashMatches(line: string, claimed: string, hash: HashHex): boolean {
  const at = line.indexOf(HASH_MEMBER);
  if (at < 0) return false;
  const end = at + HASH_MEMBER.length + 64;
  if (line.slice(at + HASH_MEMBER.length, end) !== claimed || line[end] !== '"') return false;
  return hash(line.slice(0, at) + line.slice(end + 1)) === claimed;
}

/** Judges one complete line (without its newline). */
export function judgeLine(line: string, hash: HashHex = sha256Hex): LineVerdict {
  if (line.trim() === "") return bad("invalid", "blank line");
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return bad("invalid", "not JSON (garbage, or a torn line that was later terminated)");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return bad("invalid", "not a JSON object");
  }
  const fields = raw as Record<string, unknown>;
  if (typeof fields.record_hash !== "string") return bad("invalid", "no record_hash");
  let computed = fields.record_hash;
  if (!textualHashMatches(line, fields.record_hash, hash)) {
    try {
      const { record_hash: _own, ...rest } = fields;
      computed = hash(canonicalJson(rest));
    } catch (error) {
      return bad("invalid", errorMessage(error));
    }
  }
  if (computed !== fields.record_hash) {
    return bad("edited", "record_hash does not match the record's content (changed after writing)");
  }
  if (!isCanonical(line, fields)) {
    return bad(
      "invalid",
      line.endsWith("\r")
        ? "the line ends with a carriage return (CRLF line endings): not the canonical " +
          "encoding the writer produces"
        : "not in the canonical encoding the writer produces (spacing, key order or escaping " +
          "differ): the line was rewritten",
    );
  }
  if (fields.version !== RECORD_VERSION) {
    return bad(
      "invalid",
      `record version ${JSON.stringify(fields.version)} is not ${RECORD_VERSION}`,
    );
  }
  const parsed = TurnRecordSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return bad("invalid", `not a turn record: ${where}${issue?.message ?? "schema mismatch"}`);
  }
  return { ok: true, record: parsed.data };
}

/**
 * Whether `line` is exactly the canonical encoding of `value` (its parse). For a parsed value
 * the canonical encoding is `JSON.stringify` with every object's keys in sorted order, so the
 * native encoder and a walk over the keys decide nearly every line; anything else (a key order
 * the parse itself changed, such as integer-like keys) is decided by re-encoding.
 */
function isCanonical(line: string, value: unknown): boolean {
  if (JSON.stringify(value) === line && keysSorted(value)) return true;
  try {
    return canonicalJson(value) === line;
  } catch {
    return false;
  }
}

function keysSorted(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (Array.isArray(value)) return value.every(keysSorted);
  let previous: string | undefined;
  for (const [key, item] of Object.entries(value)) {
    if (previous !== undefined && !(previous < key)) return false;
    if (!keysSorted(item)) return false;
    previous = key;
  }
  return true;
}

function bad(fault: LineFault, detail: string): LineVerdict {
  return { ok: false, fault, detail };
}

/** A file's bytes cut into lines; `torn` is the trailing bytes after the last newline, if any. */
export interface SplitLines {
  readonly lines: string[];
  readonly torn?: string;
}

/** Splits a chain file's text on `\n`; a final segment without a newline is a torn append. */
export function splitLines(text: string): SplitLines {
  if (text === "") return { lines: [] };
  const parts = text.split("\n");
  const last = parts.pop() as string;
  return last === "" ? { lines: parts } : { lines: parts, torn: last };
}
