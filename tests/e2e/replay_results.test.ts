/**
 * Replay's verdicts see how the turn ended (docs/records.md#the-diff, #exit-codes): a turn a real
 * `harness wake` recorded as `spoke` is replayed by `harness replay` through the real openai SDK
 * against a wire mock that posts the same words and then refuses. Nothing else differs, yet the
 * diff says changed and names `spoke → refused` (JSON and table), and `more-refusals` and
 * `result-changed` exit 1 while the rules that look only at speech stay ok. Replayed as recorded,
 * the same turn is unchanged and every rule is ok.
 */
import assert from "node:assert/strict";
import { ReplayReportSchema } from "../../lib/replay/report.ts";
import { ModelMock } from "../support/model_mock.ts";
import { onlyRecord, refuse, replayAgainst, script, type Step } from "./replay_support.ts";
import { say, type World, world } from "./wake_support.ts";

const POST: Step = {
  name: "messages",
  arguments: { action: "create", body: "A timeline is a conversation." },
};

/** A world whose one turn, recorded by a real wake, posted {@link POST} and spoke. */
async function spokenTurn(): Promise<World & { recordId: string }> {
  const w = await world({ third: true });
  await say(w, "@ada what is a timeline?");
  script(w.model, [POST, { content: "Done." }]);
  const woke = await w.wake();
  assert.equal(woke.code, 0, woke.stderr);
  const record = await onlyRecord(w);
  assert.equal(record.result, "spoke");
  return Object.assign(w, { recordId: String(record.record_id) });
}

/** Queues a replayed turn that posts the same words as the record, then refuses. */
function postThenRefuse(model: ModelMock): void {
  script(model, [POST]);
  refuse(model);
}

const RULES = "more-refusals,fewer-replies,similarity<1,result-changed";

Deno.test("a spoken turn replayed into a model refusal is changed, names spoke → refused, and more-refusals and result-changed exit 1", async () => {
  await using w = await spokenTurn();
  await using other = await ModelMock.start();
  postThenRefuse(other);
  const result = await replayAgainst(w, other, ["--json", "--fail-on", RULES]);
  assert.equal(result.code, 1, result.stderr + result.stdout);
  const report = ReplayReportSchema.parse(JSON.parse(result.stdout));
  const [turn] = report.turns;
  assert.equal(turn.status, "replayed", turn.reason);
  assert.equal(turn.original.result, "spoke");
  assert.equal(turn.replay?.result, "refused");
  // The same words were captured: only how the turn ended differs.
  assert.deepEqual(turn.replay?.texts, turn.original.texts);
  assert.deepEqual(turn.replay?.tool_calls, turn.original.tool_calls);
  assert.deepEqual(turn.diff?.result_change, { before: "spoke", after: "refused" });
  assert.equal(turn.diff?.changed, true);
  assert.equal(turn.diff?.spoke_changed, false);
  assert.equal(turn.diff?.text_changed, false);
  assert.equal(turn.diff?.similarity, 1);
  assert.equal(report.summary.changed, 1);
  assert.equal(report.summary.results_changed, 1);
  assert.equal(report.summary.model_refusals_before, 0);
  assert.equal(report.summary.model_refusals_after, 1);
  assert.deepEqual(report.thresholds, [
    {
      rule: "more-refusals",
      crossed: true,
      detail: `gate refusals 0 → 0; model refusals 0 → 1, newly refused: ${w.recordId}`,
    },
    { rule: "fewer-replies", crossed: false, detail: "replies to mentions 1 → 1" },
    { rule: "similarity<1", crossed: false, detail: "every replayed turn at or above 1" },
    {
      rule: "result-changed",
      crossed: true,
      detail: `1 turn(s) ended otherwise: ${w.recordId} spoke → refused`,
    },
  ]);

  // The rules that look at speech alone do not fail the run: the refusal is what does.
  postThenRefuse(other);
  const speech = await replayAgainst(w, other, ["--fail-on", "fewer-replies,similarity<1"]);
  assert.equal(speech.code, 0, speech.stderr + speech.stdout);

  // The table: the row's before/after, the texts headed by the result pair, the totals, the rule.
  postThenRefuse(other);
  const table = await replayAgainst(w, other, ["--fail-on", "result-changed"]);
  assert.equal(table.code, 1, table.stderr + table.stdout);
  assert.match(table.stdout, /^[0-9a-f]{8} .* spoke +refused +.* changed$/m);
  assert.ok(
    table.stdout.includes(`\n${w.recordId} (${w.timeline} #`) &&
      table.stdout.includes(") ended spoke → refused:\n"),
    table.stdout,
  );
  assert.match(table.stdout, /│ replayed\n {2}A timeline is a conversation\. +│ A timeline/);
  assert.match(table.stdout, /1 replayed \(1 changed, 1 ended otherwise\)/);
  assert.match(table.stdout, /model refusals 0 → 1/);
  assert.ok(
    table.stdout.includes(
      `fail-on result-changed: CROSSED (1 turn(s) ended otherwise: ${w.recordId} spoke → refused)`,
    ),
    table.stdout,
  );
  assert.equal(other.hits("chat"), 6, "each replay asked the other model twice");
});

Deno.test("a spoken turn replayed as recorded is unchanged and crosses no rule", async () => {
  await using w = await spokenTurn();
  await using other = await ModelMock.start();
  script(other, [POST, { content: "Done." }]);
  const result = await replayAgainst(w, other, ["--json", "--fail-on", RULES]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const report = ReplayReportSchema.parse(JSON.parse(result.stdout));
  const [turn] = report.turns;
  assert.equal(turn.replay?.result, "spoke");
  assert.equal(turn.diff?.result_change, null);
  assert.equal(turn.diff?.changed, false, JSON.stringify(turn.diff));
  assert.equal(report.summary.results_changed, 0);
  assert.deepEqual(report.thresholds.map((t) => [t.rule, t.crossed, t.detail]), [
    ["more-refusals", false, "gate refusals 0 → 0; model refusals 0 → 0"],
    ["fewer-replies", false, "replies to mentions 1 → 1"],
    ["similarity<1", false, "every replayed turn at or above 1"],
    ["result-changed", false, "every replayed turn ended as recorded"],
  ]);

  script(other, [POST, { content: "Done." }]);
  const table = await replayAgainst(w, other, ["--fail-on", "more-refusals,result-changed"]);
  assert.equal(table.code, 0, table.stderr + table.stdout);
  assert.match(table.stdout, /^[0-9a-f]{8} .* spoke +spoke +.* same$/m);
  assert.doesNotMatch(table.stdout, /\) ended \w+ → \w+:$/m, "no result pair heads texts");
  assert.match(table.stdout, /1 replayed \(0 changed, 0 ended otherwise\)/);
  assert.match(
    table.stdout,
    /fail-on more-refusals: ok \(gate refusals 0 → 0; model refusals 0 → 0\)/,
  );
  assert.match(
    table.stdout,
    /fail-on result-changed: ok \(every replayed turn ended as recorded\)/,
  );
});
