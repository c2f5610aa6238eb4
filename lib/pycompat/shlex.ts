/**
 * Python's `shlex.quote`: a word safe to paste into a POSIX shell, spelled exactly as the Python
 * harness spells it, so a command line it emits (a claims manifest's probe `cmd`) is the same
 * bytes from either runtime.
 */

/** Characters `shlex.quote` leaves bare (Python's `[^\w@%+=:,./-]` test, ASCII only). */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `text` unchanged when it is made only of safe characters, else single-quoted. */
export function shellQuote(text: string): string {
  if (text === "") return "''";
  if (SAFE.test(text)) return text;
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}
