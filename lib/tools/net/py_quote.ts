/**
 * Python's `repr()` of a string, for the reference's `Couldn't fetch {url!r}` wording: single
 * quotes unless the text holds a single quote and no double quote, with backslashes, the quote
 * and control characters escaped.
 */

/** Quotes `text` the way Python's `repr(str)` does for ASCII-printable and control characters. */
export function pyQuote(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === "\\" || char === quote) out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return out + quote;
}
