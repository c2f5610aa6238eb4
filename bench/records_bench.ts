/**
 * What turn records cost: appending one complete record (the wake does it once per engaged turn,
 * fsync included), `records stats --since 30d` and `records verify` over 100,000 records, each
 * against a baseline in the same run — reading every chain file once (for stats and verify), and
 * an fsynced append of the same bytes without hashing or locking (for the writer).
 *
 *   deno run -A bench/records_bench.ts
 *
 * Targets: one complete record ≤ 2 ms at p95; stats over 100,000 records ≤ 1 s; verify over
 * 100,000 records ≤ 5 s.
 */
import {
  appendTurnRecord,
  canonicalJson,
  driftRecords,
  GENESIS_HASH,
  recordHash,
  type TurnRecordInput,
  verifyRecords,
} from "../lib/home/records/mod.ts";
import { chainPath, headPath, recordsDir } from "../lib/home/records/files.ts";
import { percentile } from "../lib/home/records/stats.ts";

const CHAINS = 100;
const PER_CHAIN = 1_000;
const APPENDS = 300;

const home = await Deno.makeTempDir({ prefix: "harness-records-bench-" });

function input(i: number, timeline: string): TurnRecordInput {
  return {
    timeline,
    wakeId: `w${i}`,
    triggers: [{ uuid: crypto.randomUUID(), kind: "message" }],
    provider: "openai",
    model: "gpt-bench",
    prompt: "You are a careful agent.".repeat(40),
    config: { model: "gpt-bench", tools: ["messages", "memory", "web_fetch"] },
    toolCalls: [{
      name: "messages",
      outcome: "ok",
      action: "create",
      callId: `call_${i}`,
      arguments: { action: "create", body: "A reply of ordinary length. ".repeat(8) },
      result: `Posted to timeline ${timeline}. The new message's uuid is ${crypto.randomUUID()}.`,
    }],
    outcome: "ok",
    outcomeKind: "narration",
    steps: 2,
    latencyMs: { engine: 3, brief: 12, model: 1800 + (i % 400), compact: 1, total: 1830 + i % 400 },
    usage: { calls: 2, tokensIn: 9000, tokensOut: 120, cachedTokens: 6000, cost: 0.0012 },
    content: "full",
    inbound: { items: [crypto.randomUUID()], text: "@ada how is the build going today?" },
    outbound: [{ uuid: crypto.randomUUID(), kind: "tool", text: "Green since noon." }],
    gateVerdicts: [{ kind: "tool", verdict: "passed", checks: [] }],
    regenerated: false,
    result: "spoke",
    toolManifest: [{ name: "messages" }, { name: "memory" }],
  };
}

// One complete record, appended as the wake does, against an fsynced append of the same bytes.
const timeline = crypto.randomUUID();
const appendMs: number[] = [];
const rawMs: number[] = [];
const raw = await Deno.open(`${home}/raw.jsonl`, { append: true, create: true });
let sample = "";
for (let i = 0; i < APPENDS; i++) {
  const t0 = performance.now();
  const record = await appendTurnRecord(home, input(i, timeline));
  appendMs.push(performance.now() - t0);
  sample = `${canonicalJson(record)}\n`;
  const t1 = performance.now();
  await raw.write(new TextEncoder().encode(sample));
  await raw.sync();
  rawMs.push(performance.now() - t1);
}
raw.close();
await Deno.remove(chainPath(home, timeline));
await Deno.remove(headPath(home, timeline));

// 100,000 records in 100 chains, sealed exactly as the writer seals them, spread over 30 days.
const template = JSON.parse(sample) as Record<string, unknown>;
const now = Date.now();
await Deno.mkdir(recordsDir(home), { recursive: true });
for (let c = 0; c < CHAINS; c++) {
  const tl = crypto.randomUUID();
  let prev = GENESIS_HASH;
  const lines: string[] = [];
  for (let s = 1; s <= PER_CHAIN; s++) {
    const at = new Date(now - ((CHAINS * PER_CHAIN - (c * PER_CHAIN + s)) * 25_000)).toISOString();
    const record: Record<string, unknown> = {
      ...template,
      timeline: tl,
      seq: s,
      at,
      prev_hash: prev,
    };
    delete record.record_hash;
    record.record_hash = recordHash(record);
    prev = record.record_hash as string;
    lines.push(canonicalJson(record));
  }
  await Deno.writeTextFile(chainPath(home, tl), `${lines.join("\n")}\n`);
  await Deno.writeTextFile(
    headPath(home, tl),
    `${canonicalJson({ seq: PER_CHAIN, record_hash: prev })}\n`,
  );
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

const [readMs] = await timed(async () => {
  let bytes = 0;
  for await (const entry of Deno.readDir(recordsDir(home))) {
    bytes += (await Deno.readTextFile(`${recordsDir(home)}/${entry.name}`)).length;
  }
  return bytes;
});
const since = new Date(now - 30 * 86_400_000);
const [statsMs, drift] = await timed(() => driftRecords(home, { since, by: "day" }));
const [verifyMs, verified] = await timed(() => verifyRecords(home));
if (!verified.ok || verified.records !== CHAINS * PER_CHAIN) throw new Error("verify failed");

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const p95 = percentile(appendMs, 95)!;
const rawP95 = percentile(rawMs, 95)!;
console.log(`record line: ${sample.length} bytes`);
console.log(
  `append one complete record: p50 ${fmt(percentile(appendMs, 50)!)}, p95 ${fmt(p95)} ` +
    `(baseline fsynced raw append p95 ${fmt(rawP95)}, ${(p95 / rawP95).toFixed(2)}×) target ≤ 2 ms`,
);
console.log(`baseline: read every chain file once: ${fmt(readMs)}`);
console.log(
  `records stats --since 30d over ${drift.total.turns} records: ${fmt(statsMs)} ` +
    `(${(statsMs / readMs).toFixed(2)}× the read) target ≤ 1 s`,
);
console.log(
  `records verify over ${verified.records} records: ${fmt(verifyMs)} ` +
    `(${(verifyMs / readMs).toFixed(2)}× the read) target ≤ 5 s`,
);
await Deno.remove(home, { recursive: true });
