/**
 * Replay ends a turn as the wake does (docs/records.md#what-is-re-run): the same turn is recorded
 * by a real `harness wake` on the sandbox and replayed by `harness replay` through the real openai
 * SDK against a local wire mock scripted the same way. After `max_refusals_per_turn` gate
 * refusals the turn's speaking is closed in both — later posts and creates are refused unscreened
 * and nothing more is captured — and both say `escalated`; a model refusal is `refused` in both.
 */
import assert from "node:assert/strict";
import { ReplayReportSchema } from "../../lib/replay/report.ts";
import { ModelMock } from "../support/model_mock.ts";
import { onlyRecord, refuse, replayAgainst, script, type Step } from "./replay_support.ts";
import { agentPosts, chatMessages, say, type World, world } from "./wake_support.ts";

/** `harness replay --json` of the world's turns against `other`: its one replayed turn. */
async function replayOnly(w: World, other: ModelMock) {
  const result = await replayAgainst(w, other, ["--json"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const report = ReplayReportSchema.parse(JSON.parse(result.stdout));
  assert.equal(report.turns.length, 1);
  const [turn] = report.turns;
  assert.equal(turn.status, "replayed", turn.reason);
  return turn;
}

const TURN: Step[] = [
  { name: "messages", arguments: { action: "create", body: "the secret word is marmalade" } },
  { name: "messages", arguments: { action: "create", body: "fine: marmalade, again" } },
  { name: "messages", arguments: { action: "create", body: "A plain answer." } },
  {
    name: "tasks",
    arguments: {
      action: "create",
      instructions: "Follow up on the question.",
      activate_at: "2031-01-01T09:00:00Z",
    },
  },
  { content: "Done." },
];

Deno.test("replay closes a turn's speaking after max_refusals_per_turn and says escalated, as the wake's record does", async () => {
  await using w = await world({ third: true });
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(
    `${w.home}/config/guardrails.json`,
    JSON.stringify({
      forbidden_patterns: [{ pattern: "marmalade", reason: "no secret words" }],
      max_refusals_per_turn: 2,
    }),
  );
  await say(w, "@ada what is the word?");
  script(w.model, TURN);
  const woke = await w.wake();
  assert.equal(woke.code, 0, woke.stderr);
  const record = await onlyRecord(w);
  assert.equal(record.result, "escalated");
  assert.deepEqual(await agentPosts(w), []);

  await using other = await ModelMock.start();
  script(other, TURN);
  const before = w.sandbox.requests.length;
  const turn = await replayOnly(w, other);
  assert.deepEqual(w.sandbox.requests.slice(before), [], "replay sent nothing");
  assert.equal(turn.original.result, "escalated");
  assert.equal(turn.replay?.result, "escalated");
  assert.deepEqual(turn.replay?.texts, [], "a post after the limit is not captured");
  assert.deepEqual(turn.replay?.verdicts, turn.original.verdicts);
  assert.deepEqual(turn.replay?.verdicts.map((v) => [v.verdict, v.checks.join()]), [
    ["refused", "forbidden_patterns"],
    ["refused", "forbidden_patterns"],
  ]);
  assert.deepEqual(turn.replay?.tool_calls, turn.original.tool_calls);
  assert.equal(turn.diff?.changed, false, JSON.stringify(turn.diff));
  // The model read the wake's own refusal for the post and the task after the limit.
  const closing = chatMessages(other, 4).filter((m) => m.role === "tool").map((m) => m.content);
  assert.equal(closing.length, 4);
  assert.match(closing[2]!, /^Couldn't create a message: .*Nothing was sent; do not try again/);
  assert.match(closing[3]!, /^Couldn't create the task: .*Nothing was sent; do not try again/);
  const wakeClosing = chatMessages(w.model, 4).filter((m) => m.role === "tool")
    .map((m) => m.content);
  assert.deepEqual(closing.slice(2), wakeClosing.slice(2));
});

Deno.test("replay reports a model refusal as refused, as the wake's record does", async () => {
  await using w = await world({ third: true });
  await say(w, "@ada help me break in");
  refuse(w.model);
  const woke = await w.wake();
  assert.equal(woke.code, 0, woke.stderr);
  assert.equal((await onlyRecord(w)).result, "refused");

  await using other = await ModelMock.start();
  refuse(other);
  const turn = await replayOnly(w, other);
  assert.equal(turn.original.result, "refused");
  assert.equal(turn.replay?.result, "refused");
  assert.equal(turn.replay?.spoke, false);
  assert.equal(other.hits("chat"), 1, "a refusal is not asked again");
});
