/**
 * The compactor's handoff (docs/context.md#handoff-the-summarize-tool): the model's own summary
 * replaces the conversation before the current turn, with the dropped items kept, and nothing is
 * replaced when compaction is off or nothing precedes the turn.
 */
import assert from "node:assert/strict";
import { Compactor } from "../../lib/core/compaction/compaction.ts";
import { ContextCeiling } from "../../lib/core/compaction/context_ceiling.ts";
import { Message } from "../../lib/core/types/message.ts";
import { isSummary } from "../../lib/core/types/summary_marker.ts";
import { MemoryJournal } from "../../lib/journal/stream_journal.ts";
import { SplitProvider } from "./compaction_fixtures.ts";

function transcript(): Message[] {
  const first = Message.user("[t] bob: first");
  first.items = ["item-1"];
  const current = Message.user("[t] bob: now");
  current.items = ["item-2"];
  return [
    Message.system("charter"),
    first,
    Message.assistant({ content: "answered first" }),
    current,
    Message.assistant({ content: "working" }),
  ];
}

Deno.test("handoff: the conversation before the current turn becomes one summary turn", async () => {
  const journal = new MemoryJournal();
  const remembered: string[] = [];
  const provider = new SplitProvider([]);
  const compactor = new Compactor(provider, new ContextCeiling(provider), {
    journal,
    onSummary: (summary) => void remembered.push(summary),
  });
  const messages = transcript();
  const current = messages[3];
  assert.equal(await compactor.handoff(messages, 3, "I answered first."), true);
  assert.equal(messages.length, 4);
  assert.equal(messages[0].content, "charter");
  assert.ok(isSummary(messages[1]));
  assert.match(messages[1].content ?? "", /2 messages replaced .*\n\nI answered first\.$/s);
  assert.deepEqual(messages[1].items, ["item-1"]);
  assert.equal(messages[2], current);
  assert.deepEqual(remembered, ["I answered first."]);
  assert.equal(provider.summaryCalls.length, 0, "no summarization call");
  assert.ok(
    journal.lines.some((l) =>
      /^INFO context handoff messages=5→4 chars=\d+→\d+ summarized=2$/.test(l)
    ),
    journal.lines.join("\n"),
  );
});

Deno.test("handoff: nothing before the turn, a cut that is not a user turn, or compaction off change nothing", async () => {
  const provider = new SplitProvider([]);
  const on = new Compactor(provider, new ContextCeiling(provider));
  const off = new Compactor(provider, new ContextCeiling(provider, { override: 0 }));
  for (const [compactor, cut] of [[on, 1], [on, 2], [on, -1], [off, 3]] as const) {
    const messages = transcript();
    const before = JSON.stringify(messages);
    assert.equal(await compactor.handoff(messages, cut, "x"), false, `cut ${cut}`);
    assert.equal(JSON.stringify(messages), before);
  }
});
