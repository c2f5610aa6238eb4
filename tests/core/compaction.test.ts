import assert from "node:assert/strict";
import {
  COMPACTION_OBSERVE_TEXT,
  compactionMemoryKey,
  Compactor,
  SUMMARIZE_INSTRUCTION,
} from "../../lib/core/compaction/compaction.ts";
import { summaryText, transcriptChars } from "../../lib/core/compaction/cut.ts";
import { isSummary } from "../../lib/core/types/summary_marker.ts";
import { ContextCeiling } from "../../lib/core/compaction/context_ceiling.ts";
import { ProviderServerError } from "../../lib/core/types/faults.ts";
import { Message } from "../../lib/core/types/message.ts";
import { RecordingJournal } from "./engine_fixtures.ts";
import { conversation, SplitProvider, type SummaryScript } from "./compaction_fixtures.ts";

function setup(
  options: { override?: number; summaries?: SummaryScript[]; onSummary?: (s: string) => void } = {},
) {
  const journal = new RecordingJournal();
  const provider = new SplitProvider([], options.summaries);
  // One step per turn keeps the small test budgets inside the guarantee (no WARNING noise).
  const budget = new ContextCeiling(provider, {
    override: options.override ?? 8000,
    maxSteps: 1,
    journal,
  });
  const compactor = new Compactor(provider, budget, { journal, onSummary: options.onSummary });
  return { journal, provider, compactor };
}

Deno.test("compaction: triggers above half the ceiling and the line names the numbers", async () => {
  const remembered: string[] = [];
  const { journal, provider, compactor } = setup({ onSummary: (s) => remembered.push(s) });
  const messages = conversation(10);
  assert.equal(transcriptChars(messages), 1179);

  provider.lastTokensIn = 4000; // exactly half: not above it
  assert.equal(await compactor.maybeCompact(messages), false);
  assert.equal(messages.length, 21);

  provider.lastTokensIn = 4001;
  assert.equal(await compactor.maybeCompact(messages), true);
  // keep = int(8000 × 0.2 × 1179/4001) = 471 chars: peer turns 7..10 (470 chars) stay verbatim.
  const note = summaryText(12, "NOTES");
  assert.equal(messages.length, 10);
  assert.equal(messages[0].content, "charter");
  assert.equal(messages[1].content, note);
  assert.deepEqual(messages[1].items, ["u1", "u2", "u3", "u4", "u5", "u6"]);
  assert.equal(messages[2].content, `[t7] ann: ${"m".repeat(100)}`);
  assert.deepEqual(remembered, ["NOTES"]);
  assert.deepEqual(journal.lines().filter((l) => l.includes("context")), [
    "INFO context limit limit=8000 source=env compact_at=4000",
    `INFO context compact tokens_in=4001 limit=8000 source=env threshold=4000 messages=21→10 ` +
    `chars=1179→${1179 - 702 + note.length} summarized=12`,
  ]);
  // One tool-less call: the instruction, then the rendered excerpt, oldest first.
  assert.equal(provider.summaryCalls.length, 1);
  const call = provider.summaryCalls[0];
  assert.equal(call.tools, undefined);
  assert.equal(call.system, SUMMARIZE_INSTRUCTION);
  assert.ok(call.excerpt.startsWith(`### user\n[t1] ann: ${"m".repeat(100)}\n\n### assistant\n`));
  assert.ok(call.excerpt.endsWith("### assistant\nreply 6"));
  assert.match(journal.lines().find((l) => l.startsWith("INFO llm")) ?? "", /tokens_in=10/);
});

Deno.test("compaction: summaries are cumulative and carry every destroyed item", async () => {
  const { provider, compactor } = setup({
    summaries: [(excerpt) => `S1 saw ${excerpt.length}`, (excerpt) => `S2 over [${excerpt}]`],
  });
  const messages = conversation(10);
  provider.lastTokensIn = 4001;
  await compactor.maybeCompact(messages);
  for (let i = 11; i <= 20; i++) {
    messages.push(Message.user(`[t${i}] bob: ${"n".repeat(100)}`, { items: [`u${i}`] }));
    messages.push(Message.assistant({ content: `reply ${i}` }));
  }
  assert.equal(await compactor.maybeCompact(messages), true);
  const summaries = messages.filter(isSummary);
  assert.equal(summaries.length, 1, "the old summary is folded in, not piled up");
  // The carried summary goes first, whole, then the rest of the region.
  const second = provider.summaryCalls[1].excerpt;
  assert.ok(second.startsWith("### system\n[Earlier conversation compacted: 12 messages"));
  assert.ok(second.includes("S1 saw"));
  assert.ok(summaries[0].content?.includes("S1 saw"));
  const kept = messages.flatMap((m) => m.role === "user" ? m.items ?? [] : []);
  assert.deepEqual(
    [...summaries[0].items!, ...kept],
    Array.from({ length: 20 }, (_, i) => `u${i + 1}`),
  );
});

