/**
 * Load + heal + save of a 10,000-message transcript through `FileSessionStore`, against a baseline
 * measured in the same run: `JSON.parse` + `JSON.stringify(…, null, 2)` of the same file, the floor
 * any JSON transcript store pays. Target: ≤ 200 ms per load+save. `deno bench -A bench/session_bench.ts`
 * prints the ratio; the saved file being a fixed point is asserted in tests/core/session.test.ts.
 */
import { FileSessionStore } from "../lib/core/transcript/session.ts";
import { largeTranscript } from "../tests/core/session_large.ts";

const SOURCE = "timeline:5f0c1a2e-8b7d-4e3f-9a6b-1c2d3e4f5a6b";
const dir = await Deno.makeTempDir({ prefix: "session_bench_" });
const store = new FileSessionStore(dir);
// Saved once (capped) so each iteration measures the steady state: a capped file on disk.
await store.save(SOURCE, largeTranscript(10_000));
const path = store.pathFor(SOURCE);
const baselinePath = `${dir}/baseline.json`;
const bytes = (await Deno.stat(path)).size;
console.log(`transcript: ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${dir}`);

Deno.bench({
  name: "baseline: read + JSON.parse + JSON.stringify + write",
  group: "session",
  baseline: true,
  async fn() {
    const data = JSON.parse(await Deno.readTextFile(path));
    await Deno.writeTextFile(baselinePath, JSON.stringify(data, null, 2));
  },
});

Deno.bench({
  name: "FileSessionStore load + heal + save (10k messages)",
  group: "session",
  async fn() {
    const messages = await store.load(SOURCE);
    await store.save(SOURCE, messages);
  },
});

globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
