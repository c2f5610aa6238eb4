/**
 * The task seen-set (docs/home-layout.md#the-task-seen-set): activated tasks are not a
 * creation-ordered stream (one scheduled earlier can activate later), so they are remembered as a
 * set, one uuid per line, appended as each is handled so a crash mid-batch keeps what was already
 * done.
 */
import { dirname } from "../base/paths.ts";
import { seenPath } from "./paths.ts";

/** The task uuids already handled on `timeline` (stripped, non-empty lines). */
export async function readSeen(home: string, timeline: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await Deno.readTextFile(seenPath(home, timeline));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Set();
    throw error;
  }
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.trim());
  return new Set(lines.filter((line) => line !== ""));
}

/** Appends each of `uuids` to the seen-set of `timeline` as `uuid\n`. */
export async function addSeen(
  home: string,
  timeline: string,
  uuids: string | Iterable<string>,
): Promise<void> {
  const list = typeof uuids === "string" ? [uuids] : [...uuids];
  if (list.length === 0) return;
  const path = seenPath(home, timeline);
  await Deno.mkdir(dirname(path), { recursive: true });
  // One append call, so a batch lands as whole lines even if another writer appends too.
  await Deno.writeTextFile(path, list.map((uuid) => `${uuid}\n`).join(""), { append: true });
}
