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

/** Where lines go. Implementations must never throw into the caller. */
export interface Journal {
  /** A fact line: `<LEVEL> <head> k=v …`. */
  event(level: Level, head: string, fields?: Fields, options?: EventOptions): void;
  /** A free-text line: `<LEVEL> <message>` (scrubbed; newlines kept only for DEBUG tracebacks). */
  text(level: Level, message: string): void;
  /** Whether a line of this level would be written (lets callers skip costly formatting). */
  enabled(level: Level): boolean;
}

/** A journal that drops everything: the library default. */
export const silentJournal: Journal = {
  event() {},
  text() {},
  enabled: () => false,
};
