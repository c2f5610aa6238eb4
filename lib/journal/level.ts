/**
 * `HARNESS_LOG_LEVEL`: which lines a wake writes. Levels are numbers, as in Python's logging
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

/** A `HARNESS_LOG_LEVEL` value that names no level. */
export class LogLevelError extends Error {
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
  if (/^\d+$/.test(value)) return Number(value);
  const level = NAMES[value.toUpperCase()];
  if (level !== undefined) return level;
  throw new LogLevelError(
    `${LOG_LEVEL_ENV} must be one of DEBUG, INFO, WARNING, ERROR (also WARN, CRITICAL or a ` +
      `whole number), case-insensitive; got '${value}'.`,
  );
}

/** Whether a line at `level` passes a minimum of `min` (a level name or number). */
export function passes(level: Level, min: Level | number): boolean {
  const threshold = typeof min === "number" ? min : LEVEL_NUMBERS[min];
  return LEVEL_NUMBERS[level] >= threshold;
}
