/**
 * The settled-claims index: `claims/<kind>/<q(timeline)>/.settled`, one claim file name per line,
 * the claims of that directory already seen final.
 *
 * Claims are kept for good — one file per item a timeline ever handled — and every wake looks
 * for the unsettled ones among them (the liveness snapshot before it narrows its permissions, the
 * bootstrap when a kind has no mark). A settled claim never changes again: both runtimes create a
 * claim only where none exists and rewrite one only from in-flight to done or abandoned. So a name
 * seen settled once can be skipped unread by every later wake, and a long-lived timeline costs a
 * directory listing instead of thousands of file reads.
 *
 * The index is a cache this runtime keeps for itself: the Python harness neither reads nor writes
 * it (it only globs `*.claim`), and purging a timeline's claims directory removes it with them.
 * Losing it, or any line of it, only means reading those claims again. Lines are appended with one
 * write each, so wakes running at once interleave whole lines; a line torn by a crash names no
 * claim file and matches nothing.
 */
import { join } from "../../core/paths.ts";

/** The index's file name inside a claims directory (not a `*.claim` name, not a token's). */
export const SETTLED_INDEX = ".settled";

/** A claim file's name (`<q(uuid)>.claim`), the only kind of name the index holds. */
const CLAIM_SUFFIX = ".claim";

/** The claim file names of `dir` already known settled (empty when there is no index yet). */
export function readSettledIndex(dir: string): Set<string> {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(dir, SETTLED_INDEX));
  } catch {
    return new Set(); // none yet, or unreadable: read every claim, as without an index
  }
  const lines = text.split("\n");
  lines.pop(); // the text after the last newline: empty, or a line a crash tore
  return new Set(lines.filter((line) => line.endsWith(CLAIM_SUFFIX)));
}

/**
 * Appends `names` (claim files just found settled) to `dir`'s index. Never throws: a cache that
 * cannot be written costs the next wake some reads, never this wake its work.
 */
export function rememberSettled(dir: string, names: readonly string[]): void {
  if (names.length === 0) return;
  try {
    Deno.writeTextFileSync(join(dir, SETTLED_INDEX), `${names.join("\n")}\n`, { append: true });
  } catch {
    // read-only home, a removed directory: the claims themselves are untouched
  }
}