Deno.test("compaction: the charter stays and a previous summary is never prelude", async () => {
  const { provider, compactor } = setup();
  const messages = conversation(10);
  messages.unshift(Message.system("second charter part"));
  provider.lastTokensIn = 4001;
  await compactor.maybeCompact(messages);
  assert.deepEqual(messages.slice(0, 2).map((m) => m.content), ["second charter part", "charter"]);
  assert.ok(isSummary(messages[2]));
});

Deno.test("compaction: declines when no safe cut exists, leaving the transcript alone", async () => {
  const { journal, provider, compactor } = setup();
  const messages = [
    Message.system("charter"),
    Message.user("x".repeat(20000), { items: ["u1"] }),
    Message.assistant({ toolCalls: [{ id: "c1", name: "echo", arguments: {} }] }),
    Message.tool("c1", "y".repeat(20000)),
    Message.user("(Showing image: a.png)", { injected: true }),
  ];
  const before = structuredClone(messages);
  provider.lastTokensIn = 7000;
  assert.equal(await compactor.maybeCompact(messages), false);
  assert.deepEqual(messages, before);
  assert.equal(provider.summaryCalls.length, 0);
  assert.deepEqual(journal.at("WARNING"), [
    "WARNING Context compaction declined: no safe cut point in the transcript (5 messages). " +
    "The transcript is unchanged.",
  ]);
});

Deno.test("compaction: a failed or empty summary leaves the transcript untouched", async () => {
  for (
    const [script, warning] of [
      [new Error("503"), "Context compaction failed: the summarization call errored: Error: 503"],
      ["   ", "Context compaction failed: the summarization call produced no text."],
    ] as const
  ) {
    const { journal, provider, compactor } = setup({ summaries: [script] });
    const messages = conversation(10);
    const before = structuredClone(messages);
    provider.lastTokensIn = 4001;
    assert.equal(await compactor.maybeCompact(messages), false);
    assert.deepEqual(messages, before);
    assert.deepEqual(journal.at("WARNING"), [`WARNING ${warning}`]);
    assert.equal(journal.lines().some((l) => l.includes("context compact")), false);
  }
});

Deno.test("compaction: a memory failure is a WARNING and the compaction still lands", async () => {
  const { journal, provider, compactor } = setup({
    onSummary: () => {
      throw new Error("disk full");
    },
  });
  const messages = conversation(10);
  provider.lastTokensIn = 4001;
  assert.equal(await compactor.maybeCompact(messages), true);
  assert.ok(messages.some(isSummary));
  assert.deepEqual(journal.at("WARNING"), [
    "WARNING Could not write the compaction summary to memory: Error: disk full",
  ]);
});

Deno.test("compaction: an oversized region loses its oldest part, loudly", async () => {
  const { journal, provider, compactor } = setup({ override: 2000 });
  const messages = conversation(10, 1000);
  // A call near the wall: the region to drop (~79%) is more than one call may read (~53%).
  provider.lastTokensIn = 1900;
  const chars = transcriptChars(messages);
  const allowance = Math.trunc(2000 * 0.5 * (chars / 1900));
  assert.equal(await compactor.maybeCompact(messages), true);
  const excerpt = provider.summaryCalls[0].excerpt;
  const warning = journal.at("WARNING").find((l) => l.includes("Context compaction:")) ?? "";
  const cut = Number(/Context compaction: (\d+) characters/.exec(warning)?.[1]);
  assert.ok(cut > 0);
  assert.equal(
    warning,
    `WARNING Context compaction: ${cut} characters of the oldest conversation did not fit in ` +
      "one summarization call and are dropped unsummarized.",
  );
  assert.ok(excerpt.startsWith(`[${cut} characters of the oldest conversation`));
  assert.equal(excerpt.length - excerpt.indexOf("]\n\n") - 3, allowance);
});

