/**
 * tests/ mirrors lib/: a behaviour's tests sit in the folder named like the lib/ folder that holds
 * it, and every test file has one suffix, `.test.ts`, so a newcomer finds them by the source's
 * path. The folders that test across lib/ (or test what lives outside it) are listed in
 * {@link NOT_LIB}, each with why; an entry whose folder is gone fails too. A file that declares
 * `Deno.test` under any other name would never be run by `deno test`, so that fails as well. The
 * rules are proven on a planted tree first.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join, relative } from "node:path";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** The one suffix a test file has. */
const SUFFIX = ".test.ts";

/** Folders named this hold data the tests read, at any depth; they are not mirrored. */
const FIXTURES = "fixtures";

/** Top folders of tests/ that have no lib/ counterpart on purpose, and why. */
const NOT_LIB: Readonly<Record<string, string>> = {
  architecture: "checks the tree as a whole: layers, file sizes, features, this layout",
  contract: "the platform client against the sandbox: the API contract both sides keep",
  deploy: "mirrors deploy/ at the repository root: bundle, permissions, the systemd unit",
  docs: "mirrors docs/ and README.md: links, backticked paths, examples, the doc lint",
  e2e: "whole `harness` processes across every layer, as an operator runs them",
  examples: "mirrors examples/ at the repository root",
  fixtures: "data the tests read",
  support: "helpers shared by every folder; they hold no tests",
};

/** What the layout rules find in a tree of test files. */
interface LayoutReport {
  /** Files with a test suffix other than {@link SUFFIX} (`x_test.ts`, `x.test.js`, …). */
  readonly suffix: string[];
  /** Test files whose folder mirrors no lib/ folder and is not listed in {@link NOT_LIB}. */
  readonly unmirrored: string[];
  /** Files that declare `Deno.test` but are not named `*.test.ts`: never run. */
  readonly unrun: string[];
  /** {@link NOT_LIB} entries whose folder is gone from tests/. */
  readonly stale: string[];
}

/**
 * Checks `files` (path under tests/ → text) against `libFolders` (every folder under lib/, as
 * `a` or `a/b`) and the `exempt` top folders.
 */
function layoutReport(
  files: ReadonlyMap<string, string>,
  libFolders: ReadonlySet<string>,
  exempt: Readonly<Record<string, string>>,
): LayoutReport {
  const suffix: string[] = [];
  const unmirrored: string[] = [];
  const unrun: string[] = [];
  const tops = new Set<string>();
  for (const [path, text] of files) {
    const folders = path.split("/").slice(0, -1);
    if (folders.length > 0) tops.add(folders[0]);
    if (folders.includes(FIXTURES)) continue;
    const name = path.split("/").at(-1)!;
    const isTest = name.endsWith(SUFFIX);
    if (!isTest && /[._]test\.[cm]?[jt]sx?$/.test(name)) suffix.push(path);
    if (!isTest && /\bDeno\.test\s*\(/.test(text)) unrun.push(path);
    if (!isTest || (folders.length > 0 && folders[0] in exempt)) continue;
    if (folders.length === 0 || !libFolders.has(folders.join("/"))) unmirrored.push(path);
  }
  const stale = Object.keys(exempt).filter((top) => !tops.has(top));
  return {
    suffix: suffix.sort(),
    unmirrored: unmirrored.sort(),
    unrun: unrun.sort(),
    stale: stale.sort(),
  };
}

/** Every file under `dir`, as a path relative to it, with its text (TypeScript/JavaScript only). */
async function readTree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const path = join(at, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && /\.[cm]?[jt]sx?$/.test(entry.name)) {
        files.set(relative(dir, path), await Deno.readTextFile(path));
      }
    }
  };
  await walk(dir);
  return files;
}

/** Every folder under lib/, as `a` or `a/b`. */
async function libFolders(lib: string): Promise<Set<string>> {
  const folders = new Set<string>();
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      if (!entry.isDirectory) continue;
      const path = join(at, entry.name);
      folders.add(relative(lib, path));
      await walk(path);
    }
  };
  await walk(lib);
  return folders;
}

Deno.test("test layout: the rules catch a planted wrong suffix, folder, unrun test and stale entry", () => {
  const test = 'Deno.test("x", () => {});\n';
  const files = new Map([
    ["wake/brief.test.ts", test],
    ["wake/support.ts", "export const x = 1;\n"],
    ["wake/old_test.ts", test],
    ["wake/helper.ts", test],
    ["home/records/verify.test.ts", test],
    ["home/ledger/verify.test.ts", test],
    ["install/install.test.ts", test],
    ["e2e/wake.test.ts", test],
    ["mcp/fixtures/server_test.ts", test],
    ["loose.test.ts", test],
    ["tool/shell.test.ts", test],
  ]);
  const lib = new Set(["wake", "home", "home/records", "mcp", "tools"]);
  const report = layoutReport(files, lib, { e2e: "across layers", docs: "gone" });
  assert.deepEqual(report.suffix, ["wake/old_test.ts"]);
  assert.deepEqual(report.unrun, ["wake/helper.ts", "wake/old_test.ts"]);
  assert.deepEqual(report.unmirrored, [
    "home/ledger/verify.test.ts",
    "install/install.test.ts",
    "loose.test.ts",
    "tool/shell.test.ts",
  ]);
  assert.deepEqual(report.stale, ["docs"]);
});

Deno.test("test layout: tests/ mirrors lib/ with one suffix, every test file is run", async () => {
  const files = await readTree(join(ROOT, "tests"));
  const tests = [...files.values()].filter((text) => text.includes("Deno.test(")).length;
  assert.ok(tests > 300, `only ${tests} files declaring tests found: the walk is blind`);
  const report = layoutReport(files, await libFolders(join(ROOT, "lib")), NOT_LIB);
  assert.deepEqual(report.suffix, [], `rename these to <name>${SUFFIX}`);
  assert.deepEqual(
    report.unrun,
    [],
    `these declare Deno.test but deno test never runs them: rename them to <name>${SUFFIX}`,
  );
  assert.deepEqual(
    report.unmirrored,
    [],
    "move these under tests/<the lib/ folder they test>/ (docs/development.md#tests)",
  );
  assert.deepEqual(
    report.stale,
    [],
    "no such folder under tests/ any more: remove it from NOT_LIB",
  );
});
