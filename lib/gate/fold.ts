/**
 * Folding a text for matching, never for display: two views of a body in which the spellings a
 * model could use to slip a secret past a literal comparison collapse into one. Each folded
 * character remembers the span of the original it came from, so a match in the folded view is
 * a span of the real body (what the refusal redacts). The body itself is never changed.
 *
 * - {@link foldVisible}: what a reader sees. Compatibility forms are decomposed (NFKD: fullwidth
 *   `ＡＢＣ` → `ABC`, ligatures split, superscripts to digits), and the invisible characters are
 *   dropped: format characters (category Cf: zero-width space, joiners, word joiner, BOM, soft
 *   hyphen, bidi controls, tags), every other default-ignorable code point (Hangul fillers,
 *   variation selectors) and combining marks (so `é` and `e` + U+0301 both read `e`).
 * - {@link foldSkeleton}: what a reader could mistake for the text. The visible fold with every
 *   Unicode confusable mapped to its prototype (Cyrillic `а` → `a`, Greek `Η` → `h`, `0` → `o`,
 *   `1` and `I` → `l`, `m` → `rn`) by the confusables table of `unhomoglyph` (Unicode's
 *   confusables.txt), lower-cased, and everything but letters and digits dropped (spaces, dashes
 *   and dots a secret could be split with). Lossy on purpose: only long random strings are
 *   compared this way.
 */
import confusableTable from "unhomoglyph/data.json" with { type: "json" };

/** A folded view of a text, and the way back from it. */
export interface Folded {
  /** The folded text. */
  readonly text: string;
  /** The original span `[start, end)` that folded units `[start, end)` came from (end > start). */
  span(start: number, end: number): [number, number];
}

// The table is a pinned package's data file (one code point → its prototype). It is read as
// unknown and each entry is checked when it is looked up: parsing all 6 311 entries with zod up
// front costs some 13 ms on every first post, and an entry that is not a string is simply no
// mapping. tests/gate/fold.test.ts checks the table's shape once.
const TABLE: Readonly<Record<string, unknown>> = confusableTable;

/** The confusable prototype of one character (itself when it has none). */
function prototypeOf(c: string): string {
  const mapped = Object.hasOwn(TABLE, c) ? TABLE[c] : undefined;
  return typeof mapped === "string" ? mapped : c;
}

const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{M}]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The visible fold of one code point (possibly several characters, possibly none). */
function visibleOf(point: string): string {
  let out = "";
  for (const c of point.normalize("NFKD")) if (!INVISIBLE.test(c)) out += c;
  return out;
}

/** Confusable prototype, visible fold, lower case: one round of the skeleton. */
function round(text: string): string {
  let out = "";
  for (const c of text) out += visibleOf(prototypeOf(c)).toLowerCase();
  return out;
}

/**
 * The skeleton fold of one code point: de-confused, visible, lower-cased, letters and digits.
 * The prototype is taken before lower-casing (Greek `Η` looks like `H`, its lower case `η` does
 * not look like `h`), and again after it (`M` → `m` → `rn`, as `m` itself folds). The table maps
 * `I` to `l` but leaves `i` alone, so `i` is folded to `l` too: upper- and lower-casing a secret
 * must not change its skeleton.
 */
function skeletonOf(point: string): string {
  let out = "";
  for (const c of round(round(visibleOf(point)))) {
    if (LETTER_OR_DIGIT.test(c)) out += c === "i" ? "l" : c;
  }
  return out;
}

// ASCII holds no format character, mark or compatibility form, so its visible fold is itself;
// its skeleton is a 128-entry table. Most bodies are ASCII throughout and never leave it.
// Nothing outside U+0000…U+007F (the control characters included, which fold to themselves).
const ASCII_ONLY = /^[^\u0080-\uffff]*$/;
const ASCII_SKELETON: readonly string[] = Array.from(
  { length: 128 },
  (_, code) => skeletonOf(String.fromCharCode(code)),
);

// Per-code-point results beyond ASCII are memoised: a message uses few distinct characters, and
// each needs several normalisations. Capped, so a body of a million distinct code points cannot
// grow the memo forever.
const MEMO_LIMIT = 8192;

function memoised(fold: (point: string) => string): (point: string) => string {
  const memo = new Map<string, string>();
  return (point) => {
    let out = memo.get(point);
    if (out === undefined) {
      out = fold(point);
      if (memo.size < MEMO_LIMIT) memo.set(point, out);
    }
    return out;
  };
}

const visiblePoint = memoised(visibleOf);
const skeletonMemo = memoised(skeletonOf);

function skeletonPoint(point: string): string {
  const code = point.charCodeAt(0);
  return code < 128 ? ASCII_SKELETON[code] : skeletonMemo(point);
}

/** A text that folds to itself. */
function identity(text: string): Folded {
  return { text, span: (start, end) => [start, end] };
}

/** Folds `text` one code point at a time, remembering each output unit's source character. */
function foldWith(text: string, fold: (point: string) => string): Folded {
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let index = 0;
  for (const point of text) {
    const folded = fold(point);
    const end = index + point.length;
    for (let i = 0; i < folded.length; i++) {
      from.push(index);
      to.push(end);
    }
    parts.push(folded);
    index = end;
  }
  return { text: parts.join(""), span: (start, end) => [from[start], to[end - 1]] };
}

/** The text as a reader sees it: compatibility forms decomposed, invisible characters gone. */
export function foldVisible(text: string): Folded {
  return ASCII_ONLY.test(text) ? identity(text) : foldWith(text, visiblePoint);
}

/** An ASCII text's skeleton: one table lookup per character, each one unit wide. */
function asciiSkeleton(text: string): Folded {
  const parts: string[] = [];
  const from: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const folded = ASCII_SKELETON[text.charCodeAt(i)];
    for (let j = 0; j < folded.length; j++) from.push(i);
    parts.push(folded);
  }
  return { text: parts.join(""), span: (start, end) => [from[start], from[end - 1] + 1] };
}

/** The text's confusable skeleton: visible, lower-cased, de-confused, letters and digits only. */
export function foldSkeleton(text: string): Folded {
  return ASCII_ONLY.test(text) ? asciiSkeleton(text) : foldWith(text, skeletonPoint);
}
