/**
 * JSON exactly as Python's `json` module writes it, so a transcript saved by this runtime is
 * byte-identical to one saved by the Python reference (and the caps measure what Python measures).
 *
 * Two Python behaviours JS does not share are handled here:
 *
 * - **Spelling of numbers.** Python keeps `1.0` a float and writes it back as `1.0`; JS parses it to
 *   the number 1 and would write `1`. Python also writes floats in its own repr (`1e-05`,
 *   `1e+16`) and keeps integers beyond 2^53 exact. `parsePythonJson` records, per container, every
 *   number whose Python spelling differs from the spelling this module would derive from the JS
 *   value; `dumpsIndented` and `jsonSize` write that spelling back while the value is unchanged.
 *   A value computed in JS (never parsed) is written as Python would write an int when integral,
 *   else as a Python float repr.
 * - **Escaping.** `ensure_ascii=True` writes every character outside printable ASCII as lowercase
 *   `\uXXXX` (astral characters as surrogate pairs, U+007F and U+2028 included); the measuring form
 *   (`ensure_ascii=False`) leaves them raw and counts code points.
 *
 * Not handled (documented limits): `NaN`/`Infinity` tokens (Python reads them, JSON.parse refuses
 * them, so such a file is reported as corrupt), and object keys that look like array indices
 * (`"2"`), which JS orders before the other keys.
 */

/** A recorded spelling is valid only while the container still holds the value it was read as. */
interface Spelling {
  readonly value: number;
  readonly text: string;
}

/** Container → key → Python spelling, for the numbers whose spelling JS would change. */
const spellings = new WeakMap<object, Map<string, Spelling>>();

/** Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 or from 1e16. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  // toExponential() without an argument yields the shortest digits that round-trip, as repr does.
  const [mantissa, exponentText] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  const sign = value < 0 ? "-" : "";
  const point = exponent + 1; // where the decimal point falls relative to `digits`
  if (point > 16 || point < -3) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const magnitude = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${head}e${exponent < 0 ? "-" : "+"}${magnitude}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** How a JS number is written when nothing was recorded for it: an int if integral, else a float. */
export function defaultNumberSpelling(value: number): string {
  if (Number.isInteger(value) && !Object.is(value, -0)) return BigInt(value).toString();
  if (Object.is(value, -0)) return "0";
  return pythonFloatRepr(value);
}

/** The Python spelling of a number token read from JSON source text. */
function pythonSpellingOf(source: string, value: number): string {
  if (/[.eE]/.test(source)) return pythonFloatRepr(value);
  return BigInt(source).toString(); // Python ints are exact at any size, and `-0` is `0`
}

function record(holder: object, key: string, value: number, text: string): void {
  let table = spellings.get(holder);
  if (!table) spellings.set(holder, table = new Map());
  table.set(key, { value, text });
}

/** The spelling to write for `value` found at `holder[key]`. */
function spell(holder: object, key: string, value: number): string {
  const recorded = spellings.get(holder)?.get(key);
  return recorded && Object.is(recorded.value, value)
    ? recorded.text
    : defaultNumberSpelling(value);
}

/**
 * Anything shaped like a float or a 16+ digit number, standing alone. Inside a string this also
 * fires (`v2.0`), which only costs the slower parse; it never misses a real number token.
 */
const FLOAT_OR_LONG =
  /(?<![\w.+-])-?(?:\d+\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d{16,})(?![\w.+-])/g;

/** Whether any number token in `text` may be spelled differently by JS than by Python. */
function mayRespell(text: string): boolean {
  for (const [token] of text.matchAll(FLOAT_OR_LONG)) {
    // A float that lands on an integer (`1.0`, `1e16`, `0.99999999999999999`) or a long int.
    if (/[.eE]/.test(token) ? Number.isInteger(Number(token)) : true) return true;
  }
  return false;
}

/**
 * `JSON.parse`, additionally remembering the Python spelling of every number JS would respell.
 * Throws `SyntaxError` on invalid JSON, like `JSON.parse`.
 */
