/**
 * The automatic memory at scale: 100,000 stored exchanges in one `recall.db`. Targets: turn-0
 * recall p50 ≤ 15 ms and p95 ≤ 40 ms; observe ≤ 5 ms per exchange (mean); the file ≤ 2× the text
 * stored. Baseline in the same run: fetching one chunk by its primary key on the same file.
 *
 *   deno run -A bench/recall_bench.ts [--exchanges 100000] [--json]
 *
 * Observe is judged by its mean (what an exchange costs, amortised over the full-text index's
 * periodic segment merges); its p50/p95 are reported beside it.
 *
 * Exchanges are rendered message lines (`[created_at] handle: …` plus the agent's reply) of 15–40
 * words from a 20,000-word vocabulary skewed like language; queries are a peer's next line of 4–12
 * such words, so common words are searched the way real turns search them. Recall goes through
 * the provider's `context` (query cleaning, search, recency re-rank, rendering); observe through
 * its `observe` (one committed transaction each, as in a wake). Exits 1 when a target is missed.
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { RecallMemoryProvider } from "../lib/memory/recall_provider.ts";
import { prng } from "../tests/core/session_large.ts";

const args = Deno.args;
const EXCHANGES = Number(args[args.indexOf("--exchanges") + 1] || 0) || 100_000;
const VOCABULARY = 20_000;
const QUERIES = 500;
const OBSERVES = 500;
const AGENT = "00000000-0000-4000-8000-0000000000aa";

const random = prng(11);
const SYLLABLES = ["ka", "lo", "mi", "ren", "tas", "vo", "shi", "dor", "pel", "qu", "ze", "bran"];
const words = Array.from({ length: VOCABULARY }, (_, i) => {
  let word = "";
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % 12];
  return word;
});
const pick = () => words[Math.floor(VOCABULARY * random() ** 2)];
const handles = ["alice", "bruno", "carmen", "dmitri", "elena", "farid", "greta", "hiro"];
const timelines = Array.from(
  { length: 20 },
  (_, i) => `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`,
);
const sentence = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, pick).join(" ");
const exchange = (at: Date) => ({
  user: `[${at.toISOString()}] ${handles[Math.floor(random() * handles.length)]}: ${
    sentence(15, 40)
  }`,
  assistant: sentence(3, 12),
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function timed(
  n: number,
  fn: (i: number) => unknown,
): Promise<{ p50: number; p95: number; mean: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  const mean = times.reduce((a, b) => a + b, 0) / n;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), mean };
}

const fileSize = (path: string) => {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
};

const dir = Deno.makeTempDirSync({ prefix: "recall_bench_" });
const path = join(dir, "recall.db");
const encoder = new TextEncoder();
let textBytes = 0;
const built = performance.now();
{
  const provider = new RecallMemoryProvider({ path });
  const now = Date.now();
  // Bulk load through the store's own write path, a batch per transaction.
  for (let start = 0; start < EXCHANGES; start += 5000) {
    const batch = [];
    for (let i = start; i < Math.min(EXCHANGES, start + 5000); i++) {
      const at = new Date(now - (EXCHANGES - i) * 60_000);
      const { user, assistant } = exchange(at);
      const text = `${user}\nyou: ${assistant}`;
      textBytes += encoder.encode(text).length;
      batch.push({ agent: AGENT, timeline: timelines[i % timelines.length], text, at });
    }
    provider.recall.addMany(batch);
  }
  provider.close();
}
const buildMs = performance.now() - built;

const provider = new RecallMemoryProvider({ path });
const queries = Array.from(
  { length: QUERIES },
  () => `[${new Date().toISOString()}] bruno: ${sentence(4, 12)}?`,
);
const ids = Array.from({ length: QUERIES }, () => 1 + Math.floor(random() * EXCHANGES));
const scope = (query: string) => ({ agent: AGENT, timeline: timelines[0], query });

await provider.context(scope(queries[0])); // open the file and warm the page cache
for (let i = 0; i < 50; i++) await provider.context(scope(queries[i]));
const raw = new DatabaseSync(path, { readOnly: true });
const byId = raw.prepare("SELECT text FROM recall_chunks WHERE id = ?");
const lookup = await timed(QUERIES, (i) => byId.get(ids[i]));
raw.close();
const recall = await timed(QUERIES, (i) => provider.context(scope(queries[i])));
const observedText: number[] = [];
const observe = await timed(OBSERVES, () => {
  const { user, assistant } = exchange(new Date());
  observedText.push(encoder.encode(`${user}\nyou: ${assistant}`).length);
  return provider.observe({ user, assistant, scope: { agent: AGENT, timeline: timelines[1] } });
});
textBytes += observedText.reduce((a, b) => a + b, 0);
provider.close();
// Closing the last connection checkpoints the WAL into the file; count all three anyway.
const stored = fileSize(path) + fileSize(`${path}-wal`) + fileSize(`${path}-shm`);
const growth = stored / textBytes;

const targets = {
  recallP50: recall.p50 <= 15,
  recallP95: recall.p95 <= 40,
  observeMean: observe.mean <= 5,
  growth: growth <= 2,
};
const result = {
  exchanges: EXCHANGES + OBSERVES,
  buildMs: Math.round(buildMs),
  recall,
  lookup,
  recallToLookupP50: recall.p50 / lookup.p50,
  observe,
  textBytes,
  storedBytes: stored,
  growth,
  targets,
};
if (args.includes("--json")) console.log(JSON.stringify(result));
else {
  const ms = (t: { p50: number; p95: number }) =>
    `p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms`;
  console.log(`recall bench: ${result.exchanges} exchanges (built in ${result.buildMs} ms)`);
  console.log(`  turn-0 recall (context, K=5): ${ms(recall)} (targets 15 / 40 ms)`);
  console.log(
    `  chunk by primary key (baseline): ${ms(lookup)}; recall/lookup p50 ${
      result.recallToLookupP50.toFixed(0)
    }x`,
  );
  console.log(
    `  observe (one committed exchange): ${ms(observe)} mean ${
      observe.mean.toFixed(2)
    } ms (target: mean ≤ 5 ms)`,
  );
  console.log(
    `  store: ${(stored / 1e6).toFixed(1)} MB for ${(textBytes / 1e6).toFixed(1)} MB of text = ` +
      `${growth.toFixed(2)}x (target ≤ 2x)`,
  );
  console.log(
    `  targets: ${
      Object.entries(targets).map(([k, v]) => `${k} ${v ? "met" : "MISSED"}`).join(", ")
    }`,
  );
}
Deno.removeSync(dir, { recursive: true });
if (!Object.values(targets).every(Boolean)) Deno.exit(1);
