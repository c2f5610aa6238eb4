/**
 * The claim record (contract §3.4): a compact Python-JSON object, byte-identical to
 * `json.dumps(record)` in the reference, so either runtime reads the other's claims.
 */
import type { Journal } from "../../journal/journal.ts";
import { pythonFloatRepr } from "../../core/python_json.ts";

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
  const raw = text.trim();
  if (raw === "") return DONE_UNKNOWN;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    data = undefined;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return unreadable();
  const fields = data as Record<string, unknown>;
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