export function parsePythonJson(text: string): unknown {
  // The reviver costs a call per value; skip it when no token could need a recorded spelling.
  if (!mayRespell(text)) return JSON.parse(text);
  return JSON.parse(
    text,
    function (this: object, key: string, value: unknown, context?: { source?: string }) {
      if (typeof value === "number" && context?.source !== undefined) {
        const python = pythonSpellingOf(context.source, value);
        if (python !== defaultNumberSpelling(value)) record(this, key, value, python);
      }
      return value;
    },
  );
}

/**
 * Copies recorded number spellings from `source` to `target` for the keys both hold with the same
 * value — for code that rebuilds an object (the argument cap) without changing its numbers.
 */
export function carryNumberSpellings(source: object, target: object): void {
  const table = spellings.get(source);
  if (!table) return;
  for (const [key, spelling] of table) {
    if (Object.is((target as Record<string, unknown>)[key], spelling.value)) {
      record(target, key, spelling.value, spelling.text);
    }
  }
}

/** Runs of non-ASCII and DEL, which `ensure_ascii=True` escapes but `JSON.stringify` leaves raw. */
const NON_ASCII_RUN = /[\u007f-\uffff]+/g;

/** `\uXXXX` per UTF-16 unit, built once per unit seen (a transcript reuses few distinct ones). */
const escapes: string[] = [];

function escapeRun(run: string): string {
  let out = "";
  for (let i = 0; i < run.length; i++) {
    const unit = run.charCodeAt(i);
    out += escapes[unit] ??= `\\u${unit.toString(16).padStart(4, "0")}`;
  }
  return out;
}

/** `text` with every non-ASCII UTF-16 unit (and DEL) as lowercase `\uXXXX`, as Python writes it. */
function escapeNonAscii(text: string): string {
  return text.replace(NON_ASCII_RUN, escapeRun);
}

/**
 * A string literal with non-ASCII left raw; `dumpsIndented` escapes the whole text once.
 * JSON.stringify escapes quotes, backslashes and controls exactly as Python does (\b \f \n \r \t,
 * else lowercase \u00XX) and writes lone surrogates as lowercase \udXXX, as Python does.
 */
function rawStringLiteral(text: string): string {
  return JSON.stringify(text);
}

function scalar(holder: object | undefined, key: string, value: unknown): string | undefined {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return rawStringLiteral(value);
  if (typeof value === "number") {
    return holder ? spell(holder, key, value) : defaultNumberSpelling(value);
  }
  if (typeof value === "bigint") return value.toString();
  return undefined;
}

/** Values JSON cannot hold; skipped in objects and written as `null` in arrays, as JS does. */
function isSkippable(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function writeIndented(
  value: unknown,
  holder: object | undefined,
  key: string,
  indent: string,
): string {
  const simple = scalar(holder, key, value);
  if (simple !== undefined) return simple;
  if (isSkippable(value)) return "null";
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const parts = value.map((item, i) =>
      inner + writeIndented(isSkippable(item) ? null : item, value, String(i), inner)
    );
    return `[\n${parts.join(",\n")}\n${indent}]`;
  }
  const object = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const name of Object.keys(object)) {
    const item = object[name];
    if (isSkippable(item)) continue;
    parts.push(`${inner}${rawStringLiteral(name)}: ${writeIndented(item, object, name, inner)}`);
  }
  return parts.length === 0 ? "{}" : `{\n${parts.join(",\n")}\n${indent}}`;
}

/** Python `json.dumps(value, indent=2, ensure_ascii=True)`, byte for byte (no trailing newline). */
export function dumpsIndented(value: unknown): string {
  // JSON.stringify with two-space indent already lays out exactly as Python's indent=2 does
  // (`,` + newline between items, `": "` after keys, `[]`/`{}` when empty); only numbers need
  // Python's spelling, spliced in raw. It is several times faster than walking the value here,
  // and a wake writes its transcript several times per turn. What JSON.stringify would write
  // differently from the walk — a non-finite number (no JSON spelling to splice), a value with a
  // `toJSON` (a Date), a boxed primitive — sends the whole value down the walk instead.
  let text: string;
  try {
    text = JSON.stringify(value, pythonNumbers, 2) ?? "null";
  } catch (error) {
    if (error !== NOT_JSON_NUMBER) throw error;
    text = writeIndented(value, undefined, "", "");
  }
  // Non-ASCII only ever occurs inside string literals, so escaping the finished text is the same
  // as escaping each literal, in one pass.
  return escapeNonAscii(text);
}

