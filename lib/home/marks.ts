/**
 * High-water marks (docs/home-layout.md#marks): one uuid per (kind, timeline), no trailing newline.
 * The mark is a cursor — the wake lists items newest-first and stops at it — so a missing or empty
 * file means "no mark" and sends the kind into its first-wake bootstrap.
 */
import { atomicWrite } from "../base/atomic_write.ts";
import { type MarkKind, markPath } from "./paths.ts";

export type { MarkKind } from "./paths.ts";

/** The mark for `kind` on `timeline`, or undefined when there is none (missing or blank file). */
export async function readMark(
  home: string,
  kind: MarkKind,
  timeline: string,
): Promise<string | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(markPath(home, kind, timeline));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  return text.trim() || undefined;
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
