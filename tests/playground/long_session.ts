/**
 * A long session without running it: `count` settled wakes written to `<data>/wakes.jsonl`, as a
 * playground that ran them would have kept them (docs/playground.md#after-a-restart), so a
 * playground started on that data directory shows them all. It holds no tests.
 */
import { join } from "node:path";

/** The id of seeded wake number `n` (1-based). */
export function seededId(n: number): string {
  return `seeded-${String(n).padStart(4, "0")}`;
}

/** Writes `count` finished wakes, numbered 1 to `count`, each with one journal line naming it. */
export async function seedWakeLog(dataDir: string, count: number): Promise<void> {
  const timeline = "00000000-0000-7000-8000-000000000001";
  const lines = Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const at = new Date(Date.UTC(2026, 0, 1, 9, 0, n)).toISOString();
    return JSON.stringify({
      id: seededId(n),
      agent: "vega",
      timeline,
      trigger: { event: "message.created", item: null, actor: "ada" },
      startedAt: at,
      finishedAt: at,
      ms: 1000 + n,
      code: 0,
      spawnError: null,
      skipped: null,
      delivery: { outcome: "woke", detail: null, attempts: [{ attempt: 1, code: 0, ms: 1000 }] },
      journal: [{ level: "", head: "wake", segments: [{ text: `wake end seeded wake ${n}` }] }],
      summary: {
        outcome: "ok",
        steps: "1/8",
        posted: 0,
        tokensIn: 100 + n,
        tokensOut: 10,
        cachedTokens: 50,
        cacheWriteTokens: 0,
        cost: null,
        llmCalls: 1,
        unspoken: [],
        error: null,
      },
      toolCalls: [],
      records: null,
    });
  });
  await Deno.mkdir(dataDir, { recursive: true });
  await Deno.writeTextFile(join(dataDir, "wakes.jsonl"), lines.join("\n") + "\n");
}
