/**
 * Turns free text from a model into an FTS5 MATCH expression that can never be read as FTS
 * syntax. FTS5 treats `"`, `*`, `-`, `(`, `:`, `^`, `AND`/`OR`/`NOT`/`NEAR` as operators, and a
 * stray one is a syntax error; quoting every term as a phrase makes all of them literal text.
 */

/**
 * The MATCH expression for `text`: each whitespace-separated term as a quoted phrase (inner
 * `"` doubled, FTS5's escape), OR-joined so any one term recalls a row — recall over
 * precision, which is what "I half-remember this" wants. Returns `""` for blank input; callers
 * reject blank queries before searching.
 */
export function ftsMatchExpression(text: string): string {
  return splitTerms(text).map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}

/** Whitespace-separated terms, as Python's `str.split()` with no argument yields them. */
export function splitTerms(text: string): string[] {
  return text.split(/\s+/u).filter((term) => term.length > 0);
}
