/** Reading a wake's journal back for the page: colours, fields and the per-wake sums. */
import assert from "node:assert/strict";
import { fieldsOf, readJournalLine, summariseJournal } from "../../lib/playground/journal_view.ts";

const ESC = "\x1b";

Deno.test("journal view: a coloured head and outcome become coloured segments; fields parse", () => {
  const line = readJournalLine(
    `INFO ${ESC}[34mwake end${ESC}[0m timeline=t ${ESC}[32moutcome=ok${ESC}[0m turns=1 steps=2/24 posted=1 duration=0.46s`,
  );
  assert.equal(line.level, "INFO");
  assert.equal(line.head, "wake end");
  assert.deepEqual(line.segments, [
    { text: "INFO " },
    { text: "wake end", colour: 34 },
    { text: " timeline=t " },
    { text: "outcome=ok", colour: 32 },
    { text: " turns=1 steps=2/24 posted=1 duration=0.46s" },
  ]);
  assert.deepEqual(fieldsOf(line), {
    timeline: "t",
    outcome: "ok",
    turns: "1",
    steps: "2/24",
    posted: "1",
    duration: "0.46s",
  });
});

Deno.test("journal view: a wake's lines sum to its outcome, tokens, cost and unspoken text", () => {
  const lines = [
    "INFO llm provider=openai model=m duration=0.1s tokens_in=100 tokens_out=7 cached_tokens=40 cost=0.002",
    "INFO llm provider=openai model=m duration=0.1s tokens_in=120 tokens_out=3 cached_tokens=100",
    "INFO llm provider=anthropic model=c duration=0.1s tokens_in=50 tokens_out=2 cached_tokens=10 cache_write_tokens=30",
    "INFO media provider=openai kind=image.generate model=i duration=1.00s cost=0.04",
    'INFO unspoken timeline=t kind=narration chars=12 text="Done, x=1 ok"',
    "INFO wake end timeline=t outcome=ok turns=1 steps=2/24 posted=1 duration=0.46s",
    "a line that is not the journal's",
  ].map(readJournalLine);
  const sum = summariseJournal(lines);
  assert.deepEqual({ ...sum, cost: Number(sum.cost?.toFixed(6)) }, {
    outcome: "ok",
    steps: "2/24",
    posted: 1,
    tokensIn: 270,
    tokensOut: 12,
    cachedTokens: 150,
    cacheWriteTokens: 30,
    cost: 0.042,
    llmCalls: 3,
    unspoken: ["Done, x=1 ok"],
    error: null,
  });
  assert.equal(lines[6].level, "");
  const failed = summariseJournal([
    readJournalLine('ERROR wake failed timeline=t error="Boom: no"'),
  ]);
  assert.equal(failed.outcome, "failed");
  assert.equal(failed.error, "Boom: no");
  assert.equal(failed.cost, null);
});
