/**
 * Builds the bundle the binary is compiled from: `dist/bundle/` (or `--outdir`), a directory that
 * runs on its own: `<dir>/harness <command> …` (a launcher that runs
 * `deno run <the harness permission flags> --config <dir>/deno.json <dir>/main.js`).
 *
 *   deno run -A deploy/bundle.ts [--outdir dist/bundle] [--minify]
 *
 * Why bundle: `deno run main.ts` resolves, reads and instantiates every module separately — about
 * 210 for a wake with nothing new (ours plus zod's) and some 450 more once the model SDK loads —
 * and that per-module cost is most of a short wake's start-up. The bundle keeps the same module
 * boundaries where they matter: main.ts and every lazily imported module (lib/base/lazy_modules.ts)
 * is an entry point of its own, and code shared between them is split into chunks, so each source
 * module is still evaluated once, and only when its entry point is first imported.
 *
 * The directory holds main.js, one `<path>.js` per lazy module, the shared `chunk-*.js` files, a
 * deno.json carrying only the production permission set (`harness`) of the repository's, and the
 * `harness` launcher, which passes that set as explicit flags (deploy/permissions.ts) so Deno
 * prints no "experimental" notice into a wake's journal. npm packages are inlined; only Deno's
 * built-in `node:` modules stay imports.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { join, relative, resolve } from "node:path";
import { LAZY_MODULES } from "../lib/base/lazy_modules.ts";
import { permissionFlags, type PermissionSet, shellQuote } from "./permissions.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const { values } = parseArgs({
  args: Deno.args,
  options: {
    outdir: { type: "string", default: join(ROOT, "dist", "bundle") },
    minify: { type: "boolean", default: false },
  },
});
const outdir = resolve(values.outdir);

const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))) as {
  permissions?: Record<string, PermissionSet>;
};
if (!config.permissions?.harness) {
  console.error("bundle: deno.json has no `harness` permission set to carry into the bundle.");
  Deno.exit(1);
}

// deno bundle reports a missing entry point without its name: say which one, and why it is asked for.
const absent: string[] = [];
for (const module of LAZY_MODULES) {
  await Deno.stat(join(ROOT, module)).catch(() => absent.push(module));
}
if (absent.length > 0) {
  console.error(
    `bundle: lib/base/lazy_modules.ts lists ${absent.join(", ")}, which does not exist; ` +
      "remove it from the list or restore the module.",
  );
  Deno.exit(1);
}

// The output directory is replaced whole, so it must be new, empty, or a bundle written before.
const refusal = replaceRefusal(outdir);
if (refusal) {
  console.error(
    `bundle: refusing to replace ${outdir}: ${refusal}; choose a new or empty --outdir.`,
  );
  Deno.exit(1);
}
await Deno.remove(outdir, { recursive: true }).catch((error) => {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
});
const args = [
  "bundle",
  "--quiet",
  "--config",
  join(ROOT, "deno.json"),
  "--platform",
  "deno",
  "--code-splitting",
  // Class and function names are journal and error output (`error=ProviderTimeoutError`).
  ...(values.minify ? ["--minify", "--keep-names"] : []),
  "--outdir",
  outdir,
  "main.ts",
  ...LAZY_MODULES,
];
const built = await new Deno.Command(Deno.execPath(), {
  args,
  cwd: ROOT,
  stdout: "inherit",
  stderr: "piped",
}).output();
const stderr = new TextDecoder().decode(built.stderr).replace(/^.*is experimental.*\n/m, "");
if (!built.success) {
  console.error(stderr.trimEnd());
  console.error(`bundle: deno bundle exited ${built.code}; nothing usable was written.`);
  Deno.exit(1);
}

// Each entry point must have landed at its package path, or lazyImport would miss it at run time.
const missing: string[] = [];
for (const entry of ["main.ts", ...LAZY_MODULES]) {
  const output = join(outdir, entry.replace(/\.ts$/, ".js"));
  try {
    await Deno.stat(output);
  } catch {
    missing.push(relative(ROOT, output));
  }
}
if (missing.length > 0) {
  console.error(`bundle: entry points missing from the bundle: ${missing.join(", ")}`);
  Deno.exit(1);
}

await Deno.writeTextFile(
  join(outdir, "deno.json"),
  JSON.stringify({ permissions: { harness: config.permissions.harness } }, null, 2) + "\n",
);
await Deno.writeTextFile(join(outdir, "harness"), launcher(config.permissions.harness), {
  mode: 0o755,
});
await Deno.chmod(join(outdir, "harness"), 0o755);

let files = 0;
let bytes = 0;
for await (const entry of walk(outdir)) {
  files++;
  bytes += (await Deno.stat(entry)).size;
}
console.log(
  `bundle: wrote ${relative(Deno.cwd(), outdir) || "."} (${files} files, ${
    (bytes / 1024 / 1024).toFixed(1)
  } MB)`,
);

/**
 * The bundle's `harness` launcher: a POSIX sh script that runs main.js beside it (through a
 * symlink too) under `set`, as explicit flags. `HARNESS_DENO` names the deno to run (default:
 * `deno` on PATH). `set -f`: an IPv6 deny entry such as `[::1]` is a glob pattern to sh.
 */
function launcher(set: PermissionSet): string {
  const flags = permissionFlags(set).map(shellQuote).join(" \\\n  ");
  return `#!/bin/sh
# Runs the harness from this bundle under its production permission set (deno.json
# permissions.harness, written out as flags by deploy/bundle.ts). HARNESS_DENO overrides
# the deno on PATH.
set -f
dir=$(dirname "$(readlink -f "$0")")
exec "\${HARNESS_DENO:-deno}" run \\
  ${flags} \\
  --config "$dir/deno.json" "$dir/main.js" "$@"
`;
}

/** Why `dir` must not be deleted and rewritten, or null when it may. */
function replaceRefusal(dir: string): string | null {
  const root = resolve(ROOT);
  if (root === dir || root.startsWith(`${dir}/`)) return "it holds the sources";
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    if (error instanceof Deno.errors.NotADirectory) return "it is not a directory";
    throw error;
  }
  if (names.length === 0) return null;
  const bundle = names.includes("main.js") && names.includes("deno.json") &&
    names.every((name) =>
      name === "lib" || name.endsWith(".js") || name === "deno.json" || name === "harness"
    );
  return bundle ? null : "it is not empty and does not hold a bundle";
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else yield path;
  }
}
