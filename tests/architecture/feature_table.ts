/**
 * The "Feature → files" table of docs/architecture.md, read and checked against a file list. A
 * row names files and folders (a path ending in `/`); a folder holds every file directly in it
 * that no row names. Pure functions over texts and lists, so the test proves them on planted
 * inputs before it checks the real tree.
 */

/** One row of the table: the feature and the `lib/…` paths its second cell names. */
export interface FeatureRow {
  /** The first cell, as written. */
  readonly feature: string;
  /** The backticked `lib/…` paths of the second cell, in order. */
  readonly paths: readonly string[];
}

/** The rows of the table under `heading` in `markdown` (empty when the heading is absent). */
export function featureRows(markdown: string, heading: string): FeatureRow[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) return [];
  const rows: FeatureRow[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("## ")) break;
    const cells = line.split("|").map((c) => c.trim());
    // `| a | b |` splits to ["", "a", "b", ""]; the separator row holds only dashes.
    if (cells.length < 4 || /^-+$/.test(cells[1]) || cells[1] === "Feature") continue;
    const paths = [...cells[2].matchAll(/`(lib\/[^`]*)`/g)].map((m) => m[1]);
    rows.push({ feature: cells[1], paths });
  }
  return rows;
}

/** The folder of `file` with a trailing slash: `lib/a/b.ts` → `lib/a/`. */
function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/") + 1);
}

/**
 * What is wrong with `rows` for the tree whose files are `files` (every file under lib/, by
 * `lib/…` path): a path that does not exist, a path named twice, a folder holding files that no
 * row names, and a file a row names while the same row names its folder. Empty when the table
 * agrees with the tree.
 */
export function tableProblems(rows: readonly FeatureRow[], files: readonly string[]): string[] {
  const problems: string[] = [];
  const fileSet = new Set(files);
  const folders = new Set(files.map(folderOf));
  const seen = new Map<string, string>();
  for (const row of rows) {
    if (row.paths.length === 0) problems.push(`row '${row.feature}' names no lib/ path`);
    for (const path of row.paths) {
      const exists = path.endsWith("/") ? folders.has(path) : fileSet.has(path);
      if (!exists) problems.push(`row '${row.feature}': ${path} is not in the tree`);
      const earlier = seen.get(path);
      if (earlier !== undefined) {
        problems.push(`${path} is named by two rows: '${earlier}' and '${row.feature}'`);
      }
      seen.set(path, row.feature);
      if (!path.endsWith("/") && row.paths.includes(folderOf(path))) {
        problems.push(`row '${row.feature}' names ${path} and its folder: name one`);
      }
    }
  }
  for (const folder of [...folders].sort()) {
    if (!seen.has(folder)) problems.push(`the folder ${folder} has no row`);
  }
  return problems;
}
