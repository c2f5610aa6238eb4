/**
 * The list convention every platform tool shares: at most 50 rows, newest first, and a
 * trailing note only when a 51st row really exists — so "there may be more" is never said
 * about an exact 50. Reading one past the cap is what tells the two apart.
 */

/** Rows one list shows. */
const LIST_CAP = 50;

/** The trailing note of a newest-first list that was cut. */
const MOST_RECENT_NOTE = `(showing the ${LIST_CAP} most recent; there may be more)`;

/** The trailing note of the (unordered) user directory when it was cut. */
export const FIRST_NOTE = `(showing the first ${LIST_CAP}; there may be more)`;

/** The first {@link LIST_CAP} rows, and whether at least one more exists. */
export interface Capped<T> {
  /** At most the cap's worth of rows, in the source's order. */
  readonly rows: readonly T[];
  /** Whether the source held at least one row past the cap. */
  readonly more: boolean;
}

/** Reads at most one row past the cap from `source` (lazily, so no extra page is fetched). */
export async function takeCapped<T>(
  source: AsyncIterable<T> | Iterable<T>,
  cap = LIST_CAP,
): Promise<Capped<T>> {
  const rows: T[] = [];
  for await (const row of source) {
    rows.push(row);
    if (rows.length > cap) break;
  }
  return { rows: rows.slice(0, cap), more: rows.length > cap };
}

/** `<title>\n<line>…[\n<note>]`, or `empty` when there are no rows. */
export function renderList<T>(
  capped: Capped<T>,
  line: (row: T) => string,
  text: { readonly title: string; readonly empty: string; readonly note?: string },
): string {
  if (capped.rows.length === 0) return text.empty;
  const lines = capped.rows.map(line);
  if (capped.more) lines.push(text.note ?? MOST_RECENT_NOTE);
  return `${text.title}\n${lines.join("\n")}`;
}
