/**
 * Choosing the turns to replay (docs/records.md#replay): the record selection is the records
 * layer's own, shared with `harness records show`; what is replay's alone is the `--turns` file.
 */
export { type SelectedTurns, selectTurns, type TurnSelection } from "../home/records/mod.ts";

/**
 * The record ids of a `--turns` file: one per line; blank lines and lines starting with `#` are
 * ignored, surrounding spaces trimmed.
 */
export function parseTurnIds(text: string): Set<string> {
  const ids = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line !== "" && !line.startsWith("#")) ids.add(line);
  }
  return ids;
}
