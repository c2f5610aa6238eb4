/**
 * `HARNESS_LOG_LEVEL` and `HARNESS_LOG_FORMAT`: which lines a wake writes, and in which form. Levels are numbers, as in Python's logging
 * (DEBUG 10, INFO 20, WARNING 30, ERROR 40, CRITICAL 50), so a box configured for the Python
 * harness (`WARN`, `CRITICAL`, `15`) means the same thing here.
 */
import type { Level } from "./journal.ts";

/** The variable that sets the minimum level. */
export const LOG_LEVEL_ENV = "HARNESS_LOG_LEVEL";

/** Each level's number; a line is written when its number is at least the minimum. */
export const LEVEL_NUMBERS: Readonly<Record<Level, number>> = {
  DEBUG: 10,
  INFO: 20,
  WARNING: 30,
  ERROR: 40,
};

// Accepted names, including Python's aliases. CRITICAL (50) is above every level this runtime
// writes, so it silences the journal, exactly as it would silence the Python harness.
const NAMES: Readonly<Record<string, number>> = {
  DEBUG: 10,
  INFO: 20,
  WARNING: 30,
  WARN: 30,
  ERROR: 40,
  CRITICAL: 50,
};

/** The greatest numeric `HARNESS_LOG_LEVEL` (docs/configuration.md#numeric-ranges). */
export const MAX_LOG_LEVEL = 100;

/** A `HARNESS_LOG_LEVEL` value that names no level. */
export class LogLevelError extends Error {
  /** Names the error class in messages and logs. */
  override name = "LogLevelError";
}

/**
 * Parses a `HARNESS_LOG_LEVEL` value to a minimum level number. Unset or blank means INFO; a
 * name is case-insensitive; a whole number is taken as is (Python's numeric levels).
 * @throws {LogLevelError} naming the variable and the accepted values, for anything else.
 */
export function parseLogLevel(raw: string | undefined): number {
  const value = (raw ?? "").trim();
  if (value === "") return LEVEL_NUMBERS.INFO;
  // Any number above CRITICAL silences the journal alike; past 100 it is a typo, not a level.
  if (/^\d+$/.test(value) && Number(value) <= MAX_LOG_LEVEL) return Number(value);
  const level = NAMES[value.toUpperCase()];
  if (level !== undefined) return level;
  throw new LogLevelError(
    `${LOG_LEVEL_ENV} must be one of DEBUG, INFO, WARNING, ERROR (also WARN, CRITICAL or a ` +
      `whole number from 0 to ${MAX_LOG_LEVEL}), case-insensitive; got '${value}'.`,
  );
}

/** Whether a line at `level` passes a minimum of `min` (a level name or number). */
export function passes(level: Level, min: Level | number): boolean {
  const threshold = typeof min === "number" ? min : LEVEL_NUMBERS[min];
  return LEVEL_NUMBERS[level] >= threshold;
}

/** The variable that selects the line format. */
export const LOG_FORMAT_ENV = "HARNESS_LOG_FORMAT";

/** How lines are written: the fleet's `key=value` text, or one JSON object per line. */
export type LogFormat = "text" | "json";

/** A `HARNESS_LOG_FORMAT` value that names no format. */
export class LogFormatError extends Error {
  /** Names the error class in messages and logs. */
  override name = "LogFormatError";
}

/**
 * Parses a `HARNESS_LOG_FORMAT` value: unset or blank means `text`; `text` or `json`,
 * case-insensitive (docs/journal.md#json-lines).
 * @throws {LogFormatError} naming the variable and the accepted values, for anything else.
 */
export function parseLogFormat(raw: string | undefined): LogFormat {
  const value = (raw ?? "").trim().toLowerCase();
  if (value === "" || value === "text") return "text";
  if (value === "json") return "json";
  throw new LogFormatError(
    `${LOG_FORMAT_ENV} must be 'text' or 'json' (case-insensitive); got '${(raw ?? "").trim()}'.`,
  );
}
