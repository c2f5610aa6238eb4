/**
 * What importing the library costs a process: `deno run` of a script that imports `lib/mod.ts`
 * against `deno run` of an empty script, both as separate processes with the same config, in
 * the same run. Also times a script importing only `zod` (which the library imports
 * statically), to show how much of the difference is that one package.
 *
 *   deno run -A bench/import_bench.ts [--runs 15] [--warmups 3] [--json]
 *
 * Prints the median wall time of each and the ratio library / empty; the target is ≤ 3×.
 * Exits 1 when the ratio misses the target.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TARGET_RATIO = 3;

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "15" },
    warmups: { type: "string", default: "3" },
    json: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const warmups = Number(values.warmups);

const dir = await Deno.makeTempDir({ prefix: "harness-import-bench-" });
const scripts = {
  empty: join(dir, "empty.ts"),
  zod: join(dir, "zod.ts"),
  library: join(dir, "library.ts"),
};
await Deno.writeTextFile(scripts.empty, "");
await Deno.writeTextFile(scripts.zod, 'import "zod";\n');
await Deno.writeTextFile(
  scripts.library,
  `import * as harness from ${JSON.stringify(new URL("../lib/mod.ts", import.meta.url).href)};\n` +
    "if (typeof harness.Harness !== 'function') throw new Error('no Harness');\n",
);

type Name = keyof typeof scripts;

/** One `deno run` of `script`, in milliseconds of wall time. */
async function timeOnce(script: string): Promise<number> {
  const command = new Deno.Command(Deno.execPath(), {
    // The same config and lockfile for every script, so only the imports differ.
    args: ["run", "--quiet", "--config", join(ROOT, "deno.json"), "--allow-read", script],
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  });
  const start = performance.now();
  const output = await command.output();
  const elapsed = performance.now() - start;
  if (!output.success) {
    throw new Error(`${script} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return elapsed;
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const names = Object.keys(scripts) as Name[];
const samples: Record<Name, number[]> = { empty: [], zod: [], library: [] };
try {
  // Warm-ups fill Deno's transpile and code caches; they are not counted.
  for (let i = 0; i < warmups; i++) for (const name of names) await timeOnce(scripts[name]);
  // Interleaved, so drift in the machine's load touches every script alike.
  for (let i = 0; i < runs; i++) {
    for (const name of names) samples[name].push(await timeOnce(scripts[name]));
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}

const medians = Object.fromEntries(names.map((n) => [n, median(samples[n])])) as Record<
  Name,
  number
>;
const ratio = medians.library / medians.empty;
const zodRatio = medians.zod / medians.empty;

if (values.json) {
  console.log(JSON.stringify({ runs, warmups, medians, ratio, zodRatio, target: TARGET_RATIO }));
} else {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(`deno ${Deno.version.deno}, ${runs} runs after ${warmups} warm-ups (medians)`);
  console.log(`  empty script          ${ms(medians.empty)}`);
  console.log(`  import "zod"          ${ms(medians.zod)}  (${zodRatio.toFixed(2)}×)`);
  console.log(`  import lib/mod.ts     ${ms(medians.library)}  (${ratio.toFixed(2)}×)`);
  console.log(`ratio lib/mod.ts / empty: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×)`);
}
if (ratio > TARGET_RATIO) Deno.exit(1);
