/**
 * The subcommands (and every other module the CLI imports with `lazyImport`) are invisible to
 * `deno compile`, which embeds only what it can see: deploy/compile.sh must `--include` each one,
 * or the binary would ship without it and fail only when that command runs. These tests read the
 * sources, so a new command or a new lazy import cannot silently drop out of dist/harness.
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { REPO_ROOT } from "../support/run_cli.ts";

/** Repo-relative POSIX path of `rel` resolved against the directory of `file`. */
function resolveFrom(file: string, rel: string): string {
  const parts = file.split("/").slice(0, -1);
  for (const segment of rel.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== ".") parts.push(segment);
  }
  return parts.join("/");
}

/** Every `lib/**.ts` file, repo-relative. */
async function libFiles(dir = "lib"): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(`${REPO_ROOT}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await libFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const LAZY = /lazyImport<[^>]*>\(\s*new URL\("([^"]+)", import\.meta\.url\)/g;

/** `lazyImport` targets per importing file. */
async function lazyTargets(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const file of await libFiles()) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${file}`);
    const targets = [...text.matchAll(LAZY)].map((m) => resolveFrom(file, m[1]));
    if (targets.length) found.set(file, targets);
  }
  return found;
}

/** The modules deploy/compile.sh passes to `deno compile --include`. */
async function compileIncludes(): Promise<Set<string>> {
  const script = await Deno.readTextFile(`${REPO_ROOT}/deploy/compile.sh`);
  const block = /LAZY_MODULES="([^"]*)"/.exec(script);
  assert.ok(block, "deploy/compile.sh must list its LAZY_MODULES");
  assert.match(script, /for module in \$LAZY_MODULES; do includes="\$includes --include \$module"/);
  assert.match(script, /deno compile [^\n]*\$includes/, "the includes must reach deno compile");
  return new Set(block[1].split(/\s+/).filter(Boolean));
}

Deno.test("every registry command is imported lazily and embedded by deploy/compile.sh", async () => {
  const registry = await Deno.readTextFile(`${REPO_ROOT}/lib/cli/registry.ts`);
  const code = registry.split("\n").filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line)).join("\n");
  assert.doesNotMatch(
    code,
    /(?<!typeof )import\(\s*["']/,
    "a literal import() in the registry puts that command's graph on every wake's start-up",
  );
  const commands = (await lazyTargets()).get("lib/cli/registry.ts") ?? [];
  assert.equal(commands.length, COMMANDS.length, "one lazily imported module per command");
  const included = await compileIncludes();
  for (const module of commands) {
    assert.ok(included.has(module), `deploy/compile.sh does not --include ${module}`);
  }
});

Deno.test("every lazyImport target exists and is embedded by deploy/compile.sh", async () => {
  const included = await compileIncludes();
  const targets = await lazyTargets();
  assert.ok(targets.has("lib/wake/load_engaged.ts"), "the scan must see the wake's engaged half");
  for (const [file, modules] of targets) {
    for (const module of modules) {
      const stat = await Deno.stat(`${REPO_ROOT}/${module}`);
      assert.ok(stat.isFile, `${file} lazily imports ${module}, which is not a file`);
      assert.ok(included.has(module), `${file} lazily imports ${module}: --include it`);
    }
  }
  const wanted = new Set([...targets.values()].flat());
  const stale = [...included].filter((module) => !wanted.has(module));
  assert.deepEqual(stale, [], "deploy/compile.sh includes a module nothing imports lazily");
});
