/** The replay diff's pure parts: the similarity score, mentions and the `--fail-on` rules. */
import assert from "node:assert/strict";
import {
  judgeRules,
  mentions,
  parseFailOn,
  similarity,
  summarize,
  type TurnReport,
} from "../../lib/replay/mod.ts";

Deno.test("similarity: token-set Jaccard, blind to case, order, repetition and punctuation", () => {
  assert.equal(similarity("Hello, Bob!", "bob hello hello"), 1);
  assert.equal(similarity("", ""), 1);
  assert.equal(similarity("a b", ""), 0);
  // {the, cat, sat} vs {the, dog, sat}: 2 shared of 4.
  assert.equal(similarity("The cat sat.", "the dog sat"), 0.5);
  assert.equal(similarity("Grüße aus Köln", "grüße aus bonn"), 0.5);
});

Deno.test("mentions: a whole @handle, any case, trailing full stop ignored", () => {
  assert.equal(mentions("[t] bob: @Ada hi", "ada"), true);
  assert.equal(mentions("thanks @ada.", "@ada"), true);
  assert.equal(mentions("@adam hi", "ada"), false);
  assert.equal(mentions("ada without at", "ada"), false);
});

Deno.test("parseFailOn: the three rules, comma-separated; anything else is refused by name", () => {
  assert.deepEqual(parseFailOn("more-refusals, fewer-replies,similarity<0.8"), [
    { kind: "more-refusals" },
    { kind: "fewer-replies" },
    { kind: "similarity", below: 0.8 },
  ]);
  assert.deepEqual(parseFailOn("similarity < .5"), [{ kind: "similarity", below: 0.5 }]);
  assert.match(String(parseFailOn("similarity<1.5")), /similarity<1\.5' is not a rule/);
  assert.match(String(parseFailOn("louder")), /'louder' is not a rule/);
  assert.match(String(parseFailOn(" , ")), /at least one rule/);
});

const side = (spoke: boolean, refusals = 0) => ({
  result: spoke ? "spoke" : "silent",
  spoke,
  texts: spoke ? ["hi"] : [],
  tool_calls: [],
  verdicts: [],
  refusals,
  tokens_in: 10,
  tokens_out: 1,
  cached_tokens: 0,
  cost_usd: null,
  model: "m",
});

function turn(id: string, before: boolean, after: boolean, extra: Partial<TurnReport> = {}) {
  const similarityScore = before === after ? 1 : 0;
  return {
    record_id: id,
    timeline: "t",
    seq: 1,
    at: "2026-01-01T00:00:00.000Z",
    status: "replayed" as const,
    mention: true,
    original: side(before),
    replay: side(after),
    diff: {
      changed: before !== after,
      spoke_changed: before !== after,
      text_changed: before !== after,
      tools_changed: false,
      verdicts_changed: false,
      similarity: similarityScore,
      tokens_in_delta: 0,
      tokens_out_delta: 0,
      cost_delta_usd: null,
    },
    same_charter: true,
    same_tools: true,
    ...extra,
  };
}

Deno.test("judgeRules: fewer replies counts mentions only; skipped turns count for nothing", () => {
  const turns: TurnReport[] = [
    turn("a", true, false),
    turn("b", true, true, { mention: false }),
    turn("c", true, false, { status: "skipped", replay: undefined, diff: undefined }),
  ];
  const summary = summarize(turns);
  assert.equal(summary.replayed, 2);
  assert.equal(summary.skipped, 1);
  assert.equal(summary.replies_to_mentions_before, 1);
  assert.equal(summary.replies_to_mentions_after, 0);
  const judged = judgeRules(
    [{ kind: "fewer-replies" }, { kind: "more-refusals" }, { kind: "similarity", below: 0.5 }],
    turns,
    summary,
  );
  assert.deepEqual(judged.map((j) => [j.rule, j.crossed]), [
    ["fewer-replies", true],
    ["more-refusals", false],
    ["similarity<0.5", true],
  ]);
  assert.match(judged[2].detail, /1 turn\(s\) below 0\.5: a$/);
  // Nothing lost: nothing crossed.
  const same = [turn("a", true, true)];
  assert.ok(
    judgeRules([{ kind: "fewer-replies" }], same, summarize(same)).every((j) => !j.crossed),
  );
});
