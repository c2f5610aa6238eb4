/**
 * The features that span layers are reached through one door each (docs/architecture.md, "Features
 * that span layers: one seam each"): a module of the feature is imported — statically, by
 * `import()` or by `lazyImport` — only by the files named here. Proven on a planted tree first.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Each guarded module and the only files that may import it. */
const DOORS: Readonly<Record<string, readonly string[]>> = {
  // The budget guard: loaded only through the wake's budget gate.
  "lib/wake/budget.ts": ["lib/wake/budget_gate.ts"],
  "lib/wake/budget_admission.ts": ["lib/wake/budget.ts"],
  "lib/home/budget_leases.ts": ["lib/wake/budget.ts"],
  // Escalation: the turn's trigger and the budget wall call `escalate`.
  "lib/wake/escalation.ts": ["lib/wake/engaged/escalation_trigger.ts", "lib/wake/budget.ts"],
  "lib/home/escalations.ts": ["lib/wake/escalation.ts"],
  // Working state: a turn (its loop and the steps that settle and measure it), or a replayed one,
  // sees it through the engaged half's module.
  "lib/wake/engaged/working_state.ts": [
    "lib/wake/engaged/turn.ts",
    "lib/wake/engaged/turn_compaction.ts",
    "lib/wake/engaged/turn_request.ts",
    "lib/replay/turn.ts",
  ],
  "lib/wake/engaged/working_state_block.ts": ["lib/wake/engaged/working_state.ts"],
  // Spawning a wake process.
  "lib/sandbox/wake_process.ts": [
    "lib/sandbox/router_launch.ts",
    "lib/cli/demo.ts",
    "lib/cli/wake_bin.ts",
    "lib/playground/wakes.ts",
    "lib/playground/drafts.ts",
  ],
};

const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\blazyImport(?:<[^>]*>)?\s*\(\s*)["']([^"']+)["']/g;

/** Every module `source` (at repo path `file`) imports, as repo paths. */
function importsOf(file: string, source: string): string[] {
  const found: string[] = [];
  for (const [, spec] of source.matchAll(SPECIFIER)) {
    if (spec.startsWith("lib/")) found.push(spec);
    else if (spec.startsWith(".")) found.push(join(dirname(file), spec));
  }
  return found;
}

/** `guarded ← importer` for every import a door does not allow. */
function trespasses(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [file, source] of files) {
    for (const target of importsOf(file, source)) {
      const allowed = DOORS[target];
      if (allowed && !allowed.includes(file) && file !== target) out.push(`${target} ← ${file}`);
    }
  }
  return out.sort();
}

async function libSources(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        files.set(relative(ROOT, path), await Deno.readTextFile(path));
      }
    }
  };
  await walk(join(ROOT, "lib"));
  return files;
}

Deno.test("feature seams: static, dynamic and lazy imports are all seen; a trespass is named", () => {
  const planted = new Map([
    [
      "lib/wake/budget_gate.ts",
      'const g = lazyImport<typeof import("./budget.ts")>("lib/wake/budget.ts");',
    ],
    ["lib/wake/triage.ts", 'import { admitTurn } from "./budget.ts";'],
    ["lib/wake/engaged/turn.ts", 'const m = await import("../budget.ts");'],
    ["lib/cli/x.ts", 'await lazyImport("lib/wake/budget.ts");'],
  ]);
  assert.deepEqual(trespasses(planted), [
    "lib/wake/budget.ts ← lib/cli/x.ts",
    "lib/wake/budget.ts ← lib/wake/engaged/turn.ts",
    "lib/wake/budget.ts ← lib/wake/triage.ts",
  ]);
});

Deno.test("feature seams: lib/ reaches each feature through its one door", async () => {
  const files = await libSources();
  for (const guarded of Object.keys(DOORS)) assert.ok(files.has(guarded), `${guarded} exists`);
  // Every door is used, so the table cannot go stale.
  for (const [guarded, doors] of Object.entries(DOORS)) {
    for (const door of doors) {
      assert.ok(
        importsOf(door, files.get(door) ?? "").includes(guarded),
        `${door} imports ${guarded}`,
      );
    }
  }
  assert.deepEqual(trespasses(files), [], "import the feature through its door instead");
});

Deno.test("feature seams: a module that runs the harness program runs it through spawnWake alone", async () => {
  const files = await libSources();
  const spawner = "lib/sandbox/wake_process.ts";
  const runners = [...files].filter(([, source]) => /\bharnessInvocation\(/.test(source))
    .map(([file]) => file);
  assert.ok(runners.includes("lib/playground/drafts.ts"), runners.join(","));
  const ownProcess = runners.filter((file) =>
    file !== spawner && /\bnew\s+Deno\.Command\s*\(/.test(files.get(file)!)
  );
  assert.deepEqual(
    ownProcess,
    [],
    "start the harness with spawnWake (lib/sandbox/wake_process.ts)",
  );
});

Deno.test("feature seams: the harness's own command line is built in one place", async () => {
  const files = await libSources();
  // The permission-set flag as a literal argument (not in a comment or a sentence).
  const argument = /^\s*(?:[^/*\s].*)?["']-P=harness["']/m;
  const builders = [...files].filter(([, source]) => argument.test(source)).map(([file]) => file);
  assert.deepEqual(builders, ["lib/sandbox/wake_process.ts"], "call harnessInvocation instead");
  assert.ok(!argument.test(" * `deno run -P=harness main.ts`"), "a comment is not a builder");
});
