/**
 * The conversation before a turn, measured as the transcript file holds it
 * (docs/records.md#fields): the turn record keeps these numbers so `harness replay --with-history`
 * can prove the transcript it reads later still holds exactly what the model read then.
 */
import { sha256HexAsync } from "../../base/sha256.ts";
import type { Message } from "../types/message.ts";
import { capForPersistence } from "./caps.ts";
import { serializeTranscript } from "./session_format.ts";

/** How much conversation came before a turn, and its fingerprint. */
export interface HistoryMeasure {
  /** Messages before the turn's user message. */
  readonly messages: number;
  /** Of those, the user turns (a turn's injected work is not one). */
  readonly turns: number;
  /** UTF-8 bytes of those messages as the transcript file writes them. */
  readonly bytes: number;
  /** sha256 hex of those bytes. */
  readonly sha256: string;
}

const encoder = new TextEncoder();

/**
 * Measures `history` in its saved form (both persistence caps applied, the file's spelling), so
 * the live list of a wake and the same messages loaded back from disk measure the same.
 */
export async function measureHistory(history: readonly Message[]): Promise<HistoryMeasure> {
  const text = serializeTranscript(capForPersistence(history));
  return {
    messages: history.length,
    turns: history.filter((m) => m.role === "user" && !m.injected).length,
    bytes: encoder.encode(text).length,
    sha256: await sha256HexAsync(text),
  };
}
