/**
 * What preparing a tall screenshot costs (docs/context.md#images-in-a-request): a 300×20000 PNG
 * is split into five 4096 px segments, each re-encoded. Measured against only decoding the same
 * PNG in the same run, and its peak memory against the decoded image's own size.
 *
 *   deno run -A bench/image_prep_bench.ts
 *
 * Targets: preparation ≤ 10× the decode alone; peak RSS growth while preparing ≤ 4× the decoded
 * RGBA bitmap (300 × 20000 × 4 bytes). Each measurement runs in a fresh child process, so the
 * peak (the kernel's VmHWM) belongs to that step alone and not to making the fixture.
 */
import { encode as encodePng } from "fast-png";
import { decodeImage, prepareView } from "../lib/core/image_prep.ts";
import { DEFAULT_IMAGE_PREP } from "../lib/core/types/image_policy.ts";
import { Message } from "../lib/core/types/message.ts";

const WIDTH = 300;
const HEIGHT = 20_000;
const RUNS = 5;

/** Peak and current resident set of this process, in bytes (Linux /proc). */
function memory(): { peak: number; rss: number } {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024;
  return { peak: kib("VmHWM"), rss: kib("VmRSS") };
}

/** One measured step in this (child) process: prints `{ms, growth}` as JSON. */
async function child(mode: string, file: string): Promise<void> {
  const data = (await Deno.readFile(file)).toBase64();
  const before = memory();
  const started = performance.now();
  if (mode === "decode") {
    decodeImage(Uint8Array.fromBase64(data), "image/png");
  } else {
    const turn = Message.user("(Showing image: scroll.png)", { injected: true });
    turn.images = [{ alt: "scroll.png", mimeType: "image/png", data }];
    const { messages } = await prepareView([turn], DEFAULT_IMAGE_PREP);
    if (messages[0].images?.length !== 5) throw new Error("expected 5 segments");
  }
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, growth: memory().peak - before.rss }));
}

async function measure(mode: string, file: string): Promise<{ ms: number; growth: number }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, mode, file],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`${mode} run failed`);
  return JSON.parse(new TextDecoder().decode(output.stdout).trim().split("\n").at(-1)!);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

if (Deno.args.length === 2) {
  await child(Deno.args[0], Deno.args[1]);
} else {
  const pixels = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let y = 0, o = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++, o += 4) {
      // Text-like content: dark strokes on a light ground, varying by row and column.
      const ink = ((x >> 2) ^ (y >> 3)) % 7 === 0;
      pixels[o] = pixels[o + 1] = pixels[o + 2] = ink ? 30 : 245;
      pixels[o + 3] = 255;
    }
  }
  const dir = await Deno.makeTempDir({ prefix: "harness-image-bench-" });
  const file = `${dir}/scroll.png`;
  await Deno.writeFile(file, encodePng({ width: WIDTH, height: HEIGHT, data: pixels }));
  const decoded = WIDTH * HEIGHT * 4;
  const decodes: { ms: number; growth: number }[] = [];
  const prepares: { ms: number; growth: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    decodes.push(await measure("decode", file));
    prepares.push(await measure("prepare", file));
  }
  await Deno.remove(dir, { recursive: true });
  const decodeMs = median(decodes.map((r) => r.ms));
  const prepareMs = median(prepares.map((r) => r.ms));
  const growth = median(prepares.map((r) => r.growth));
  const decodeGrowth = median(decodes.map((r) => r.growth));
  const mib = (n: number) => (n / 2 ** 20).toFixed(1);
  console.log(`300×20000 PNG, ${RUNS} runs each, medians (fresh process per run)`);
  console.log(
    `decode only:   ${decodeMs.toFixed(0)} ms, peak RSS growth ${mib(decodeGrowth)} MiB ` +
      `(${(decodeGrowth / decoded).toFixed(2)}×)`,
  );
  console.log(`prepare (5 segments): ${prepareMs.toFixed(0)} ms`);
  console.log(`ratio: ${(prepareMs / decodeMs).toFixed(2)}× (target ≤ 10×)`);
  console.log(
    `peak RSS growth while preparing: ${mib(growth)} MiB = ${(growth / decoded).toFixed(2)}× ` +
      `the ${mib(decoded)} MiB decoded bitmap (target ≤ 4×)`,
  );
}
