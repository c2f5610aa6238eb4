/**
 * What a long history costs every wake: claims are kept for good, one file per item ever
 * answered, and each wake's liveness snapshot (lib/home/liveness.ts) looks for the
 * unsettled ones among them before it narrows its permissions. This measures the snapshot over a
 * timeline with many settled claims and one in-flight claim, against a baseline in the same run:
 * listing the directory and reading every file's bytes, what any reader without the
 * settled-claims index (lib/home/settled_index.ts) must do.
 *
 *   deno bench -A bench/claims_bench.ts
 *
 * Target: the snapshot a wake takes once an earlier wake has indexed the settled claims costs at
 * most 0.5× the bare reads (it lists the directory and reads the index, not the claims). The
 * first snapshot over an unindexed history, which reads and indexes every claim, is shown too.
 */
import { join } from "node:path";
import { claimsDir } from "../lib/home/paths.ts";
import { encodeClaimRecord } from "../lib/home/claim_record.ts";
import { livenessSnapshot } from "../lib/home/liveness.ts";
import { SETTLED_INDEX } from "../lib/home/settled_index.ts";

const TIMELINE = "01a22e71-93e8-713c-a705-0800769ff9bb";
const CLAIMS = 5_000;

const home = await Deno.makeTempDir({ prefix: "harness-claims-bench-" });
const dir = claimsDir(home, "messages", TIMELINE);
await Deno.mkdir(dir, { recursive: true });
const done = encodeClaimRecord({ phase: "done", pid: null, wake: null, at: 1796075529.191 });
for (let i = 0; i < CLAIMS; i++) {
  await Deno.writeTextFile(join(dir, `${crypto.randomUUID()}.claim`), done);
}
await Deno.writeTextFile(
  join(dir, `${crypto.randomUUID()}.claim`),
  encodeClaimRecord({ phase: "in-flight", pid: Deno.pid, wake: "0".repeat(32), at: 1796075529.5 }),
);

Deno.bench({
  name: `baseline: list and read ${CLAIMS + 1} claim files`,
  group: "claims",
  baseline: true,
  fn() {
    for (const { name } of Deno.readDirSync(dir)) Deno.readFileSync(join(dir, name));
  },
});

/** One snapshot; it must have judged the in-flight claim's owner. */
function snapshot(): void {
  const isAlive = livenessSnapshot(home, TIMELINE, (pid) => pid === Deno.pid);
  if (!isAlive(Deno.pid)) throw new Error("the in-flight claim's owner was not judged");
}

Deno.bench({
  name: `liveness snapshot over ${CLAIMS} settled claims and 1 in flight, index built`,
  group: "claims",
  fn: snapshot,
});

Deno.bench({
  name: `the first snapshot of that history: reads every claim, writes the index`,
  group: "claims",
  fn(b) {
    Deno.removeSync(join(dir, SETTLED_INDEX));
    b.start();
    snapshot();
    b.end();
  },
});

globalThis.addEventListener("unload", () => Deno.removeSync(home, { recursive: true }));
