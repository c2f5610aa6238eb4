/**
 * The settled-claims index: `claims/<kind>/<q(timeline)>/.settled`, one claim file name per line,
 * the claims of that directory already seen final.
 *
 * Claims are kept for good — one file per item a timeline ever handled — and every wake looks
 * for the unsettled ones among them (the liveness snapshot before it narrows its permissions, the
 * bootstrap when a kind has no mark). Both runtimes create a claim only where none exists, and
 * commit or abandon it only from in-flight; the one write that can put a settled claim back in
 * flight is a take-over that won its token while another wake settled the claim (its rename does
 * not look at what it replaces). So a name seen settled is skipped unread by later wakes unless a
 * take-over token names the same item: such a claim is always read, and never indexed. A
 * long-lived timeline then costs a directory listing instead of thousands of file reads.
 *
 * The index is a cache this runtime keeps for itself: the Python harness neither reads nor writes
 * it (it only globs `*.claim`), and purging a timeline's claims directory removes it with them.
 * Losing it, or any line of it, only means reading those claims again. Each append is one write
 * that starts on a fresh line, so wakes running at once interleave whole lines and a line torn by a
 * crash names no claim file and matches nothing.
 */
import { join } from "../base/paths.ts";

/** The index's file name inside a claims directory (not a `*.claim` name, not a token's). */
export const SETTLED_INDEX = ".settled";

/** A claim file's name (`<q(uuid)>.claim`), the only kind of name the index holds. */
const CLAIM_SUFFIX = ".claim";

/** How a take-over token's name (`.<q(uuid)>.takeover.<q(owner)>`) names its item. */
const TOKEN_INFIX = ".takeover.";

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

/** What a scan of one claims directory may skip, and what it may add to the index. */
export interface SettledView {
  /** Claim files to skip unread: indexed, and no take-over token names their item. */
  readonly skip: ReadonlySet<string>;
  /** Claim files a take-over token names: always read, never indexed. */
  readonly contested: ReadonlySet<string>;
}

/** The {@link SettledView} of `dir`, given the names its listing holds. */
export function settledView(dir: string, names: readonly string[]): SettledView {
  const contested = new Set<string>();
  for (const name of names) {
    const at = name.startsWith(".") ? name.indexOf(TOKEN_INFIX, 1) : -1;
    if (at > 1) contested.add(`${name.slice(1, at)}${CLAIM_SUFFIX}`);
  }
  const skip = readSettledIndex(dir);
  for (const name of contested) skip.delete(name);
  return { skip, contested };
}

/**
 * Appends `names` (claim files just found settled, none of them contested) to `dir`'s index.
 * Never throws: a cache that cannot be written costs the next wake some reads, never this wake
 * its work.
 */
export function rememberSettled(dir: string, names: readonly string[]): void {
  if (names.length === 0) return;
  try {
    Deno.writeTextFileSync(join(dir, SETTLED_INDEX), `\n${names.join("\n")}\n`, { append: true });
  } catch {
    // read-only home, a removed directory: the claims themselves are untouched
  }
}
