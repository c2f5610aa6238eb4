/**
 * The kit's install check (docs/library.md#use-the-kit-from-another-project): it finds every npm
 * package lib/ imports installed in this checkout, and says nothing where it cannot tell (an
 * unmapped name, no read permission for the npm cache). The missing case, a project that
 * skipped `deno install`, runs for real in tests/examples/kit.test.ts.
 */
import assert from "node:assert/strict";
import {
  packageInstalled,
  PackagesNotInstalledError,
  requireInstalled,
} from "../../lib/base/npm_packages.ts";
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";

const config = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}deno.json`));

/** The package of a bare specifier: `@scope/name` or `name`. */
const packageOf = (specifier: string) =>
  specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

/** The npm specifiers lib/ imports: for each package, the first one that names a file. */
async function libNpmSpecifiers(): Promise<Map<string, string>> {
  const npm = new Set(
    Object.entries(config.imports as Record<string, string>)
      .filter(([, target]) => target.startsWith("npm:")).map(([name]) => name),
  );
  const byPackage = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${REPO_ROOT}${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(`${REPO_ROOT}${path}`);
        for (const m of text.matchAll(/(?:from|import\()\s*"([^".][^"]*)"/g)) {
          const name = packageOf(m[1]);
          // A subpath without an extension can be a pattern export, which names no one file.
          const file = m[1] === name || /\.[a-z]+$/.test(m[1]);
          if (npm.has(name) && file && !byPackage.has(name)) byPackage.set(name, m[1]);
        }
      }
    }
  };
  await walk("lib");
  return byPackage;
}

Deno.test("in this checkout every npm package lib/ imports is found installed", async () => {
  const specifiers = await libNpmSpecifiers();
  assert.ok(specifiers.has("openai") && specifiers.has("@openrouter/sdk"), [...specifiers].join());
  for (const specifier of specifiers.values()) {
    assert.equal(packageInstalled(specifier), true, specifier);
  }
  requireInstalled([...specifiers.values()]);
});

Deno.test("where it cannot tell, it says nothing: an unmapped name, no read permission", async () => {
  assert.equal(packageInstalled("no-such-package-in-the-import-map"), undefined);
  // No read permission for the npm cache: no answer, and no prompt (--no-prompt would fail it).
  const denied = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--deny-read", `${REPO_ROOT}tests/base/npm_packages_probe.ts`],
    cwd: REPO_ROOT,
    env: { DENO_DIR, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(denied.stdout) + new TextDecoder().decode(denied.stderr);
  assert.ok(denied.success, text);
  assert.equal(text.trim(), "null");
});

Deno.test("the error names the missing packages and the fix", () => {
  const error = new PackagesNotInstalledError(["openai", "entities"]);
  assert.match(error.message, /npm package\(s\) openai, entities are not installed/);
  assert.match(error.message, /Run `deno install` in the project's directory/);
});
