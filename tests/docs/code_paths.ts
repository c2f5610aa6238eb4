/**
 * Which repository paths the documentation names in backticks, and which of them do not exist.
 * Pure functions over file texts and an `exists` predicate, so tests/docs/code_paths.test.ts runs
 * them on planted inputs as well as on the repository.
 *
 * A code span names a repository path when one of its words starts with a top-level folder
 * (`lib/`, `tests/`, `bench/`, `docs/`, `examples/`, `deploy/`, `defaults/`, `.ci/`) or is a
 * top-level file (`deno.json`, `main.ts`, …). Such a word must name a file or folder in the tree,
 * after dropping a `#anchor` or a `:line` suffix. Two forms stand for more than one path, and are
 * the only ones allowed: a glob (`*`), which must match at least one file, and a `<placeholder>`
 * (`bench/<file>.ts`), whose fixed part before the first `<` must be an existing folder. Fenced
 * code blocks are examples, not references, and are not read. The paths in an `Old …` column of
 * the tables under docs/architecture.md's "Where things moved" heading are gone by definition and
 * are exempt there, and only there.
 */
import { proseLines } from "./markdown_links.ts";

/** Top-level folders whose paths the documentation cites. */
export const PATH_ROOTS: readonly string[] = [
  "lib/",
  "tests/",
  "bench/",
  "docs/",
  "examples/",
  "deploy/",
  "defaults/",
  ".ci/",
  "scripts/",
];

/** Top-level files the documentation cites by name alone. */
export const TOP_LEVEL_FILES: readonly string[] = [
  "deno.json",
  "deno.lock",
  "main.ts",
  "README.md",
  "CONTRIBUTING.md",
  "LICENSE",
  ".gitignore",
];

/** The page and heading whose table maps removed paths to their new homes. */
export const MOVED_TABLE = { file: "docs/architecture.md", heading: "## Where things moved" };

/** One cited path that names nothing in the tree. */
export interface PathProblem {
  /** The repository-relative Markdown file. */
  readonly file: string;
  /** 1-based line of the code span. */
  readonly line: number;
  /** The path as written. */
  readonly path: string;
  /** `missing`, `glob matches nothing` or `placeholder folder missing`. */
  readonly reason: string;
}

/** Answers whether a repository-relative path exists (a file or a folder). */
export type Exists = (path: string) => boolean;
/** Answers whether a repository-relative glob matches at least one file. */
export type GlobMatches = (glob: string) => boolean;

/** The words of one code span that look like repository paths. */
export function pathWords(span: string): string[] {
  return span.split(/\s+/)
    .map((word) => word.replace(/^[("'=]+|[)"',;.]+$/g, ""))
    .filter((word) =>
      PATH_ROOTS.some((root) => word.startsWith(root)) || TOP_LEVEL_FILES.includes(word)
    );
}

/** The path a word names: without a `#anchor`, a `:line` or `:line-line` suffix. */
export function bare(word: string): string {
  return word.replace(/#.*$/, "").replace(/:\d+(-\d+)?$/, "");
}

/**
 * Every path cited in a Markdown text's code spans, with its line and table column (-1 outside
 * a table); fenced blocks skipped.
 */
export function citedPaths(markdown: string): { path: string; line: number; cell: number }[] {
  const out: { path: string; line: number; cell: number }[] = [];
  for (const { line, number } of proseLines(markdown)) {
    // The table column a span sits in (-1 outside a table), for the moved-paths exemption.
    const row = line.trimStart().startsWith("|");
    const cells = row ? line.split("|").slice(1) : [line];
    cells.forEach((text, column) => {
      const cell = row ? column : -1;
      for (const match of text.matchAll(/`([^`]+)`/g)) {
        for (const path of pathWords(match[1])) out.push({ path, line: number, cell });
      }
    });
  }
  return out;
}

/**
 * The table cells of a heading's section (to the next heading of the same or a higher level)
 * that sit in a column headed `Old …`: `line:column` keys, 1-based lines, columns as
 * {@link citedPaths} counts them.
 */
export function oldColumnCells(markdown: string, heading: string): Set<string> {
  const cells = new Set<string>();
  const lines = markdown.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) return cells;
  const level = heading.split(" ")[0].length;
  let old: number[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i];
    if (/^#+ /.test(line) && line.split(" ")[0].length <= level) break;
    if (!line.trimStart().startsWith("|")) continue;
    const columns = line.split("|").slice(1);
    if (/^\s*\|\s*:?-+/.test(lines[i + 1] ?? "")) {
      old = columns.flatMap((text, column) => /^\s*old\b/i.test(text) ? [column] : []);
      continue;
    }
    for (const column of old) cells.add(`${i + 1}:${column}`);
  }
  return cells;
}

/** Why a cited path does not resolve, or undefined when it does. */
export function problemOf(
  path: string,
  exists: Exists,
  globMatches: GlobMatches,
): string | undefined {
  const target = bare(path);
  if (target.includes("<")) {
    const fixed = target.slice(0, target.indexOf("<"));
    const folder = fixed.slice(0, fixed.lastIndexOf("/") + 1);
    return folder !== "" && exists(folder) ? undefined : "placeholder folder missing";
  }
  if (target.includes("*")) return globMatches(target) ? undefined : "glob matches nothing";
  return exists(target) ? undefined : "missing";
}

/** Every cited path in `files` that names nothing, the moved-paths table's old column aside. */
export function missingPaths(
  files: ReadonlyMap<string, string>,
  exists: Exists,
  globMatches: GlobMatches,
): PathProblem[] {
  const problems: PathProblem[] = [];
  for (const [file, markdown] of files) {
    const exempt = file === MOVED_TABLE.file
      ? oldColumnCells(markdown, MOVED_TABLE.heading)
      : new Set<string>();
    for (const { path, line, cell } of citedPaths(markdown)) {
      if (exempt.has(`${line}:${cell}`)) continue;
      const reason = problemOf(path, exists, globMatches);
      if (reason) problems.push({ file, line, path, reason });
    }
  }
  return problems;
}

/** The problems as one line each, for an assertion message. */
export function describePaths(problems: readonly PathProblem[]): string {
  return problems.map((p) => `${p.file}:${p.line}: \`${p.path}\` (${p.reason})`).join("\n");
}
