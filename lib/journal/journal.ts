/**
 * The journal contract: how every module reports what happened. A line is
 * `<LEVEL> <head> key=value …` (a fact line) or `<LEVEL> <free text>`; the renderer in
 * `render.ts` owns the grammar (quoting, bounding, scrubbing, colour). Modules depend on this
 * interface only, so a library user can pass a silent journal or route lines anywhere.
 */

/** Severity, spelled as the fleet's monitors expect. */
export type Level = "DEBUG" | "INFO" | "WARNING" | "ERROR";

/** A field value; `null`/`undefined` omit the pair, `0` and `false` are kept. */
export type FieldValue = string | number | boolean | null | undefined;

/** Ordered key=value pairs (object insertion order is the rendering order). */
export type Fields = Readonly<Record<string, FieldValue>>;

/** Colour of a fact line's head when colour is on. */
export type HeadColor = "green" | "blue" | "yellow" | "red";

/** Rendering options for one fact line. */
export interface EventOptions {
  /** Wrap the head in this colour (unless NO_COLOR). */
  readonly color?: HeadColor;
  /** Keys whose values are scrubbed and flattened but never truncated and always quoted. */
  readonly verbatim?: readonly string[];
}

/** A trace span's attributes (OpenTelemetry values; `undefined` leaves the attribute out). */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** A trace span in progress, as the work inside it sees it. */
export interface Span {
  /** Adds attributes learned during the work (token usage, the outcome). */
  setAttributes(attributes: SpanAttributes): void;
}

/** The span of a journal that does not trace: it records nothing. */
export const NO_SPAN: Span = { setAttributes() {} };

/** Where lines go. Implementations must never throw into the caller. */
export interface Journal {
  /** A fact line: `<LEVEL> <head> k=v …`. */
  event(level: Level, head: string, fields?: Fields, options?: EventOptions): void;
  /** A free-text line: `<LEVEL> <message>` (scrubbed; newlines kept only for DEBUG tracebacks). */
  text(level: Level, message: string): void;
  /** Whether a line of this level would be written (lets callers skip costly formatting). */
  enabled(level: Level): boolean;
  /**
   * Runs `work` inside a trace span named `name` (docs/journal.md#traces). Optional: a journal
   * without it does not trace, and {@link withSpan} just runs the work. A throw from `work` ends
   * the span as failed and is rethrown unchanged; tracing itself never throws into the work.
   */
  span?<T>(name: string, attributes: SpanAttributes, work: (span: Span) => Promise<T>): Promise<T>;
}

/** Runs `work` inside `journal`'s span named `name` when it traces, else just runs it. */
export function withSpan<T>(
  journal: Journal,
  name: string,
  attributes: SpanAttributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return journal.span ? journal.span(name, attributes, work) : work(NO_SPAN);
}

/** A journal that drops everything: the library default. */
export const silentJournal: Journal = {
  event() {},
  text() {},
  enabled: () => false,
};
