/**
 * The kit publishes cleanly (docs/library.md#use-the-kit-from-another-project): `deno publish
 * --dry-run` runs offline, checks the license and every exported symbol for explicit types, and
 * must pass with the whole export map. The payload is what a kit user downloads: the library, its
 * defaults and docs, never the test suite, its fixtures or the benchmarks.
 */
import assert from "node:assert/strict";
import { pathToFileURL as toFileUrl } from "node:url";
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";

Deno.test("deno publish --dry-run passes: license, export map, no slow types", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", DENO_DIR },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, text);
  assert.match(text, /Success Dry run complete/);
  assert.doesNotMatch(text, /^error/m);
  // Every entry point the docs use is published.
  const exports = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}deno.json`)).exports;
  for (const module of Object.values(exports) as string[]) {
    assert.ok(text.includes(module.replace(/^\.\//, "")), `${module} is not in the package`);
  }
  // The dry run lists every file it would upload, one `file://…/<path> (<size>)` line each.
  const root = toFileUrl(REPO_ROOT).href;
  const files = [...text.matchAll(/^\s+(file:\/\/\S+) \(/gm)].map((m) => m[1].slice(root.length));
  assert.ok(files.includes("lib/mod.ts") && files.includes("LICENSE"), files.join("\n"));
  assert.ok(files.some((file) => file.startsWith("defaults/prompts/")), "defaults are embedded");
  const stray = files.filter((file) =>
    /^(tests|bench|\.ci)\/|(^|\/)fixtures\/|[._]test\.ts$/.test(file) || file === ".git"
  );
  assert.deepEqual(stray, [], "tests, fixtures and benchmarks stay out of the package");
});

Deno.test("every lib/ module the docs import is an entry of the export map", async () => {
  const exported = new Set(
    Object.values(JSON.parse(await Deno.readTextFile(`${REPO_ROOT}deno.json`)).exports) as string[],
  );
  const imported = new Set<string>();
  for (const entry of Deno.readDirSync(`${REPO_ROOT}docs`)) {
    if (!entry.name.endsWith(".md")) continue;
    const text = await Deno.readTextFile(`${REPO_ROOT}docs/${entry.name}`);
    for (const match of text.matchAll(/from "\.\/(lib\/[^"]+\.ts)"/g)) {
      imported.add(`./${match[1]}`);
    }
  }
  assert.ok(imported.size >= 5, [...imported].join(", "));
  const missing = [...imported].filter((module) => !exported.has(module));
  assert.deepEqual(missing, [], "add these to deno.json exports");
});
