/**
 * High-water marks (docs/home-layout.md#marks): one uuid per (kind, timeline), no trailing newline.
 * The mark is a cursor — the wake lists items newest-first and stops at it — so a missing or empty
 * file means "no mark" and sends the kind into its first-wake bootstrap.
 */
import { atomicWrite } from "../base/atomic_write.ts";
import { readTextIfPresent } from "../base/read_files.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { type MarkKind, markPath } from "./paths.ts";

export type { MarkKind } from "./paths.ts";

/** An item id as the platform spells it (and as every harness writes a mark): a uuid. */
const ITEM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The mark for `kind` on `timeline`, or undefined when there is none (missing or blank file).
 *
 * A mark that is not an item id (torn bytes, an editor's leftovers) also reads as none, with a
 * WARNING on `journal` naming the file: used as a cursor it would never be met, the listing
 * would walk the whole stream and the wake would answer every item ever posted, where "no mark"
 * sends the kind into its first-wake inference and answers only what is new. A file that cannot
 * be read at all (permissions, a directory) is not guessed at: it throws, failing the wake.
 */
export async function readMark(
  home: string,
  kind: MarkKind,
  timeline: string,
  journal: Journal = silentJournal,
): Promise<string | undefined> {
  const path = markPath(home, kind, timeline);
  const text = await readTextIfPresent(path);
  if (text === undefined) return undefined;
  const mark = text.trim();
  if (mark === "") return undefined;
  if (!ITEM_ID.test(mark)) {
    journal.text(
      "WARNING",
      `Mark file ${path} does not hold an item id (${describe(mark)}); reading it as no mark, ` +
        `so the ${kind} first-wake inference decides where to start and the next mark written ` +
        "replaces it.",
    );
    return undefined;
  }
  return mark;
}

/** A bounded, printable hint of what a corrupt mark holds (never the whole file). */
function describe(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `${text.length} character(s): ${JSON.stringify(shown)}`;
}

/**
 * Moves the mark for `kind` on `timeline` to `uuid`. The bytes are the reference's (the uuid, no
 * newline); the write is atomic rather than the reference's truncate-then-write, because a reader
 * landing between the two would see an empty file, read it as "no mark", and re-bootstrap.
 */
export async function writeMark(
  home: string,
  kind: MarkKind,
  timeline: string,
  uuid: string,
): Promise<void> {
  await atomicWrite(markPath(home, kind, timeline), uuid);
}
