/**
 * The replay diff's pure parts: the similarity score, mentions, the per-turn diff (a different
 * result is a change), the totals and the `--fail-on` rules.
 */
import assert from "node:assert/strict";
import {
  diffSides,
  judgeRules,
  mentions,
  parseFailOn,
  type Side,
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

Deno.test("parseFailOn: the four rules, comma-separated; anything else is refused by name", () => {
  assert.deepEqual(parseFailOn("more-refusals, fewer-replies,similarity<0.8,result-changed"), [
    { kind: "more-refusals" },
    { kind: "fewer-replies" },
    { kind: "similarity", below: 0.8 },
    { kind: "result-changed" },
  ]);
  assert.deepEqual(parseFailOn("similarity < .5"), [{ kind: "similarity", below: 0.5 }]);
  assert.match(String(parseFailOn("similarity<1.5")), /similarity<1\.5' is not a rule/);
  const louder = String(parseFailOn("louder"));
  assert.match(louder, /'louder' is not a rule/);
  assert.match(louder, /result-changed/);
  assert.match(String(parseFailOn(" , ")), /at least one rule/);
});

/** A side that ended as `result`, posting `texts` and drawing `refusals` gate refusals. */
function side(result: string, texts: string[] = [], refusals = 0): Side {
  return {
    result,
    spoke: texts.length > 0,
    texts,
    tool_calls: texts.map(() => "messages/create"),
    verdicts: [
      ...texts.map(() => ({ verdict: "passed" as const, checks: [] })),
      ...Array.from({ length: refusals }, () => ({ verdict: "refused" as const, checks: ["x"] })),
    ],
    refusals,
    tokens_in: 10,
    tokens_out: 1,
    cached_tokens: 0,
    cost_usd: null,
    model: "m",
  };
}

const spoke = () => side("spoke", ["hi"]);
const silent = () => side("silent");
const refused = () => side("refused");

/** A replayed turn whose diff is what {@link diffSides} makes of the two sides. */
function turn(id: string, before: Side, after: Side, extra: Partial<TurnReport> = {}): TurnReport {
  return {
    record_id: id,
    timeline: "t",
    seq: 1,
    at: "2026-01-01T00:00:00.000Z",
    status: "replayed",
    mention: true,
    original: before,
    replay: after,
    diff: diffSides(before, after),
    same_charter: true,
    same_tools: true,
    ...extra,
  };
}

/** A selected turn that was not replayed: it has no replay side and no diff. */
const skipped = (id: string, before: Side) =>
  turn(id, before, before, { status: "skipped", replay: undefined, diff: undefined });

Deno.test("diffSides: the same words ending in a model refusal are a change, naming both results", () => {
  const diff = diffSides(spoke(), side("refused", ["hi"]));
  assert.deepEqual(diff.result_change, { before: "spoke", after: "refused" });
  assert.equal(diff.changed, true);
  // Nothing else differs: before, such a turn read as unchanged.
  assert.deepEqual(
    [diff.spoke_changed, diff.text_changed, diff.tools_changed, diff.verdicts_changed],
    [false, false, false, false],
  );
  assert.equal(diff.similarity, 1);
  // A turn cut at the output limit instead of ending silent is a change of result alone too.
  assert.deepEqual(diffSides(silent(), side("truncated")).result_change, {
    before: "silent",
    after: "truncated",
  });
});

Deno.test("diffSides: a turn ending as recorded has no result change", () => {
  const same = diffSides(spoke(), spoke());
  assert.equal(same.result_change, null);
  assert.equal(same.changed, false);
  assert.equal(diffSides(refused(), refused()).changed, false);
  // Other changes still count without a result change.
  const reworded = diffSides(spoke(), side("spoke", ["hello"]));
  assert.equal(reworded.result_change, null);
  assert.equal(reworded.changed, true);
});

Deno.test("summarize: counts turns that ended otherwise and model refusals on each side", () => {
  const turns = [
    turn("a", spoke(), side("refused", ["hi"])),
    turn("b", refused(), silent()),
    turn("c", spoke(), spoke()),
    skipped("d", refused()),
  ];
  const summary = summarize(turns);
  assert.equal(summary.replayed, 3);
  assert.equal(summary.changed, 2);
  assert.equal(summary.results_changed, 2);
  assert.equal(summary.model_refusals_before, 1);
  assert.equal(summary.model_refusals_after, 1);
  assert.equal(summary.refusals_before, 0);
});

Deno.test("judgeRules: fewer replies counts mentions only; skipped turns count for nothing", () => {
  const turns: TurnReport[] = [
    turn("a", spoke(), silent()),
    turn("b", spoke(), spoke(), { mention: false }),
    skipped("c", spoke()),
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
  const same = [turn("a", spoke(), spoke())];
  assert.ok(
    judgeRules([{ kind: "fewer-replies" }], same, summarize(same)).every((j) => !j.crossed),
  );
});

/** `rule` judged over `turns`. */
function judge(rule: "more-refusals" | "result-changed", turns: TurnReport[]) {
  const [judged] = judgeRules([{ kind: rule }], turns, summarize(turns));
  return judged;
}

Deno.test("more-refusals: still crosses on more gate refusals, and not on as many", () => {
  const more = judge("more-refusals", [
    turn("a", side("spoke", ["hi"], 1), side("spoke", ["hi"], 2)),
  ]);
  assert.equal(more.crossed, true);
  assert.equal(more.detail, "gate refusals 1 → 2; model refusals 0 → 0");
  const fewer = judge("more-refusals", [
    turn("a", side("spoke", ["hi"], 2), side("spoke", ["hi"], 1)),
  ]);
  assert.equal(fewer.crossed, false);
});

Deno.test("more-refusals: a turn the model newly refuses crosses, named, though gate refusals fell", () => {
  const judged = judge("more-refusals", [
    turn("a", spoke(), side("refused", ["hi"])),
    turn("b", side("escalated", [], 2), silent()),
  ]);
  assert.equal(judged.crossed, true);
  assert.equal(
    judged.detail,
    "gate refusals 2 → 0; model refusals 0 → 1, newly refused: a",
  );
  // Judged per turn: another turn that stopped being refused does not hide it.
  const swapped = judge("more-refusals", [
    turn("a", spoke(), refused()),
    turn("b", refused(), spoke()),
  ]);
  assert.equal(swapped.crossed, true);
  assert.match(swapped.detail, /model refusals 1 → 1, newly refused: a$/);
  // A turn refused in its record and again in the replay is not more.
  const again = judge("more-refusals", [turn("a", refused(), refused())]);
  assert.equal(again.crossed, false);
  assert.equal(again.detail, "gate refusals 0 → 0; model refusals 1 → 1");
  // Silence is not a refusal.
  assert.equal(judge("more-refusals", [turn("a", spoke(), silent())]).crossed, false);
});

Deno.test("result-changed: crosses on any turn that ended otherwise, naming the pair", () => {
  const judged = judge("result-changed", [
    turn("a", spoke(), spoke()),
    turn("b", spoke(), side("truncated")),
    skipped("c", spoke()),
  ]);
  assert.equal(judged.crossed, true);
  assert.equal(judged.detail, "1 turn(s) ended otherwise: b spoke → truncated");
  const same = judge("result-changed", [turn("a", spoke(), side("spoke", ["other words"]))]);
  assert.equal(same.crossed, false);
  assert.equal(same.detail, "every replayed turn ended as recorded");
});
