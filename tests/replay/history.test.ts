/**
 * The history a replay rebuilds (lib/replay/history.ts) and the measure the wake records
 * (lib/core/transcript/history.ts): the record's context is stored as texts or digests by content
 * mode, a live list and the same transcript loaded back from disk measure the same, and a record
 * or transcript that cannot give the history back is refused with what is missing and the fix.
 */
import assert from "node:assert/strict";
import { measureHistory } from "../../lib/core/transcript/history.ts";
import { FileSessionStore } from "../../lib/core/transcript/session.ts";
import { Message } from "../../lib/core/types/message.ts";
import { appendTurnRecord, sha256Hex } from "../../lib/home/records/mod.ts";
import { HistoryUnavailable, rebuildHistory, TranscriptCache } from "../../lib/replay/history.ts";
import { turnInput, withHome } from "../home/records/fixture.ts";

/** A conversation whose tool result is far over the transcript cap, then the next user turn. */
function conversation(): Message[] {
  return [
    Message.user("my favourite colour is teal"),
    {
      role: "assistant",
      content: null,
      toolCalls: [{ id: "c1", name: "messages", arguments: { action: "list" } }],
    },
    { role: "tool", toolCallId: "c1", content: "x".repeat(20_000) },
    { role: "assistant", content: "Noted." },
    Message.user("what is my favourite colour?"),
  ];
}

Deno.test("the history measure of a live list equals the same transcript loaded back from disk", async () => {
  await withHome(async (home) => {
    const live = conversation();
    const store = new FileSessionStore(`${home}/sessions`);
    await store.save("timeline:t", live);
    const loaded = await store.load("timeline:t");
    const before = await measureHistory(live.slice(0, 4));
    assert.deepEqual(await measureHistory(loaded.slice(0, 4)), before);
    assert.equal(before.messages, 4);
    assert.equal(before.turns, 1);
    // Measured on the capped, saved form: far less than the uncapped result.
    assert.ok(before.bytes < 10_000, String(before.bytes));
    assert.notEqual((await measureHistory(live.slice(0, 3))).sha256, before.sha256);
  });
});

Deno.test("the record keeps the context as texts in full mode and as digests in hashes mode", async () => {
  await withHome(async (home) => {
    const history = await measureHistory(conversation().slice(0, 4));
    const context = { history, memory: "remembered: teal", workingState: "Notes: colour=teal" };
    const full = await appendTurnRecord(home, turnInput(1, { content: "full", history: context }));
    assert.deepEqual(full.history, {
      history_messages: 4,
      history_turns: 1,
      history_bytes: history.bytes,
      history_sha256: history.sha256,
      memory: "remembered: teal",
      working_state: "Notes: colour=teal",
    });
    const hashed = await appendTurnRecord(
      home,
      turnInput(2, { content: "hashes", history: context }),
    );
    assert.equal(hashed.history?.memory, undefined);
    assert.equal(hashed.history?.memory_sha256, sha256Hex("remembered: teal"));
    assert.equal(hashed.history?.working_state_sha256, sha256Hex("Notes: colour=teal"));
    const bare = await appendTurnRecord(
      home,
      turnInput(3, { content: "full", history: { history } }),
    );
    assert.equal("memory" in (bare.history ?? {}), false);
  });
});

Deno.test("rebuildHistory gives back the recorded messages, recall and block; refuses a record without a measure", async () => {
  await withHome(async (home) => {
    const live = conversation();
    await new FileSessionStore(`${home}/sessions`).save("timeline:t", live);
    const history = await measureHistory(live.slice(0, 4));
    const record = await appendTurnRecord(
      home,
      turnInput(1, {
        source: "timeline:t",
        content: "full",
        inbound: { items: [], text: "what is my favourite colour?" },
        history: { history, memory: "remembered: teal" },
      }),
    );
    const rebuilt = await rebuildHistory(record, new TranscriptCache(home));
    assert.equal(rebuilt.messages.length, 4);
    assert.equal(rebuilt.messages[0].content, "my favourite colour is teal");
    assert.equal(rebuilt.memory, "remembered: teal");
    assert.equal(rebuilt.workingState, undefined);
    assert.deepEqual(rebuilt.used, {
      ...history,
      memory_bytes: 16,
      working_state_bytes: 0,
    });

    const older = { ...record, history: undefined };
    await assert.rejects(
      () => rebuildHistory(older, new TranscriptCache(home)),
      (error: unknown) =>
        error instanceof HistoryUnavailable &&
        /the record keeps no history .*without --with-history/.test(error.message),
    );
  });
});

Deno.test("rebuildHistory refuses a transcript that cannot be read, naming the file", async () => {
  await withHome(async (home) => {
    await Deno.mkdir(`${home}/sessions`);
    const cache = new TranscriptCache(home);
    await Deno.writeTextFile(cache.pathFor("timeline:t"), "{ not json");
    const history = await measureHistory([]);
    const record = await appendTurnRecord(
      home,
      turnInput(1, {
        source: "timeline:t",
        content: "full",
        inbound: { items: [], text: "hi" },
        history: { history },
      }),
    );
    await assert.rejects(
      () => rebuildHistory(record, cache),
      (error: unknown) =>
        error instanceof HistoryUnavailable &&
        error.message.includes(cache.pathFor("timeline:t")) &&
        /cannot be read \(corrupt transcript/.test(error.message) &&
        /without --with-history/.test(error.message),
    );
  });
});
