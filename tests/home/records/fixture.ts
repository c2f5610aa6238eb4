/**
 * Shared fixtures for the record tests: a throwaway HARNESS_HOME, a plausible turn input, and
 * line-level surgery on a chain file (the damage an operator's editor or a crash would do).
 */
import { readFile, writeFile } from "node:fs/promises";
import {
  appendTurnRecord,
  chainPath,
  type TurnRecord,
  type TurnRecordInput,
} from "../../../lib/home/records/mod.ts";

/** A timeline uuid (quote() leaves it as is). */
export const TL = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b";
/** A second timeline. */
export const TL2 = "0197a6b2-ffff-7e4f-8a9b-0c1d2e3f4a5b";

/** Runs `body` with a fresh temp HARNESS_HOME, removed afterwards. */
export async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "records-test-" });
  try {
    await body(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** A turn input; `i` varies the ids and numbers so records differ. */
export function turnInput(i: number, overrides: Partial<TurnRecordInput> = {}): TurnRecordInput {
  return {
    timeline: TL,
    wakeId: `wake-${i}`,
    deliveryId: `delivery-${i}`,
    recordId: `record-${i}`,
    triggers: [{ uuid: `item-${i}`, kind: "message" }],
    provider: "openai",
    model: "gpt-test",
    prompt: "You are a careful agent.",
    config: { ai_model: "gpt-test", tools: ["messages", "memory"] },
    toolCalls: [{ name: "messages", outcome: "ok", action: "create" }],
    outcome: "ok",
    outcomeKind: "narration",
    steps: 2,
    latencyMs: { model: 100 + i, tools: 10, total: 120 + i },
    usage: { calls: 2, tokensIn: 1000, tokensOut: 50, cachedTokens: 400, cost: 0.001 },
    ...overrides,
  };
}

/** Appends `n` records to `timeline`, returning them. */
export async function writeChain(home: string, n: number, timeline = TL): Promise<TurnRecord[]> {
  const out: TurnRecord[] = [];
  for (let i = 1; i <= n; i++) out.push(await appendTurnRecord(home, turnInput(i, { timeline })));
  return out;
}

/** The chain file's lines (without the trailing empty segment). */
export async function chainLines(home: string, timeline = TL): Promise<string[]> {
  const text = await readFile(chainPath(home, timeline), "utf8");
  return text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
}

/** Rewrites the chain file with `lines`, newline-terminated. */
export async function putLines(home: string, lines: string[], timeline = TL): Promise<void> {
  await writeFile(chainPath(home, timeline), lines.map((l) => `${l}\n`).join(""));
}
