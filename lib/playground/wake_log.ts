/**
 * The wake log: `<data>/wakes.jsonl`, one line per settled delivery — its trigger, the router
 * twin's handling, the journal as the wake wrote it, the tool calls and the facts of its records —
 * so that a playground restarted on the same `--data` shows every earlier wake's panel again
 * (docs/playground.md#after-a-restart). The records themselves stay in the agents' homes and are
 * read from there. A line that does not parse (a crash mid-append) is skipped and counted.
 */
import { join } from "node:path";
import { errorMessage } from "../base/error_text.ts";
import * as z from "../base/zod.ts";
import type { WakeView } from "./wakes.ts";

/** `<data>/wakes.jsonl`. */
export function wakeLogPath(dataDir: string): string {
  return join(dataDir, "wakes.jsonl");
}

const Segment = z.object({ text: z.string(), colour: z.number().optional() });
const Line = z.object({ level: z.string(), head: z.string(), segments: z.array(Segment) });
const Summary = z.object({
  outcome: z.string().nullable(),
  steps: z.string().nullable(),
  posted: z.number().nullable(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  cachedTokens: z.number(),
  // Absent from lines an earlier version wrote.
  cacheWriteTokens: z.number().default(0),
  cost: z.number().nullable(),
  llmCalls: z.number(),
  unspoken: z.array(z.string()),
  error: z.string().nullable(),
});
const Wake = z.object({
  id: z.string().min(1),
  agent: z.string(),
  timeline: z.string(),
  trigger: z.object({
    event: z.string(),
    item: z.string().nullable(),
    actor: z.string().nullable(),
  }),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  ms: z.number().nullable(),
  code: z.number().nullable(),
  spawnError: z.string().nullable(),
  skipped: z.string().nullable(),
  delivery: z.object({
    outcome: z.string(),
    detail: z.string().nullable(),
    attempts: z.array(z.object({
      attempt: z.number(),
      code: z.number().nullable(),
      ms: z.number(),
      error: z.string().optional(),
    })),
  }).nullable(),
  journal: z.array(Line),
  summary: Summary,
  toolCalls: z.array(z.object({
    id: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    result: z.string().nullable(),
  })),
  records: z.object({
    ids: z.array(z.string()),
    results: z.array(z.string()),
    verified: z.boolean(),
    chainRecords: z.number(),
    problem: z.string().nullable(),
  }).nullable(),
});

/** The earlier wakes in the log, oldest first, and how many lines could not be read. */
export async function readWakeLog(
  dataDir: string,
): Promise<{ wakes: WakeView[]; unreadable: number }> {
  let text: string;
  const path = wakeLogPath(dataDir);
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { wakes: [], unreadable: 0 };
    throw new Error(
      `${path} cannot be read (${errorMessage(error)}); move it aside to start without the ` +
        "earlier wakes' panels.",
    );
  }
  const wakes: WakeView[] = [];
  const seen = new Set<string>();
  let unreadable = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let parsed;
    try {
      parsed = Wake.safeParse(JSON.parse(line));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) {
      unreadable++;
      continue;
    }
    // A delivery settled twice (never in practice): the later line wins, in its first place.
    const wake = parsed.data as WakeView;
    if (seen.has(wake.id)) {
      wakes[wakes.findIndex((w) => w.id === wake.id)] = wake;
    } else {
      seen.add(wake.id);
      wakes.push(wake);
    }
  }
  return { wakes, unreadable };
}

/** Appends one settled wake (one write of one line). */
export async function appendWakeLog(dataDir: string, wake: WakeView): Promise<void> {
  await Deno.writeTextFile(wakeLogPath(dataDir), JSON.stringify(wake) + "\n", { append: true });
}
