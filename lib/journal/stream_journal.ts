/**
 * The production journal: renders each line through the grammar and hands it to a sink, by
 * default the process's stderr (journald under the router). Writes are synchronous, so a wake
 * that exits or is killed right after a line has still written it, and nothing here ever throws
 * into the caller: observability never breaks a turn.
 */
import {
  type EventOptions,
  type Fields,
  type Journal,
  type Level,
  NO_SPAN,
  type Span,
  type SpanAttributes,
} from "./journal.ts";
import {
  LOG_FORMAT_ENV,
  LOG_LEVEL_ENV,
  type LogFormat,
  parseLogFormat,
  parseLogLevel,
  passes,
} from "./level.ts";
import {
  type EnvGetter,
  processEnv,
  renderJsonEvent,
  renderJsonText,
  renderLine,
  renderText,
} from "./render.ts";
import { writeStderr } from "./output.ts";
import { lazyImport } from "../base/lazy_import.ts";

/** Receives one rendered line, without its trailing newline. */
export type LineSink = (line: string) => void;

/** Writes `line` and a newline to stderr synchronously (through the scrubbed output). */
export const stderrSink: LineSink = (line): void => writeStderr(line + "\n");

/** How a {@link StreamJournal} is built. */
export interface StreamJournalOptions {
  /** Minimum level (name or Python-style number); default INFO. */
  readonly minLevel?: Level | number;
  /** Where lines go; default {@link stderrSink}. */
  readonly sink?: LineSink;
  /** Environment reader for `NO_COLOR`/`FORCE_COLOR`/`OTEL_DENO`; default the process env. */
  readonly env?: EnvGetter;
  /** `text` (default) or `json`: one JSON object per line (docs/journal.md#json-lines). */
  readonly format?: LogFormat;
  /** The clock a JSON line's `time` is read from; default the system clock. */
  readonly now?: () => Date;
}

/** Whether `OTEL_DENO` turns Deno's OpenTelemetry export on (`true` or `1`). */
export function tracingEnabled(env: EnvGetter = processEnv): boolean {
  let value: string | undefined;
  try {
    value = env("OTEL_DENO");
  } catch {
    value = undefined;
  }
  const flag = (value ?? "").trim().toLowerCase();
  return flag === "true" || flag === "1";
}

type Tracing = typeof import("./otel.ts");
let tracing: Promise<Tracing | undefined> | undefined;

// The OpenTelemetry API is loaded on the first span of a process that exports traces, never
// otherwise, so the idle wake's module graph does not grow; a load failure means no tracing.
function loadTracing(): Promise<Tracing | undefined> {
  tracing ??= lazyImport<Tracing>("lib/journal/otel.ts").catch(() => undefined);
  return tracing;
}

/** A {@link Journal} that renders lines and writes those at or above its level to a sink. */
export class StreamJournal implements Journal {
  /** Lines below this level are dropped (a level name or a Python-style number). */
  readonly minLevel: Level | number;
  /** How lines are written: `text` or `json`. */
  readonly format: LogFormat;
  readonly #sink: LineSink;
  readonly #env: EnvGetter;
  readonly #now: () => Date;

  /** A journal to stderr at INFO and above unless `options` say otherwise. */
  constructor(options: StreamJournalOptions = {}) {
    this.minLevel = options.minLevel ?? "INFO";
    this.format = options.format ?? "text";
    this.#sink = options.sink ?? stderrSink;
    this.#env = options.env ?? processEnv;
    this.#now = options.now ?? (() => new Date());
  }

  enabled(level: Level): boolean {
    return passes(level, this.minLevel);
  }

  event(level: Level, head: string, fields?: Fields, options?: EventOptions): void {
    if (!this.enabled(level)) return;
    this.#write(() =>
      this.format === "json"
        ? renderJsonEvent(level, head, fields, options, this.#now())
        : renderLine(level, head, fields, options, this.#env)
    );
  }

  text(level: Level, message: string): void {
    if (!this.enabled(level)) return;
    this.#write(() =>
      this.format === "json"
        ? renderJsonText(level, String(message), this.#now())
        : renderText(level, String(message))
    );
  }

  /** A span through Deno's OpenTelemetry export when `OTEL_DENO` is on, else none. */
  async span<T>(
    name: string,
    attributes: SpanAttributes,
    work: (span: Span) => Promise<T>,
  ): Promise<T> {
    const otel = tracingEnabled(this.#env) ? await loadTracing() : undefined;
    return otel ? otel.inSpan(name, attributes, work) : work(NO_SPAN);
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
 * The journal a wake or cleanup uses: stderr, minimum level from `HARNESS_LOG_LEVEL`, format
 * from `HARNESS_LOG_FORMAT`.
 * @throws {LogLevelError} when `HARNESS_LOG_LEVEL` names no level (bad config refuses to load).
 * @throws {LogFormatError} when `HARNESS_LOG_FORMAT` is neither `text` nor `json`.
 */
export function journalFromEnv(env: EnvGetter = processEnv, sink?: LineSink): StreamJournal {
  return new StreamJournal({
    minLevel: parseLogLevel(env(LOG_LEVEL_ENV)),
    format: parseLogFormat(env(LOG_FORMAT_ENV)),
    sink,
    env,
  });
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
      ...options,
      minLevel: options.minLevel ?? "DEBUG",
      env: options.env ?? ((name) => name === "NO_COLOR" ? "1" : undefined),
      sink: (line) => lines.push(line),
    });
    this.lines = lines;
  }
}
