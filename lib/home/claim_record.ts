/**
 * The claim record (docs/home-layout.md#claims): a compact Python-JSON object, byte-identical to
 * `json.dumps(record)` in the reference, so either runtime reads the other's claims.
 */
import type { Journal } from "../journal/journal.ts";
import { isRecord } from "../base/json_object.ts";
import { pythonFloatRepr } from "../pycompat/json.ts";

/** The phases a claim moves through; only `in-flight` is not final. */
export type ClaimPhase = "in-flight" | "done" | "abandoned";

/** What a claim file says about its item. */
export interface ClaimRecord {
  /** `in-flight`, `done` or `abandoned` (a foreign string is kept and counts as unsettled). */
  readonly phase: string;
  /** The process that took the item; null once committed or abandoned. */
  readonly pid: number | null;
  /** The 32-hex id of the wake that took it; null once committed or abandoned. */
  readonly wake: string | null;
  /** When the record was written, epoch seconds; null on the legacy/unreadable readings. */
  readonly at: number | null;
  /** Why the item was abandoned (abandoned records only). */
  readonly reason?: string;
}

/** A settled item is never acted on again, so the high-water mark may pass it. */
export function isSettled(record: ClaimRecord): boolean {
  return record.phase === "done" || record.phase === "abandoned";
}

/** What an empty claim file decodes to: the legacy claim. */
const LEGACY = Symbol("legacy claim");

/** A claim file's text: {@link LEGACY} when empty, the parsed JSON, or undefined when not JSON. */
function decode(text: string): unknown {
  const raw = text.trim();
  if (raw === "") return LEGACY;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * Whether a claim file's text is final for good: the legacy empty claim (written only for
 * finished items) or a well-formed record whose phase is `done` or `abandoned`. An unreadable
 * record is read as done too, but is not final in this sense: it is read again every time.
 */
export function isFinalText(text: string): boolean {
  const data = decode(text);
  if (data === LEGACY) return true;
  const phase = isRecord(data) ? data.phase : undefined;
  return phase === "done" || phase === "abandoned";
}

/** The reading of an empty (legacy) or unreadable record: done, owner unknown. */
const DONE_UNKNOWN: ClaimRecord = { phase: "done", pid: null, wake: null, at: null };

/** DEL and everything above ASCII: what Python escapes under `ensure_ascii=True`. */
const NON_ASCII = /[\u007f-\uffff]/g;

/** A Python `json.dumps` string literal (`ensure_ascii=True`: lowercase `\uXXXX`). */
function pyString(text: string): string {
  return JSON.stringify(text).replace(
    NON_ASCII,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Python's spelling of a float field (`at` is always a float in the reference, `1.0` not `1`). */
function pyFloat(value: number | null): string {
  return value === null ? "null" : pythonFloatRepr(value);
}

/** Python's spelling of an int field. */
function pyInt(value: number | null): string {
  return value === null ? "null" : String(value);
}

/**
 * `json.dumps(record)` with the reference's key order:
 * `{"phase": …, "pid": …, "wake": …, "at": …}` plus `"reason"` when present.
 */
export function encodeClaimRecord(record: ClaimRecord): string {
  const wake = record.wake === null ? "null" : pyString(record.wake);
  let text = `{"phase": ${pyString(record.phase)}, "pid": ${pyInt(record.pid)}, "wake": ${wake}, ` +
    `"at": ${pyFloat(record.at)}`;
  if (record.reason !== undefined) text += `, "reason": ${pyString(record.reason)}`;
  return text + "}";
}

/**
 * Reads a record's text. Empty (after stripping) is the legacy claim, which the old code wrote
 * only for items it had finished: `done`. Anything unparseable or without a string `phase` is
 * also read as `done` with a WARNING — a wrong `done` costs a skip, a wrong `in-flight` could
 * re-drive an item that was already answered.
 */
export function parseClaimRecord(text: string, path: string, journal: Journal): ClaimRecord {
  const data = decode(text);
  if (data === LEGACY) return DONE_UNKNOWN;
  if (!isRecord(data)) return unreadable();
  const fields = data;
  if (typeof fields.phase !== "string") return unreadable();
  const record: ClaimRecord = {
    phase: fields.phase,
    pid: Number.isSafeInteger(fields.pid) ? fields.pid as number : null,
    wake: typeof fields.wake === "string" ? fields.wake : null,
    at: typeof fields.at === "number" && Number.isFinite(fields.at) ? fields.at : null,
  };
  return typeof fields.reason === "string" ? { ...record, reason: fields.reason } : record;

  function unreadable(): ClaimRecord {
    journal.text(
      "WARNING",
      `Unreadable claim record at ${path}; treating it as done rather than re-driving an item ` +
        "we cannot reason about.",
    );
    return DONE_UNKNOWN;
  }
}
