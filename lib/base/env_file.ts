/**
 * The agent.env format, read the way the router's wake runner reads it before it starts a wake
 * (docs/operating.md#the-agentenv-file): literally, never through a shell, so a value with `$`, a
 * backtick or spaces is data. One parser for every reader of the file (`--env-file`, verify's
 * provider lookup), so a hand-run command sees exactly the variables a routed wake gets.
 *
 * - Leading whitespace is dropped; a blank line or one starting with `#` is skipped.
 * - One leading `export ` is dropped (`export KEY=VALUE` is a line a shell would also read).
 * - The key is what comes before the first `=`, with surrounding whitespace dropped; it must be a
 *   shell name (`[A-Za-z_][A-Za-z0-9_]*`). A line without `=` or with another key is ignored and
 *   reported, as the runner ignores it.
 * - The value is the rest of the line, verbatim: no `$VAR` expansion, no escapes, no trailing
 *   comment (a `#` after the value is part of it), trailing spaces kept. One layer of matching
 *   quotes around the whole value (`"…"` or `'…'`) is dropped.
 * - A later assignment of a key replaces an earlier one. `NAME=` assigns the empty string, which
 *   the harness reads as unset for every variable but `HARNESS_CONTEXT_MESSAGES`.
 */

/** A line the format does not read as an assignment. */
export interface IgnoredEnvLine {
  /** Its 1-based line number. */
  readonly line: number;
  /** Why it was skipped; never quotes the line, which may hold a secret. */
  readonly reason: string;
}

/** What {@link parseEnvFile} read. */
export interface ParsedEnvFile {
  /** Every assigned variable, in first-assignment order; the last assignment's value. */
  readonly values: ReadonlyMap<string, string>;
  /** The lines skipped as not `KEY=VALUE`, in order. */
  readonly ignored: readonly IgnoredEnvLine[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses agent.env text. Pure; never throws. */
export function parseEnvFile(text: string): ParsedEnvFile {
  const values = new Map<string, string>();
  const ignored: IgnoredEnvLine[] = [];
  // Universal newlines, as the runner's own reader: a CRLF file means what its LF twin means.
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start an empty one.
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((raw, index) => {
    let line = raw.replace(/^\s+/, "");
    if (line === "" || line.startsWith("#")) return;
    if (line.startsWith("export ")) line = line.slice("export ".length);
    const eq = line.indexOf("=");
    if (eq === -1) {
      ignored.push({ line: index + 1, reason: "it has no '=' (expected KEY=VALUE)" });
      return;
    }
    const key = line.slice(0, eq).trim();
    if (!NAME.test(key)) {
      ignored.push({
        line: index + 1,
        reason:
          "its name is not a variable name (letters, digits and '_', not starting with a digit)",
      });
      return;
    }
    values.set(key, unquote(line.slice(eq + 1)));
  });
  return { values, ignored };
}

/** Drops one layer of matching quotes around the whole value. */
function unquote(value: string): string {
  if (value.length < 2) return value;
  const first = value[0];
  if ((first === '"' || first === "'") && value.at(-1) === first) return value.slice(1, -1);
  return value;
}
