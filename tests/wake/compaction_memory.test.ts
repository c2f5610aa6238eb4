/**
 * Where a compaction summary goes (docs/context.md#the-context-budget): the memory store, else
 * `observe`.
 */
import assert from "node:assert/strict";
import { COMPACTION_OBSERVE_TEXT } from "../../lib/core/compaction/compaction.ts";
import type { MemoryExchange } from "../../lib/memory/provider.ts";
import { rememberSummary } from "../../lib/wake/engaged/turn_compaction.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";
import { captureJournal } from "../mcp/support.ts";

function fakeWake(memory: unknown) {
  const journal = captureJournal();
  const wake = {
    settings: { timeline: "t1" },
    context: { self: { uuid: "agent" } },
    journal,
    memory,
  } as unknown as Wake;
  return { wake, journal };
}

Deno.test("a store-backed provider gets the summary under compaction/<source>/<UTC>", async () => {
  const written: [string, string][] = [];
  const { wake, journal } = fakeWake({
    store: { write: (k: string, v: string) => written.push([k, v]) },
  });
  await rememberSummary(wake, "notés", new Date("2026-03-04T05:06:07.890Z"));
  assert.deepEqual(written, [["compaction/timeline:t1/2026-03-04T05:06:07Z", "notés"]]);
  assert.deepEqual(journal.lines, ["INFO memory"]);
});

Deno.test("a provider without a store observes the summary; a failure reaches the compactor", async () => {
  const seen: MemoryExchange[] = [];
  const { wake } = fakeWake({ observe: (e: MemoryExchange) => void seen.push(e) });
  await rememberSummary(wake, "notes");
  assert.deepEqual(seen, [{
    user: COMPACTION_OBSERVE_TEXT,
    assistant: "notes",
    scope: { agent: "agent", timeline: "t1" },
  }]);
  const failing = fakeWake({
    observe: () => {
      throw new Error("disk full");
    },
  });
  await assert.rejects(rememberSummary(failing.wake, "notes"), /disk full/);
});
