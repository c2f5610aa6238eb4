/**
 * docs/architecture.md's "Feature → files" table agrees with lib/: every path it names exists,
 * no path is named twice, and every folder has a row, so every file is reached exactly once
 * (named by a feature row, else held by its folder's row). Proven on planted tables first.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { featureRows, tableProblems } from "./feature_table.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
const HEADING = "## Feature → files";

const PLANTED = `# Doc

## Feature → files

| Feature | Files |
| ------- | ----- |
| Budget  | \`lib/a/budget.ts\`, \`lib/b/budget.ts\` |
| A       | \`lib/a/\` |
| B       | \`lib/b/\` |

## Next

| Feature | Files |
| ------- | ----- |
| Ignored | \`lib/zzz/\` |
`;

const TREE = ["lib/a/budget.ts", "lib/a/one.ts", "lib/b/budget.ts", "lib/b/two.ts"];

Deno.test("feature table: rows are read from under the heading only, with their lib/ paths", () => {
  assert.deepEqual(featureRows(PLANTED, HEADING), [
    { feature: "Budget", paths: ["lib/a/budget.ts", "lib/b/budget.ts"] },
    { feature: "A", paths: ["lib/a/"] },
    { feature: "B", paths: ["lib/b/"] },
  ]);
  assert.deepEqual(featureRows(PLANTED, "## Absent"), []);
});

Deno.test("feature table: a table that agrees with the tree has no problem", () => {
  assert.deepEqual(tableProblems(featureRows(PLANTED, HEADING), TREE), []);
});

Deno.test("feature table: a missing path, a path named twice and a folder with no row are found", () => {
  const rows = [
    { feature: "Budget", paths: ["lib/a/budget.ts", "lib/a/gone.ts"] },
    { feature: "Again", paths: ["lib/a/budget.ts"] },
    { feature: "A", paths: ["lib/a/", "lib/a/one.ts"] },
    { feature: "Empty", paths: [] },
  ];
  assert.deepEqual(tableProblems(rows, TREE), [
    "row 'Budget': lib/a/gone.ts is not in the tree",
    "lib/a/budget.ts is named by two rows: 'Budget' and 'Again'",
    "row 'A' names lib/a/one.ts and its folder: name one",
    "row 'Empty' names no lib/ path",
    "the folder lib/b/ has no row",
  ]);
});

/** Every file under lib/ but the folders' READMEs, by `lib/…` path. */
async function libFiles(): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of walkFiles(`${ROOT}/lib`)) {
    if (!entry.endsWith("/README.md")) files.push(entry.slice(ROOT.length + 1));
  }
  return files.sort();
}

async function* walkFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* walkFiles(path);
    else if (entry.isFile) yield path;
  }
}

Deno.test("feature table: docs/architecture.md's table agrees with lib/", async () => {
  const doc = await Deno.readTextFile(`${ROOT}/docs/architecture.md`);
  const rows = featureRows(doc, HEADING);
  assert.ok(
    rows.length > 10,
    `only ${rows.length} rows under '${HEADING}' in docs/architecture.md`,
  );
  const files = await libFiles();
  assert.ok(files.length > 100, `only ${files.length} lib/ files found: the walk is blind`);
  assert.deepEqual(
    tableProblems(rows, files),
    [],
    "fix the 'Feature → files' table in docs/architecture.md",
  );
});
