/**
 * Deno cannot see a `lazyImport` ahead of time, so lib/base/lazy_modules.ts names every module
 * imported that way: it makes each an entry point of the bundle (deploy/bundle.ts), which is what
 * the binary is compiled from. A module missing from the list would be missing from the binary
 * and fail only when its command runs. These tests read the sources, so a new command or a new
 * lazy import cannot silently drop out.
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { LAZY_MODULES } from "../../lib/base/lazy_modules.ts";
import { BUNDLED, PACKAGE_ROOT, packageModuleUrl } from "../../lib/base/lazy_import.ts";
import { REPO_ROOT } from "../support/run_cli.ts";

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

const LAZY = /lazyImport<[^>]*>\(\s*"([^"]+)",?\s*\)/g;

/** `lazyImport` targets per importing file. */
async function lazyTargets(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const file of await libFiles()) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/${file}`);
    const targets = [...text.matchAll(LAZY)].map((m) => m[1]);
    if (targets.length) found.set(file, targets);
  }
  return found;
}

Deno.test("every registry command is imported lazily, through the list", async () => {
  const registry = await Deno.readTextFile(`${REPO_ROOT}/lib/cli/registry.ts`);
  const code = registry.split("\n").filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line)).join("\n");
  assert.doesNotMatch(
    code,
    /(?<!typeof )import\(\s*["']/,
    "a literal import() in the registry puts that command's graph on every wake's start-up",
  );
  const commands = (await lazyTargets()).get("lib/cli/registry.ts") ?? [];
  assert.equal(commands.length, COMMANDS.length, "one lazily imported module per command");
  for (const module of commands) {
    assert.ok((LAZY_MODULES as readonly string[]).includes(module), `${module} is not listed`);
  }
});

Deno.test("every lazyImport target is a listed file, and every listed module is imported", async () => {
  const targets = await lazyTargets();
  assert.ok(targets.has("lib/wake/engaged_half.ts"), "the scan must see the wake's engaged half");
  for (const [file, modules] of targets) {
    for (const module of modules) {
      const stat = await Deno.stat(`${REPO_ROOT}/${module}`);
      assert.ok(stat.isFile, `${file} lazily imports ${module}, which is not a file`);
      assert.ok((LAZY_MODULES as readonly string[]).includes(module), `${module} is not listed`);
    }
  }
  const wanted = new Set([...targets.values()].flat());
  const stale = LAZY_MODULES.filter((module) => !wanted.has(module));
  assert.deepEqual(stale, [], "lib/base/lazy_modules.ts lists a module nothing imports lazily");
  assert.equal(new Set(LAZY_MODULES).size, LAZY_MODULES.length, "a module is listed twice");
});

Deno.test("the binary is compiled from the bundle, with every file of it included", async () => {
  const script = await Deno.readTextFile(`${REPO_ROOT}/deploy/compile.sh`);
  assert.match(script, /^deno run -A deploy\/bundle\.ts --outdir dist\/bundle \|\| exit 1$/m);
  assert.match(script, /find bundle -name '\*\.js'/);
  // The permission set as explicit flags, from deno.json through deploy/permissions.ts.
  assert.match(script, /^permissions=\$\(deno run -A deploy\/permissions\.ts --print /m);
  assert.match(
    script,
    /deno compile \$permissions --config dist\/bundle\/deno\.json \$includes [^\n]*\\\n\s+dist\/bundle\/main\.js/,
  );
});

Deno.test("from source, lazy modules resolve under the repository root", () => {
  assert.equal(BUNDLED, false);
  assert.equal(PACKAGE_ROOT.href, new URL(`file://${REPO_ROOT}`).href);
  assert.equal(
    packageModuleUrl("lib/wake/wake.ts").href,
    new URL("lib/wake/wake.ts", `file://${REPO_ROOT}`).href,
  );
  assert.equal(packageModuleUrl("main.ts").href, new URL("main.ts", `file://${REPO_ROOT}`).href);
});
