/**
 * Python's `repr()` of a string. The reference quotes names and URLs in tool replies and
 * refusals with `{value!r}` (memory keys, filenames, `Couldn't fetch '<url>'`), and the contract
 * keeps those replies byte-identical, so `'home_city'` — and `"it's"` — must come out exactly as
 * Python prints them. One implementation for every tool.
 */

/** Code points Python's `str.isprintable()` rejects (besides ASCII, handled separately). */
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** Escapes one code point the way CPython's `unicode_repr` does. */
function escapeCodePoint(char: string, quote: string): string {
  if (char === quote || char === "\\") return `\\${char}`;
  if (char === "\t") return "\\t";
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `\\x${hex(code, 2)}`;
  if (code < 0x7f) return char;
  if (!NON_PRINTABLE.test(char)) return char;
  if (code <= 0xff) return `\\x${hex(code, 2)}`;
  if (code <= 0xffff) return `\\u${hex(code, 4)}`;
  return `\\U${hex(code, 8)}`;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}

/**
 * Returns `text` quoted as Python's `repr()` would: single quotes unless the text holds a
 * single quote and no double quote, with backslash escapes for quotes, control and other
 * non-printable characters.
 */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let body = "";
  // for…of walks code points, so astral characters (and lone surrogates) stay whole.
  for (const char of text) body += escapeCodePoint(char, quote);
  return quote + body + quote;
}
