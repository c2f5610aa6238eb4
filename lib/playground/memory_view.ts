/**
 * What an agent keeps beyond the transcript, for the page (docs/playground.md#memory-and-notes):
 * the working-state notes of a timeline, read from the same file the notes tools keep
 * (docs/context.md#working-state-notes-tasks-and-handoff), and its automatic memory searched the
 * way a wake searches it — the recall a turn's brief would carry for that text, and the lines the
 * `memory_search` tool would answer (docs/memory.md#automatic-recall-the-recall-provider). The
 * memory module is loaded only when the page searches.
 */
import { join } from "node:path";
import { lazyImport } from "../base/lazy_import.ts";
import { WorkingStateStore } from "../home/working_state.ts";

/** A timeline's notes, sorted by key. */
export async function readNotes(
  home: string,
  timeline: string,
): Promise<{ key: string; value: string }[]> {
  const notes = await new WorkingStateStore(home, timeline).notes();
  return notes.map(([key, value]) => ({ key, value }));
}

/** What a memory search found. */
export interface MemorySearch {
  /** Whether the agent has automatic memory at all (`recall.db` exists). */
  readonly present: boolean;
  /** The recalled block a turn's brief would carry for this text; null when nothing matches. */
  readonly recalled: string | null;
  /** The lines `memory_search` would answer, best first. */
  readonly lines: readonly string[];
}

/** How many lines the page's search shows (the tool's own default is smaller). */
const SEARCH_LINES = 20;

/** Searches `agent`'s automatic memory under `home` for `query`, as a wake on `timeline` would. */
export async function searchMemory(
  home: string,
  agent: string,
  timeline: string,
  query: string,
): Promise<MemorySearch> {
  try {
    await Deno.stat(join(home, "recall.db"));
  } catch {
    return { present: false, recalled: null, lines: [] };
  }
  const { RecallMemoryProvider } = await lazyImport<
    typeof import("../memory/recall_provider.ts")
  >("lib/memory/recall_provider.ts");
  const provider = new RecallMemoryProvider({ home });
  try {
    // `context` names the agent, whose memory `search` then reads (what `memory_search` does).
    const recalled = await provider.context({ agent, timeline, query });
    const lines = await provider.search(query, SEARCH_LINES);
    return { present: true, recalled, lines };
  } finally {
    provider.close();
  }
}
