/**
 * What a long history costs every wake: claims are kept for good, one file per item ever
 * answered, and each wake's liveness snapshot (lib/wake/state/liveness.ts) looks at all of them
 * before it narrows its permissions. This measures the snapshot over a timeline with many settled
 * claims and one in-flight claim, against a baseline in the same run: listing the directory and
 * reading every file's bytes, the least any reader of these files could do.
 *
 *   deno bench -A bench/claims_bench.ts
 *
 * Target: the snapshot costs at most 2× the bare reads (it adds only a substring test per settled
 * record), so a wake over 5,000 answered messages stays within tens of milliseconds.
 */
import { join } from "node:path";
import { claimsDir } from "../lib/wake/state/paths.ts";
import { encodeClaimRecord } from "../lib/wake/state/claim_record.ts";
import { livenessSnapshot } from "../lib/wake/state/liveness.ts";

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

Deno.bench({
  name: `liveness snapshot over ${CLAIMS} settled claims and 1 in flight`,
  group: "claims",
  fn() {
    const isAlive = livenessSnapshot(home, TIMELINE, () => true);
    if (!isAlive(Deno.pid)) throw new Error("the in-flight claim's owner was not judged");
  },
});

globalThis.addEventListener("unload", () => Deno.removeSync(home, { recursive: true }));
