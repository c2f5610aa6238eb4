/**
 * The production journal: renders each line through the grammar and hands it to a sink, by
 * default the process's stderr (journald under the router). Writes are synchronous, so a wake
 * that exits or is killed right after a line has still written it, and nothing here ever throws
 * into the caller: observability never breaks a turn.
 */
import type { EventOptions, Fields, Journal, Level } from "./journal.ts";
import { LOG_LEVEL_ENV, parseLogLevel, passes } from "./level.ts";
import { type EnvGetter, processEnv, renderLine, renderText } from "./render.ts";
import { writeStderr } from "./output.ts";

/** Receives one rendered line, without its trailing newline. */
export type LineSink = (line: string) => void;

/** Writes `line` and a newline to stderr synchronously (through the scrubbed output). */
export const stderrSink: LineSink = (line) => writeStderr(line + "\n");

/** How a {@link StreamJournal} is built. */
export interface StreamJournalOptions {
  /** Minimum level (name or Python-style number); default INFO. */
  readonly minLevel?: Level | number;
  /** Where lines go; default {@link stderrSink}. */
  readonly sink?: LineSink;
  /** Environment reader for `NO_COLOR` (consulted per line); default the process env. */
  readonly env?: EnvGetter;
}

/** A {@link Journal} that renders lines and writes those at or above its level to a sink. */
export class StreamJournal implements Journal {
  /** Lines below this level are dropped (a level name or a Python-style number). */
  readonly minLevel: Level | number;
  readonly #sink: LineSink;
  readonly #env: EnvGetter;

  /** A journal to stderr at INFO and above unless `options` say otherwise. */
  constructor(options: StreamJournalOptions = {}) {
    this.minLevel = options.minLevel ?? "INFO";
    this.#sink = options.sink ?? stderrSink;
    this.#env = options.env ?? processEnv;
  }

  enabled(level: Level): boolean {
    return passes(level, this.minLevel);
  }

  event(level: Level, head: string, fields?: Fields, options?: EventOptions): void {
    if (!this.enabled(level)) return;
    this.#write(() => renderLine(level, head, fields, options, this.#env));
  }

  text(level: Level, message: string): void {
    if (!this.enabled(level)) return;
    this.#write(() => renderText(level, String(message)));
  }

  // Rendering and writing both sit inside the guard: a closed stderr (EPIPE) or a hostile value
  // loses one line, never the turn that was reporting it.
  #write(render: () => string): void {
    try {
      this.#sink(render());
    } catch {
      // Nowhere left to report a failure to report; dropping the line is the only safe move.
    }
  }
}

/**
 * The journal a wake or cleanup uses: stderr, minimum level from `HARNESS_LOG_LEVEL`.
 * @throws {LogLevelError} when `HARNESS_LOG_LEVEL` names no level (bad config refuses to load).
 */
export function journalFromEnv(
  env: EnvGetter = processEnv,
  sink: LineSink = stderrSink,
): StreamJournal {
  return new StreamJournal({ minLevel: parseLogLevel(env(LOG_LEVEL_ENV)), sink, env });
}

/**
 * A journal that keeps its lines in memory: for tests, and for a library user who inspects them.
 * Unlike the stderr journal it defaults to every level and no colour (an env where `NO_COLOR`
 * is set), because its reader is code comparing bytes.
 */
export class MemoryJournal extends StreamJournal {
  /** Every line written, in order, without trailing newlines. */
  readonly lines: string[];

  /** A journal that keeps every level, uncoloured, unless `options` say otherwise. */
  constructor(options: Omit<StreamJournalOptions, "sink"> = {}) {
    const lines: string[] = [];
    super({
      minLevel: options.minLevel ?? "DEBUG",
      env: options.env ?? ((name) => name === "NO_COLOR" ? "1" : undefined),
      sink: (line) => lines.push(line),
    });
    this.lines = lines;
  }
}
