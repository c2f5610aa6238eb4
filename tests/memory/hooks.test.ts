import assert from "node:assert/strict";
import {
  closeMemoryProvider,
  CONTEXT_FAILED,
  memoryTools,
  OBSERVE_FAILED,
  observeMemory,
  recallMemory,
} from "../../lib/memory/hooks.ts";
import type { MemoryExchange, MemoryProvider } from "../../lib/memory/provider.ts";
import { recordingJournal } from "./helpers.ts";

const exchange: MemoryExchange = {
  user: "Where does John live?",
  assistant: "Dallas.",
  scope: { agent: "agent-uuid", timeline: "tl-uuid" },
};

Deno.test("observe: a hook that throws is logged as the reference's WARNING and swallowed", async () => {
  const journal = recordingJournal();
  const provider: MemoryProvider = {
    observe() {
      throw new Error("disk full");
    },
  };
  await observeMemory(provider, exchange, journal); // must not throw
  const warning = journal.lines.find((line) => line.level === "WARNING");
  assert.ok(warning);
  assert.ok(warning.text.startsWith(OBSERVE_FAILED), warning.text);
  assert.equal(OBSERVE_FAILED, "Memory provider observe() failed; continuing.");
  assert.match(warning.text, /Error: disk full/);
  // The stack goes to DEBUG, never onto the WARNING line.
  assert.ok(
    journal.lines.some((line) => line.level === "DEBUG" && line.text.includes("disk full")),
  );
  assert.ok(!journal.lines.some((line) => line.text.startsWith("memory op=observe")));
});

Deno.test("observe: an async rejection is swallowed too; success logs DEBUG memory op=observe", async () => {
  const journal = recordingJournal();
  await observeMemory({ observe: () => Promise.reject(new Error("later")) }, exchange, journal);
  assert.ok(journal.lines.some((line) => line.text.startsWith(OBSERVE_FAILED)));

  const ok = recordingJournal();
  const seen: MemoryExchange[] = [];
  await observeMemory({ observe: (e) => void seen.push(e) }, exchange, ok);
  assert.deepEqual(seen, [exchange]);
  assert.deepEqual(ok.lines, [{ level: "DEBUG", text: "memory op=observe chars=28" }]);
});

Deno.test("context: a hook that throws or returns a non-string yields null and a WARNING", async () => {
  for (
    const provider of [
      {
        context: () => {
          throw new TypeError("bad index");
        },
      },
      { context: () => Promise.reject(new Error("timeout")) },
      { context: () => ({ text: "an object" }) as unknown as string },
    ] as MemoryProvider[]
  ) {
    const journal = recordingJournal();
    assert.equal(await recallMemory(provider, { agent: "a", query: "q" }, journal), null);
    const warning = journal.lines.find((line) => line.level === "WARNING");
    assert.ok(warning?.text.startsWith(CONTEXT_FAILED), warning?.text);
  }
  assert.match(CONTEXT_FAILED, /^Memory provider context\(\) failed; /);
});

Deno.test("context: text passes through, blank and null mean nothing; DEBUG memory op=recall", async () => {
  const journal = recordingJournal();
  const text = "Relevant memories:\n- John lives in Dallas.";
  assert.equal(await recallMemory({ context: () => text }, { agent: "a" }, journal), text);
  assert.deepEqual(journal.lines, [{
    level: "DEBUG",
    text: `memory op=recall chars=${text.length}`,
  }]);
  assert.equal(await recallMemory({ context: () => "  \n" }, { agent: "a" }), null);
  assert.equal(await recallMemory({ context: () => null }, { agent: "a" }), null);
  assert.equal(await recallMemory({}, { agent: "a" }), null);
});

Deno.test("providers without surfaces are fine: no tools, no-op hooks, close tolerated", async () => {
  const journal = recordingJournal();
  assert.deepEqual(memoryTools({}), []);
  await observeMemory({}, exchange, journal);
  await closeMemoryProvider({}, journal);
  await closeMemoryProvider({
    close: () => {
      throw new Error("already closed");
    },
  }, journal);
  assert.deepEqual(journal.lines.map((line) => line.level), ["WARNING", "DEBUG"]);
});