Deno.test("compaction: emergency keeps a quarter at most and says emergency=yes", async () => {
  const { journal, compactor } = setup({ override: 1_000_000 });
  const messages = conversation(10);
  assert.equal(await compactor.emergencyCompact(messages), true);
  // keep = min(int(1e6 × 0.2 × 2.0), int(1179 × 0.25) = 294): turns 9 and 10 (236 chars) stay.
  assert.equal(messages.length, 6);
  assert.deepEqual(journal.lines().filter((l) => /context (compact|overflow)/.test(l)), [
    "WARNING context overflow: the last request exceeded the model's context window — " +
    "compacting the transcript hard, on pessimistic assumptions, so it fits again.",
    `INFO context compact limit=1000000 source=env threshold=500000 messages=21→6 ` +
    `chars=1179→${236 + 7 + summaryText(16, "NOTES").length} summarized=16 emergency=yes`,
  ]);
});

Deno.test("compaction: 0 disables the trigger and the emergency path", async () => {
  const { journal, provider, compactor } = setup({ override: 0 });
  const messages = conversation(10);
  provider.lastTokensIn = 10_000_000;
  assert.equal(await compactor.maybeCompact(messages), false);
  assert.equal(await compactor.emergencyCompact(messages), false);
  assert.equal(messages.length, 21);
  assert.equal(provider.summaryCalls.length, 0);
  assert.deepEqual(journal.lines(), [
    "WARNING Context overflow, but compaction is disabled (HARNESS_MAX_CONTEXT_TOKENS=0): the " +
    "transcript is left exactly as it is and the error stands.",
  ]);
});

Deno.test("compaction: afterTurn saves only what changed and never throws", async () => {
  const { journal, provider, compactor } = setup();
  const messages = conversation(10);
  let saves = 0;
  provider.lastTokensIn = 100;
  assert.equal(await compactor.afterTurn(messages, () => void saves++), false);
  assert.equal(saves, 0);
  provider.lastTokensIn = 4001;
  assert.equal(await compactor.afterTurn(messages, () => void saves++), true);
  assert.equal(saves, 1);
  const more = conversation(10);
  assert.equal(
    await compactor.afterTurn(more, () => Promise.reject(new Error("EROFS"))),
    false,
  );
  assert.deepEqual(journal.at("WARNING"), ["WARNING Context compaction failed: Error: EROFS"]);
});

Deno.test("compaction: the memory key and observe text for the wake's routing", () => {
  assert.equal(
    compactionMemoryKey("timeline:abc", new Date("2026-03-04T05:06:07.890Z")),
    "compaction/timeline:abc/2026-03-04T05:06:07Z",
  );
  assert.ok(COMPACTION_OBSERVE_TEXT.startsWith("[Context compaction] Summarize the work"));
});

Deno.test("compaction: a transient fault of the summarize call is retried like a turn's call", async () => {
  const journal = new RecordingJournal();
  const provider = new SplitProvider([], [
    new ProviderServerError("502 from upstream", 502),
    "NOTES",
  ]);
  const budget = new ContextCeiling(provider, { override: 8000, maxSteps: 1, journal });
  const waits: number[] = [];
  const compactor = new Compactor(provider, budget, {
    journal,
    retries: 1,
    sleep: (ms) => (waits.push(ms), Promise.resolve()),
  });
  const messages = conversation(10);
  provider.lastTokensIn = 4001;
  assert.equal(await compactor.maybeCompact(messages), true);
  assert.ok(messages.some((m) => isSummary(m) && m.content?.includes("NOTES")));
  assert.deepEqual(waits, [500]);
  assert.equal(journal.lines().filter((l) => l.startsWith("INFO llm ")).length, 1);
  assert.ok(journal.at("WARNING").some((l) => l.includes("502 from upstream")));
  // With no retries (the default) the same fault fails the compaction, as before.
  const once = setup({ summaries: [new ProviderServerError("502 from upstream", 502)] });
  once.provider.lastTokensIn = 4001;
  assert.equal(await once.compactor.maybeCompact(conversation(10)), false);
});
