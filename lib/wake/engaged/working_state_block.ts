/**
 * The working-state block (docs/context.md#the-working-state-block): the timeline's notes, then
 * its pending tasks, as one bounded text the request carries in its volatile tail at each
 * user-input boundary. Pure: the same notes and tasks give the same bytes.
 *
 * A note is shown whole (`<note key="k">value</note>`) when it fits, as a reference
 * (`<note-ref key="k" bytes="n"/>`, read with `note_get`) when it does not, and counted in
 * `<notes-omitted count="n"/>` past the count or byte bound. A value is never cut. No notes and no
 * tasks give no block at all.
 */

/** The bounds; every field has the default {@link DEFAULT_BLOCK_LIMITS} gives. */
export interface BlockLimits {
  /** The most notes shown, whole or as references. */
  readonly maxNotes: number;
  /** The most tasks shown. */
  readonly maxTasks: number;
  /** The most UTF-8 bytes the whole block may take, notes and tasks together. */
  readonly maxBytes: number;
}

/** 256 notes, 128 tasks, 64 KiB. */
export const DEFAULT_BLOCK_LIMITS: BlockLimits = Object.freeze({
  maxNotes: 256,
  maxTasks: 128,
  maxBytes: 64 * 1024,
});

/** One pending task as the block shows it. */
export interface BlockTask {
  readonly uuid: string;
  readonly activateAt: string;
  readonly instructions: string;
}

/** The first line of the block. */
export const BLOCK_HEADER: string =
  "Your working state on this timeline, as of this input. Notes are yours to keep current " +
  "(note_write, note_delete; note_get reads a <note-ref> or an omitted note); tasks are the " +
  "pending tasks scheduled here (the tasks tool).";

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).length;

/** `&`, `<` and `>` as entities, so a value can never close or open a tag of the block. */
export function escapeText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** An attribute value: the text escapes plus `"`. */
function escapeAttribute(text: string): string {
  return escapeText(text).replaceAll('"', "&quot;");
}

/** `<note key="k">value</note>`. */
export function noteEntry(key: string, value: string): string {
  return `<note key="${escapeAttribute(key)}">${escapeText(value)}</note>`;
}

/** `<note-ref key="k" bytes="n"/>`: `n` is the value's size in UTF-8 bytes. */
export function noteRef(key: string, value: string): string {
  return `<note-ref key="${escapeAttribute(key)}" bytes="${bytesOf(value)}"/>`;
}

/** `<task uuid="u" activate_at="t">instructions</task>`. */
export function taskEntry(task: BlockTask): string {
  return `<task uuid="${escapeAttribute(task.uuid)}" activate_at="${
    escapeAttribute(task.activateAt)
  }">${escapeText(task.instructions)}</task>`;
}

/** The widest omission line the block may need, reserved so it always fits. */
const OMISSION_RESERVE = bytesOf('<notes-omitted count="9999999999"/>\n') +
  bytesOf('<tasks-omitted count="9999999999"/>\n');

/**
 * The block for `notes` (sorted by key, as the store lists them) and `tasks`, or `undefined`
 * when both are empty. The notes come first and take the byte budget first — a reference for each
 * of the first `maxNotes`, then whole values in key order while they fit — and the tasks take what
 * is left.
 */
export function composeWorkingState(
  notes: readonly (readonly [key: string, value: string])[],
  tasks: readonly BlockTask[],
  limits: BlockLimits = DEFAULT_BLOCK_LIMITS,
): string | undefined {
  if (!notes.length && !tasks.length) return undefined;
  const open = [BLOCK_HEADER, "<working-state>"];
  const close = ["</working-state>"];
  const wrappers = (notes.length ? ["<notes>", "</notes>"] : []).concat(
    tasks.length ? ["<tasks>", "</tasks>"] : [],
  );
  let room = limits.maxBytes - OMISSION_RESERVE -
    [...open, ...close, ...wrappers].reduce((sum, line) => sum + bytesOf(line) + 1, 0);
  const take = (line: string): boolean => {
    const size = bytesOf(line) + 1;
    if (size > room) return false;
    room -= size;
    return true;
  };

  // Every shown note first gets its reference, so each key stays visible; then, in key order,
  // a reference becomes the whole value wherever the difference still fits.
  const shown = notes.slice(0, limits.maxNotes);
  let omittedNotes = notes.length - shown.length;
  const refs: string[] = [];
  for (const [key, value] of shown) {
    const ref = noteRef(key, value);
    if (!take(ref)) {
      omittedNotes += shown.length - refs.length;
      break;
    }
    refs.push(ref);
  }
  const noteLines = refs.map((ref, index) => {
    const [key, value] = shown[index];
    const whole = noteEntry(key, value);
    const extra = bytesOf(whole) - bytesOf(ref);
    if (extra > room) return ref;
    room -= extra;
    return whole;
  });
  if (omittedNotes) noteLines.push(`<notes-omitted count="${omittedNotes}"/>`);

  const taskLines: string[] = [];
  let omittedTasks = 0;
  for (const [index, task] of tasks.entries()) {
    if (index >= limits.maxTasks) {
      omittedTasks += tasks.length - index;
      break;
    }
    const entry = taskEntry(task);
    if (take(entry)) taskLines.push(entry);
    else omittedTasks++;
  }
  if (omittedTasks) taskLines.push(`<tasks-omitted count="${omittedTasks}"/>`);

  return [
    ...open,
    ...(notes.length ? ["<notes>", ...noteLines, "</notes>"] : []),
    ...(tasks.length ? ["<tasks>", ...taskLines, "</tasks>"] : []),
    ...close,
  ].join("\n");
}
