/**
 * Healing on load (docs/context.md#healing): every call lacking a result inside its own run gets
 * the exact interrupted sentinel right after that run, and the loader says how many.
 */
import assert from "node:assert/strict";
import {
  healInterruptedCalls,
  INTERRUPTED,
  isInterrupted,
} from "../../lib/core/transcript/heal.ts";
import { Message } from "../../lib/core/types/message.ts";
import { FileSessionStore, healedWarning } from "../../lib/core/transcript/session.ts";
import type { Journal, Level } from "../../lib/journal/journal.ts";

const FIXTURES = new URL("../fixtures/transcripts/", import.meta.url);

/** The sentinel as the contract spells it (one line); a rewording must fail here. */
const CONTRACT_SENTINEL =
  "[Interrupted: this wake was killed while this call was running, before its result could be recorded. Its outcome is unknown — it may have completed, completed partially, or never started. It has NOT been re-run, because re-running it could repeat something that already happened. If it matters here, check for yourself and decide what to do.]";

/** A journal that keeps what it is told. */
function recordingJournal(): Journal & { lines: [Level, string][] } {
  const lines: [Level, string][] = [];
  return {
    lines,
    event: (level, head) => lines.push([level, head]),
    text: (level, message) => lines.push([level, message]),
    enabled: () => true,
  };
}

async function storeWith(fixture: string): Promise<{ dir: string; source: string }> {
  const dir = await Deno.makeTempDir();
  const source = "timeline:5f0c1a2e-8b7d-4e3f-9a6b-1c2d3e4f5a6b";
  await Deno.copyFile(
    new URL(fixture, FIXTURES),
    `${dir}/timeline%3A5f0c1a2e-8b7d-4e3f-9a6b-1c2d3e4f5a6b.json`,
  );
  return { dir, source };
}

Deno.test("the sentinel is the contract's exact single-line text", () => {
  assert.equal(INTERRUPTED, CONTRACT_SENTINEL);
  assert.ok(!INTERRUPTED.includes("\n"));
});

Deno.test("a killed wake's transcript heals on load: count, position, WARNING, exact bytes", async () => {
  const { dir, source } = await storeWith("interrupted.json");
  const journal = recordingJournal();
  const store = new FileSessionStore(dir, { journal });
  const messages = await store.load(source);

  // Two calls of the fanned-out step (call_0 answered only by an earlier turn's reused id, and
  // call_2) and the trailing tasks create.
  const sentinels = messages.flatMap((m, i) => isInterrupted(m) ? [[i, m.toolCallId]] : []);
  assert.deepEqual(sentinels, [[7, "call_0"], [8, "call_2"], [10, "call_0"]]);
  // Inserted after the run: after the recorded result and the step counter, before the next turn.
  assert.equal(messages[6].role, "system");
  assert.equal(messages[9].role, "assistant");
  assert.deepEqual(journal.lines, [["WARNING", healedWarning(3)]]);
  assert.ok(
    journal.lines[0][1].startsWith("Loaded a transcript with 3 interrupted tool call(s) — "),
  );

  // Saved, it is byte for byte what the Python reference writes for the healed list.
  await store.save(source, messages);
  const expected = await Deno.readTextFile(new URL("interrupted.healed.json", FIXTURES));
  assert.equal(await Deno.readTextFile(store.pathFor(source)), expected);

  // A second load finds nothing to heal and says nothing.
  const again = recordingJournal();
  assert.deepEqual(await new FileSessionStore(dir, { journal: again }).load(source), messages);
  assert.deepEqual(again.lines, []);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("healing is pure and idempotent", () => {
  const live = [
    Message.user("go"),
    Message.assistant({ toolCalls: [{ id: "a", name: "t", arguments: {} }] }),
  ];
  const before = structuredClone(live);
  const once = healInterruptedCalls(live);
  assert.equal(once.healed, 1);
  assert.deepEqual(live, before);
  assert.deepEqual(once.messages.at(-1), Message.tool("a", INTERRUPTED));
  const twice = healInterruptedCalls(once.messages);
  assert.equal(twice.healed, 0);
  assert.deepEqual(twice.messages, once.messages);
});

Deno.test("an answered call and a text-only assistant turn need no healing", () => {
  const live = [
    Message.assistant({ toolCalls: [{ id: "a", name: "t", arguments: {} }] }),
    Message.tool("a", "done"),
    Message.assistant({ content: "finished" }),
  ];
  assert.deepEqual(healInterruptedCalls(live), { messages: live, healed: 0 });
});

Deno.test("a result outside the call's run does not answer it", () => {
  const live = [
    Message.assistant({ toolCalls: [{ id: "x", name: "t", arguments: {} }] }),
    Message.assistant({ content: "next turn" }),
    Message.tool("x", "late"),
  ];
  const { messages, healed } = healInterruptedCalls(live);
  assert.equal(healed, 1);
  assert.deepEqual(messages[1], Message.tool("x", INTERRUPTED));
});