/** `JSON.rawJSON` (ES2025): in V8, not yet in TypeScript's lib. */
const RawJson = JSON as unknown as { rawJSON(text: string): unknown };

/** Thrown by {@link pythonNumbers} for what only the walk writes as the walk always did. */
const NOT_JSON_NUMBER = Symbol("needs the walk");

/** JSON.stringify replacer: every number as Python spells it (see the module doc). */
function pythonNumbers(this: object, key: string, value: unknown): unknown {
  // A `toJSON` already replaced the holder's value (a Date), or a boxed primitive that
  // JSON.stringify would unwrap: the walk writes these as plain objects, as it always has.
  if (
    (this as Record<string, unknown>)[key] !== value || value instanceof Number ||
    value instanceof String || value instanceof Boolean
  ) {
    throw NOT_JSON_NUMBER;
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw NOT_JSON_NUMBER;
    return RawJson.rawJSON(spell(this, key, value));
  }
  if (typeof value === "bigint") return RawJson.rawJSON(value.toString());
  return value;
}

/** Characters that do not cost exactly one: escaped ones and surrogates. */
// deno-lint-ignore no-control-regex -- the C0 controls are exactly what JSON escapes
const NEEDS_COUNTING = /["\\\x00-\x1f\uD800-\uDFFF]/;

/** Code points a string literal costs when written with `ensure_ascii=False`. */
function stringSize(text: string): number {
  // Counted, not rendered: this runs on every value at every save. Python's non-ASCII mode
  // escapes `"` and `\\` and the C0 controls (\b \f \n \r \t short, the rest as \u00XX) and
  // writes everything else raw, a surrogate pair being one code point.
  if (!NEEDS_COUNTING.test(text)) return text.length + 2;
  let size = 2;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit !== 0x22 && unit !== 0x5c) {
      size++;
      if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i++;
      }
    } else if (unit === 0x22 || unit === 0x5c || (unit >= 0x08 && unit <= 0x0d && unit !== 0x0b)) {
      size += 2;
    } else {
      size += 6;
    }
  }
  return size;
}

function sizeOf(value: unknown, holder: object | undefined, key: string): number {
  if (value === null || isSkippable(value)) return 4;
  if (value === true) return 4;
  if (value === false) return 5;
  if (typeof value === "string") return stringSize(value);
  if (typeof value === "number") {
    return (holder ? spell(holder, key, value) : defaultNumberSpelling(value)).length;
  }
  if (typeof value === "bigint") return value.toString().length;
  if (Array.isArray(value)) {
    if (value.length === 0) return 2;
    let total = 2 + 2 * (value.length - 1);
    value.forEach((item, i) => total += sizeOf(item, value, String(i)));
    return total;
  }
  const object = value as Record<string, unknown>;
  let total = 2;
  let count = 0;
  for (const name of Object.keys(object)) {
    const item = object[name];
    if (isSkippable(item)) continue;
    total += stringSize(name) + 2 + sizeOf(item, object, name);
    count++;
  }
  return count === 0 ? 2 : total + 2 * (count - 1);
}

/**
 * `len(json.dumps(value, ensure_ascii=False))`: the compact form's length in code points — what a
 * value costs the model, whatever script it is written in (a Japanese character is one, not six).
 */
export function jsonSize(value: unknown): number {
  return sizeOf(value, undefined, "");
}

/**
 * A copy of `value` with every object's keys in sorted order, number spellings carried over:
 * with {@link dumpsIndented}, Python's `json.dumps(value, indent=2, sort_keys=True)`.
 */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out = value.map(sortKeysDeep);
    carryNumberSpellings(value, out);
    return out;
  }
  if (typeof value !== "object" || value === null) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort()) out[key] = sortKeysDeep(source[key]);
  carryNumberSpellings(source, out);
  return out;
}
