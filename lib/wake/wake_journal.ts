/**
 * The wake's journal before its environment is judged, and its failure report: a wake opens its
 * journal first, so even a refused configuration leaves its `wake failed` line, and it reports
 * a failure as that line plus ONE stderr line, never a stack trace.
 */
import { oneLineError } from "../base/error_text.ts";
import { wakeFailed } from "../journal/catalogue_wake.ts";
import type { Journal } from "../journal/journal.ts";
import { LEVEL_NUMBERS, type LogFormat, parseLogFormat, parseLogLevel } from "../journal/level.ts";
import { StreamJournal } from "../journal/stream_journal.ts";

/**
 * The journal at `HARNESS_LOG_LEVEL` and `HARNESS_LOG_FORMAT` as far as they parse: an invalid
 * value logs at INFO, as text, so the `wake failed` line that reports it still reaches the journal.
 */
export function earlyJournal(rawEnv: Readonly<Record<string, string | undefined>>): StreamJournal {
  return new StreamJournal({
    minLevel: levelOf(rawEnv.HARNESS_LOG_LEVEL),
    format: formatOf(rawEnv.HARNESS_LOG_FORMAT),
  });
}

/** Where a wake's failure is told and what it was about. */
export interface FailedWake {
  readonly journal: Journal;
  /** The one stderr line's writer. */
  readonly stderr: (line: string) => void;
  readonly timeline: string;
  readonly delivery: string | undefined;
}

/** Exit 1: the ERROR `wake failed` line, and one stderr line (never a stack trace). */
export function reportFailure(failed: FailedWake, error: unknown): number {
  const { journal, timeline, delivery } = failed;
  const message = oneLineError(error);
  wakeFailed(journal, { timeline, error: message, delivery });
  if (error instanceof Error && error.stack && journal.enabled("DEBUG")) {
    journal.text("DEBUG", error.stack);
  }
  failed.stderr(message);
  return 1;
}

function formatOf(raw: string | undefined): LogFormat {
  try {
    return parseLogFormat(raw);
  } catch {
    return "text";
  }
}

function levelOf(raw: string | undefined): number {
  try {
    return parseLogLevel(raw);
  } catch {
    return LEVEL_NUMBERS.INFO;
  }
}
