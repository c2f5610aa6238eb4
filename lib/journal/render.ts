/**
 * The fact-line grammar, as pure functions: `<LEVEL> <head> k=v …`. Every value is rendered,
 * never interpolated, because some values are not ours (a tool's exception, a provider's error
 * body): left raw they could split a record across lines, forge a field (`outcome=ok`), run to
 * the length of a response body or carry a credential. A reader of this stream must be able to
 * trust that the fields it sees are the fields the harness wrote.
 */
import type { EventOptions, Fields, FieldValue, HeadColor, Level } from "./journal.ts";
import { scrubSecrets } from "./scrub.ts";
import { codePointLength } from "../base/code_points.ts";

/** A field value's bound, in code points (longer values keep 239 and end with `…`). */
export const MAX_VALUE = 240;

/** SGR escape for each head colour. */
export const COLORS: Readonly<Record<HeadColor, string>> = {
  green: "\x1b[32m",
  blue: "\x1b[34m",
  yellow: "\x1b[33m",
  red: "\x1b[31m",
};

/** SGR reset. */
export const RESET = "\x1b[0m";

/** Reads one environment variable; injectable so colour can be tested without touching the env. */
export type EnvGetter = (name: string) => string | undefined;

/** Reads the process environment, treating a denied permission as unset. */
export const processEnv: EnvGetter = (name): string | undefined => {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
};

// The verdict vocabulary: only the `outcome=` pair is coloured, and only for these words.
const OUTCOME_COLORS: Readonly<Record<string, string>> = {
  ok: COLORS.green,
  error: COLORS.red,
  declined: COLORS.yellow,
};

/**
 * Whether colour is on (docs/journal.md#colour): the fleet's rule, as the Python harness 0.104
 * has it — verdicts are coloured wherever the lines go, journald included, because a wake's
 * journal is read in a log viewer's live tail, never on a terminal; so whether the stream is a
 * terminal is deliberately not asked. `NO_COLOR` non-empty turns it off, and so does
 * `FORCE_COLOR` set to `0` or `false`. The variables are read per line, so a test (or a
 * long-lived process) can flip them.
 */
export function colorEnabled(env: EnvGetter = processEnv): boolean {
  if (read(env, "NO_COLOR")) return false;
  const force = read(env, "FORCE_COLOR")?.trim().toLowerCase();
  return force !== "0" && force !== "false";
}

/** One variable, treating a getter that throws (env permission denied) as unset. */
function read(env: EnvGetter, name: string): string | undefined {
  try {
    return env(name);
  } catch {
    return undefined;
  }
}

// Exactly the characters Python's str.split() treats as whitespace, so a value collapses to the
// same bytes the reference harness writes (JS `\s` differs: it lacks U+001C–U+001F and U+0085).
const WHITESPACE_RUN =
  // deno-lint-ignore no-control-regex -- U+001C–U+001F are whitespace to Python, so they collapse
  /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

// Control characters left after whitespace collapse (NUL, BEL, ESC, DEL, C1): an ESC in a tool's
// error text could paint a fake coloured verdict on a terminal, so each becomes U+FFFD.
// deno-lint-ignore no-control-regex -- matching control characters is this regex's purpose
const CONTROLS = /[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]/g;

// In a DEBUG line newlines and tabs are kept (a traceback reads as one); everything else goes.
// deno-lint-ignore no-control-regex -- matching control characters is this regex's purpose
const DEBUG_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Collapses every whitespace run (newlines and tabs included) to one space and trims the ends. */
export function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, " ").trim();
}

/** Replaces terminal control characters (other than whitespace) with U+FFFD. */
export function neutralizeControls(text: string): string {
  return text.replace(CONTROLS, "\ufffd");
}

/** One record, one line, no secret: collapse, neutralize controls, then scrub. */
export function flatten(text: string): string {
  return scrubSecrets(neutralizeControls(collapseWhitespace(text)));
}

/**
 * Bounds `text` to {@link MAX_VALUE} code points: the first 239, right-stripped, plus `…`.
 * Counts code points, not UTF-16 units, so an emoji is one character and is never split.
 */
