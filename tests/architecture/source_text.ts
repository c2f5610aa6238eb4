/**
 * Just enough of TypeScript's lexical grammar for the architecture scanners to tell code from
 * comments and literals: where a quoted or regex literal ends, and when a `/` opens a regex.
 */

/** Characters after which a `/` starts a regex literal rather than a division. */
export const REGEX_PREFIX =
  /(?:^|[(,=:[!&|?{};+\-*%<>~^])$|(?:^|[^\w$])(?:return|typeof|case|in|of|void)$/;

/** End (exclusive) of the quoted literal opening at `start`; plain quotes stop at a newline. */
export function skipQuoted(source: string, start: number, quote: string): number {
  for (let i = start + 1; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (ch === quote) return i + 1;
    else if (ch === "\n" && quote !== "`") return i;
  }
  return source.length;
}

/** End (exclusive) of the regex literal opening at `start` (a `/` inside `[...]` is literal). */
export function skipRegex(source: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (ch === "\n") return i;
    else if (ch === "[") inClass = true;
    else if (ch === "]") inClass = false;
    else if (ch === "/" && !inClass) return i + 1;
  }
  return source.length;
}
