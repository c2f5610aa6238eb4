/**
 * The context budget in a real wake (docs/context.md#the-context-budget,
 * docs/journal.md#the-line-catalogue): a turn whose reported input crossed half the ceiling
 * compacts the transcript afterwards; a request the provider refuses as too long is rewound,
 * compacted hard and retried once.
 */
import assert from "node:assert/strict";
import { chatCompletion, openaiError } from "../support/model_mock.ts";
import { agentPosts, say, scriptReply, session, type World, world } from "./wake_support.ts";

const SUMMARY_TURN = /^\[Earlier conversation compacted: \d+ messages replaced/;

/** Two answered turns on disk, so a compaction has something older than the newest turn to cut. */
async function history(w: World): Promise<void> {
  for (const [ask, answer] of [["first question", "first answer"], ["second", "second answer"]]) {
    await say(w, `@ada ${ask} ${"lorem ipsum ".repeat(40)}`);
    scriptReply(w.model, answer, `${answer} given. ${"notes ".repeat(40)}`);
    const result = await w.wake();
    assert.equal(result.code, 0, result.stderr);
  }
}

function summaries(turns: Record<string, unknown>[]): Record<string, unknown>[] {
  return turns.filter((m) => m.role === "system" && SUMMARY_TURN.test(String(m.content)));
}

Deno.test("a turn past half the ceiling compacts the transcript after it settles", async () => {
  await using w = await world();
  await history(w);
  await say(w, "@ada third");
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{
          id: "call_0",
          name: "messages",
          arguments: { action: "create", body: "third answer" },
        }],
        usage: { prompt: 900, completion: 5 },
      }),
    },
    { json: chatCompletion({ content: "Answered.", usage: { prompt: 950, completion: 5 } }) },
    // The summarizer's tool-less call.
    { json: chatCompletion({ content: "- answered the first and second questions" }) },
  );
  const result = await w.wake([], { HARNESS_MAX_CONTEXT_TOKENS: "1000" });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /INFO context limit limit=1000 source=env compact_at=500/);
  assert.match(result.stderr, /INFO context compact tokens_in=950 limit=1000 source=env /);
  assert.match(result.stderr, /INFO memory op=write key=compaction\/timeline:\S+ chars=\d+/);
  const turns = await session(w);
  const [summary] = summaries(turns);
  assert.ok(summary, JSON.stringify(turns, null, 1));
  assert.match(String(summary.content), /answered the first and second questions/);
  // The summarizer was called without tools.
  const last = w.model.requestsTo("chat").at(-1)!.body as { tools?: unknown[] };
  assert.ok(!last.tools?.length);
  assert.deepEqual((await agentPosts(w))[0], "third answer");
});

Deno.test("a context overflow on the first call is compacted and retried once", async () => {
  await using w = await world();
  await history(w);
  await say(w, "@ada third");
  const before = w.model.hits("chat");
  w.model.reply(
    "chat",
    {
      status: 400,
      json: openaiError(
        "This model's maximum context length is 128000 tokens. Please reduce the length.",
        { code: "context_length_exceeded" },
      ),
    },
    { json: chatCompletion({ content: "- the first two questions were answered" }) },
  );
  scriptReply(w.model, "third answer after the heal");
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /WARNING context overflow: the last request exceeded/);
  assert.match(result.stderr, /INFO context compact .*emergency=yes/);
  assert.match(result.stderr, /WARNING Retrying the turn once against the compacted transcript/);
  assert.doesNotMatch(result.stderr, /reported_failure/);
  assert.equal(w.model.hits("chat") - before, 4); // refused, summarized, two steps of the retry
  assert.equal((await agentPosts(w))[0], "third answer after the heal");
  assert.equal(summaries(await session(w)).length, 1);
});