export function bound(text: string, max: number = MAX_VALUE): string {
  // Cheap exit: a string can hold no more code points than UTF-16 units.
  if (text.length <= max) return text;
  const points = Array.from(text);
  if (points.length <= max) return text;
  return points.slice(0, max - 1).join("").replace(/ +$/, "") + "…";
}

function quoteAlways(text: string): string {
  return `"${text.replaceAll('"', "'")}"`;
}

/**
 * One field's rendered value, or `undefined` when the pair is omitted (null, undefined, or
 * empty after flattening). Flatten, scrub, bound, then quote when the value holds a space,
 * `=` or `"` (each `"` becoming `'`), so it always reads as exactly one value.
 */
export function renderValue(value: FieldValue): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = bound(flatten(String(value)));
  if (text === "") return undefined;
  return /[ ="]/.test(text) ? quoteAlways(text) : text;
}

/**
 * A verbatim value (the unspoken `text=`): flattened and scrubbed but never truncated, and
 * always quoted, even when empty, because it is prose that exists nowhere else.
 */
export function renderVerbatim(value: FieldValue): string | undefined {
  if (value === null || value === undefined) return undefined;
  return quoteAlways(flatten(String(value)));
}

/** Options for rendering the `k=v` part of a line. */
export interface FieldRenderOptions {
  /** Whether the `outcome=` pair may be coloured. */
  readonly colored: boolean;
  /** Keys rendered with {@link renderVerbatim}. */
  readonly verbatim?: readonly string[];
}

/** The `k=v …` pairs in insertion order, single-space separated, omitted pairs dropped. */
export function renderFields(fields: Fields, options: FieldRenderOptions): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const rendered = options.verbatim?.includes(key) ? renderVerbatim(value) : renderValue(value);
    if (rendered === undefined) continue;
    const pair = `${key}=${rendered}`;
    // Coloured after rendering, so an escape can never sit inside a value, and a quoted forged
    // "outcome=ok" is not a vocabulary word and stays plain.
    const color = options.colored && key === "outcome" ? OUTCOME_COLORS[rendered] : undefined;
    parts.push(color ? `${color}${pair}${RESET}` : pair);
  }
  return parts.join(" ");
}

/** The head, wrapped whole in its colour (never split, so `grep 'wake start'` still matches). */
export function renderHead(head: string, color: HeadColor | undefined, colored: boolean): string {
  const text = flatten(head);
  return color && colored ? `${COLORS[color]}${text}${RESET}` : text;
}

/**
 * A fact line without its level: `<head> k=v …` (just the head when no pair survives).
 * Colour is decided once per line from `env` ({@link colorEnabled}), so a line is never half
 * coloured.
 */
export function renderEvent(
  head: string,
  fields: Fields = {},
  options: EventOptions = {},
  env: EnvGetter = processEnv,
): string {
  const colored = colorEnabled(env);
  const pairs = renderFields(fields, { colored, verbatim: options.verbatim });
  const rendered = renderHead(head, options.color, colored);
  return pairs ? `${rendered} ${pairs}` : rendered;
}

/** A whole fact line: `<LEVEL> <head> k=v …`. */
export function renderLine(
  level: Level,
  head: string,
  fields: Fields = {},
  options: EventOptions = {},
  env: EnvGetter = processEnv,
): string {
  return `${level} ${renderEvent(head, fields, options, env)}`;
}

/**
 * A free-text line: `<LEVEL> <message>`, scrubbed. Flattened to one line unless the level is
 * DEBUG, which may keep newlines (a traceback); controls other than newline and tab are
 * neutralized either way.
 */
export function renderText(level: Level, message: string): string {
  const body = level === "DEBUG"
    ? scrubSecrets(message.replace(/\r\n?/g, "\n").replace(DEBUG_CONTROLS, "\ufffd"))
    : flatten(message);
  return `${level} ${body}`;
}

