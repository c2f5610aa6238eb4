/**
 * The documentation names no path that is not in the tree: every repository path in a code span
 * of README.md, CONTRIBUTING.md and docs/**\/*.md exists, globs match a file and placeholders sit
 * in an existing folder (the rules are in tests/docs/code_paths.ts). The checker is proven on
 * planted inputs first, so a pass means something. Reads files only; no subprocess.
 */
import { strict as assert } from "node:assert";
import { globSync } from "node:fs";
import { bare, citedPaths, describePaths, missingPaths, pathWords } from "./code_paths.ts";
import { REPO_ROOT } from "../support/run_cli.ts";

/** Repository-relative Markdown files under `dir`. */
function markdownUnder(dir: string, out: string[] = []): string[] {
  for (const entry of Deno.readDirSync(`${REPO_ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) markdownUnder(path, out);
    else if (entry.isFile && entry.name.endsWith(".md")) out.push(path);
  }
  return out;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(`${REPO_ROOT}${path}`);
    return true;
  } catch {
    return false;
  }
}

function globMatches(glob: string): boolean {
  return globSync(glob, { cwd: REPO_ROOT }).length > 0;
}

/** README.md, CONTRIBUTING.md and every Markdown page under docs/. */
function documentation(): Map<string, string> {
  const paths = ["README.md", "CONTRIBUTING.md", ...markdownUnder("docs").sort()];
  return new Map(paths.map((path) => [path, Deno.readTextFileSync(`${REPO_ROOT}${path}`)]));
}

Deno.test("pathWords: path-like words of a code span, punctuation and commands aside", () => {
  assert.deepEqual(pathWords("deno test -A tests/docs/ lib/mod.ts"), ["tests/docs/", "lib/mod.ts"]);
  assert.deepEqual(pathWords("deno.json"), ["deno.json"]);
  assert.deepEqual(pathWords("(lib/core/engine.ts),"), ["lib/core/engine.ts"]);
  assert.deepEqual(pathWords("HARNESS_HOME/records/ timeline:<uuid> mylib/x.ts"), []);
  assert.equal(bare("docs/operating.md#quiet-output"), "docs/operating.md");
  assert.equal(bare("lib/core/engine.ts:120-140"), "lib/core/engine.ts");
});

Deno.test("citedPaths: code spans outside fenced blocks, with line and table column", () => {
  const page = [
    "See `lib/a.ts` and `deno task check`.",
    "```sh",
    "cat lib/in_a_fence.ts `lib/also_fenced.ts`",
    "```",
    "| `lib/old.ts` | `lib/new.ts` |",
  ].join("\n");
  assert.deepEqual(citedPaths(page), [
    { path: "lib/a.ts", line: 1, cell: -1 },
    { path: "lib/old.ts", line: 5, cell: 0 },
    { path: "lib/new.ts", line: 5, cell: 1 },
  ]);
});

Deno.test("missingPaths reports planted bad paths, globs and placeholders", () => {
  const tree = new Set(["lib/", "lib/a.ts", "bench/", "docs/", "docs/architecture.md"]);
  const has = (path: string) => tree.has(path);
  const globs = (glob: string) => glob === "lib/*.ts";
  const files = new Map([
    [
      "planted/x.md",
      [
        "Good: `lib/a.ts`, `lib/`, `lib/a.ts:12`, `lib/*.ts`, `bench/<file>.ts`.",
        "Bad: `lib/b.ts`, `docs/*.md`, `scripts/<name>.sh`, `run lib/gone/ now`.",
      ].join("\n"),
    ],
    [
      "docs/architecture.md",
      [
        "## Where things moved",
        "",
        "| Old path | New path |",
        "| --- | --- |",
        "| `lib/core/old.ts` | `lib/a.ts` |",
        "| `lib/core/gone.ts` | `lib/missing_new.ts` |",
        "",
        "| Types | Old module | New module |",
        "| --- | --- | --- |",
        "| `T` | `lib/core/was.ts` | `lib/core/gone_too.ts` |",
        "",
        "## Next",
        "",
        "| Old path | New path |",
        "| --- | --- |",
        "| `lib/core/old.ts` | elsewhere |",
      ].join("\n"),
    ],
  ]);
  assert.deepEqual(
    missingPaths(files, has, globs).map((p) => `${p.file}:${p.line} ${p.path} ${p.reason}`),
    [
      "planted/x.md:2 lib/b.ts missing",
      "planted/x.md:2 docs/*.md glob matches nothing",
      "planted/x.md:2 scripts/<name>.sh placeholder folder missing",
      "planted/x.md:2 lib/gone/ missing",
      "docs/architecture.md:6 lib/missing_new.ts missing",
      "docs/architecture.md:10 lib/core/gone_too.ts missing",
      "docs/architecture.md:16 lib/core/old.ts missing",
    ],
  );
});

Deno.test("every repository path the documentation names in backticks exists", () => {
  const files = documentation();
  assert.ok(files.size > 10, "docs/ holds the manual");
  const cited = [...files.values()].flatMap((text) => citedPaths(text));
  assert.ok(cited.length > 300, `the manual cites paths (found ${cited.length})`);
  const problems = missingPaths(files, exists, globMatches);
  assert.deepEqual(problems, [], describePaths(problems));
});
