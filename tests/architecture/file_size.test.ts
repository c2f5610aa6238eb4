/**
 * No lib/ file over {@link MAX_LINES} lines: a file that long holds more than one concern, and a
 * newcomer reads it whole before changing it. The few files still over the bar are listed in
 * {@link STILL_OVER}, each with why it waits; an entry for a file that is back under the bar (or
 * gone) fails too, so the list only shrinks. The counting is proven on planted texts first.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { readLib } from "./import_scan.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** The most lines a lib/ source file may hold. */
const MAX_LINES = 500;

/**
 * Files still over the bar, each with the reason it is not split yet. Remove an entry when its
 * file is split; the test fails on an entry whose file is within the bar.
 */
const STILL_OVER: Readonly<Record<string, string>> = {};

/** Lines in `text` as `wc -l` counts them, plus a last line with no newline after it. */
function lineCount(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

/** What the bar finds in a set of files: the ones over it and the exclusions no longer needed. */
interface SizeReport {
  /** `path: N lines` for every file over the bar that is not excluded. */
  readonly over: string[];
  /** Excluded paths whose file is within the bar or absent. */
  readonly stale: string[];
}

/** Checks `files` (path → text) against `max`, `excluded` paths exempt while they are over it. */
function sizeReport(
  files: ReadonlyMap<string, string>,
  max: number,
  excluded: Readonly<Record<string, string>>,
): SizeReport {
  const over: string[] = [];
  for (const [path, text] of files) {
    const n = lineCount(text);
    if (n > max && !(path in excluded)) over.push(`${path}: ${n} lines`);
  }
  const stale = Object.keys(excluded).filter((path) => {
    const text = files.get(path);
    return text === undefined || lineCount(text) <= max;
  });
  return { over: over.sort(), stale: stale.sort() };
}

Deno.test("file size: lines are counted as wc -l counts them, a last unterminated line included", () => {
  assert.equal(lineCount(""), 0);
  assert.equal(lineCount("a"), 1);
  assert.equal(lineCount("a\n"), 1);
  assert.equal(lineCount("a\nb"), 2);
  assert.equal(lineCount("a\n\n"), 2);
});

Deno.test("file size: the bar catches a planted long file and a stale exclusion", () => {
  const files = new Map([
    ["lib/a/short.ts", "x\n".repeat(3)],
    ["lib/a/at_bar.ts", "x\n".repeat(4)],
    ["lib/a/long.ts", "x\n".repeat(5)],
    ["lib/b/excused.ts", "x\n".repeat(9)],
    ["lib/b/fixed.ts", "x\n".repeat(2)],
  ]);
  const report = sizeReport(files, 4, {
    "lib/b/excused.ts": "waits",
    "lib/b/fixed.ts": "split already",
    "lib/b/gone.ts": "deleted",
  });
  assert.deepEqual(report.over, ["lib/a/long.ts: 5 lines"]);
  assert.deepEqual(report.stale, ["lib/b/fixed.ts", "lib/b/gone.ts"]);
});

Deno.test(`file size: no lib/ file is over ${MAX_LINES} lines but the listed ones`, async () => {
  const files = await readLib(ROOT);
  assert.ok(files.size > 100, `only ${files.size} lib/ files found: the walk is blind`);
  const report = sizeReport(files, MAX_LINES, STILL_OVER);
  assert.deepEqual(
    report.over,
    [],
    `split these by concern (one concern per file), see docs/development.md:\n${
      report.over.join("\n")
    }`,
  );
  assert.deepEqual(
    report.stale,
    [],
    `within ${MAX_LINES} lines now (or gone): remove them from STILL_OVER`,
  );
});