// Python formats `.Nf` with round-half-even on the exact binary value; JS toFixed rounds an
// exact tie away from zero (0.125 → "0.13" where Python writes "0.12"). Ties are exact only for
// dyadic fractions, so detect one from the exact expansion and round it to even.
function toFixedHalfEven(value: number, digits: number): string {
  const fixed = value.toFixed(digits);
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return fixed;
  const exact = Math.abs(value).toFixed(100);
  const [whole, fraction] = exact.split(".");
  if (!/^50*$/.test(fraction.slice(digits))) return fixed;
  const kept = whole + fraction.slice(0, digits);
  if (Number(kept.at(-1)) % 2 === 1) return fixed;
  const truncated = digits > 0 ? `${whole}.${fraction.slice(0, digits)}` : whole;
  return value < 0 ? `-${truncated}` : truncated;
}

/** A duration as `1.23s`: seconds with two decimals, every line the same. */
export function formatDuration(seconds: number): string {
  return `${toFixedHalfEven(seconds, 2)}s`;
}

/**
 * A dollar cost as plain fixed point (`0.0445`, `2.1`, `0`, never `4.45e-2`): 8 decimals with
 * trailing zeros and dot stripped. `undefined` (pair omitted) for anything that is not a finite,
 * non-negative number: a vendor's surprise never breaks a line.
 */
export function formatCost(cost: unknown): string | undefined {
  if (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0) return undefined;
  // -0 passes the sign test; render it as the zero it is.
  const text = toFixedHalfEven(cost === 0 ? 0 : cost, 8);
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/** The number of code points in `text` (Python's `len`), for `chars=` fields. */
export const codePoints: (text: string) => number = codePointLength;

/** A journal line as one JSON object (`HARNESS_LOG_FORMAT=json`, docs/journal.md#json-lines). */
export interface JsonLine {
  /** When the line was written, ISO 8601 in UTC with milliseconds. */
  readonly time: string;
  /** The line's level. */
  readonly level: Level;
  /** A fact line's head (`wake start`, `llm`, …); absent on a free-text line. */
  readonly head?: string;
  /** The text line without its level and without colour: what `grep` would match. */
  readonly message: string;
  /** A fact line's pairs, each value exactly as the text line shows it, unquoted. */
  readonly fields?: Readonly<Record<string, string | number | boolean>>;
}

// A rendered value is quoted only with a `"` at each end and none inside (each inner `"` became
// `'`), so dropping the two ends gives back exactly the text between them.
function unquoted(rendered: string): string {
  return rendered.length >= 2 && rendered.startsWith('"') && rendered.endsWith('"')
    ? rendered.slice(1, -1)
    : rendered;
}

/**
 * The pairs of a fact line as an object, in insertion order, with the text line's values: every
 * value flattened, scrubbed, bounded and stripped of its quotes; a number or boolean stays a
 * JSON number or boolean when its text is the plain `String(value)` (so `posted=0` is `0`).
 */
export function jsonFields(
  fields: Fields,
  verbatim?: readonly string[],
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(fields)) {
    const rendered = verbatim?.includes(key) ? renderVerbatim(value) : renderValue(value);
    if (rendered === undefined) continue;
    const text = unquoted(rendered);
    const typed = (typeof value === "number" && Number.isFinite(value)) ||
      typeof value === "boolean";
    out[key] = typed && text === String(value) ? value as number | boolean : text;
  }
  return out;
}

// The JSON form never carries colour: its reader is a machine.
const NO_COLOR: EnvGetter = (name) => (name === "NO_COLOR" ? "1" : undefined);

/** A fact line as one JSON object ({@link JsonLine}), without a trailing newline. */
export function renderJsonEvent(
  level: Level,
  head: string,
  fields: Fields = {},
  options: EventOptions = {},
  time: Date = new Date(),
): string {
  const line: JsonLine = {
    time: time.toISOString(),
    level,
    head: flatten(head),
    message: renderEvent(head, fields, options, NO_COLOR),
    fields: jsonFields(fields, options.verbatim),
  };
  return JSON.stringify(line);
}

/** A free-text line as one JSON object (`message` scrubbed as {@link renderText} does). */
export function renderJsonText(level: Level, message: string, time: Date = new Date()): string {
  const line: JsonLine = {
    time: time.toISOString(),
    level,
    message: renderText(level, message).slice(level.length + 1),
  };
  return JSON.stringify(line);
}
