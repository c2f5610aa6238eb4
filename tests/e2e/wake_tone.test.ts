/**
 * The tone check in a real `harness wake` (docs/security.md#the-tone-check): guardrails.json
 * names a judge model, the scripted agent first posts a sarcastic line the judge refuses, reads
 * the judge's reason, and posts a kind one that goes out. Only the kind one reaches the timeline,
 * the journal says `post blocked … check=tone`, and the turn record keeps both tone verdicts.
 * Then the same check offline, with the sandbox's demo model as both the agent and its judge
 * (docs/sandbox.md#the-demo-models-tone-judge): no scripted reply anywhere.
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { JUDGED_GUARDRAILS, judgeReply, SARCASM_REASON } from "../support/tone_judge.ts";
import { DEMO_MODEL_ID } from "../../lib/sandbox/model/mod.ts";
import { agentPosts, chatMessages, say, wakeFor, world } from "./wake_support.ts";

Deno.test("wake: a post the tone judge refuses is not sent; the regenerated one is", async () => {
  await using w = await world({ routed: true });
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(
    `${w.home}/config/guardrails.json`,
    JUDGED_GUARDRAILS,
  );
  const agent = [
    { id: "c0", body: "Oh, brilliant question." },
    { id: "c1", body: "Good question! Here is the answer." },
  ];
  let step = 0;
  w.model.always("chat", (request) => {
    const judged = judgeReply(request);
    if (judged) return judged;
    const next = agent[step++];
    return next === undefined ? { json: chatCompletion({ content: "Done." }) } : {
      json: chatCompletion({
        toolCalls: [{
          id: next.id,
          name: "messages",
          arguments: { action: "create", body: next.body },
        }],
      }),
    };
  });
  const asked = await say(w, "@ada why is the sky blue?");
  await w.settle();
  const result = wakeFor(w, asked.content.uuid);
  assert.equal(result.code, 0, result.stderr);

  const posts = await agentPosts(w);
  assert.deepEqual(posts, ["Good question! Here is the answer."]);
  assert.match(result.stderr, /WARNING post blocked timeline=\S+ kind=tool check=tone/);
  // The agent read the judge's reason verbatim in its tool result.
  const agentCalls = w.model.requestsTo("chat").map((r, i) => ({ r, i }))
    .filter(({ r }) => (r.body as { model: string }).model === "scripted");
  const afterRefusal = JSON.stringify(chatMessages(w.model, agentCalls[1].i));
  assert.ok(afterRefusal.includes(SARCASM_REASON), afterRefusal);

  const record = JSON.parse(
    (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim().split("\n").at(-1)!,
  );
  const tones = record.gate_verdicts.map((
    v: {
      verdict: string;
      checks: string[];
      tone: { passed: boolean; reason: string; model: string };
    },
  ) => [v.verdict, v.checks.join(), v.tone.passed, v.tone.reason, v.tone.model]);
  assert.deepEqual(tones, [
    ["refused", "tone", false, SARCASM_REASON, "judge"],
    ["passed", "", true, "Kind.", "judge"],
  ]);
  assert.equal(record.result, "spoke");
});

Deno.test("wake: with the sandbox's demo model as agent and judge, a marker keeps the reply off the timeline", async () => {
  await using w = await world();
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(
    `${w.home}/config/guardrails.json`,
    JSON.stringify({ tone: { instruction: "Warm and plain; never sarcastic." } }),
  );
  // No scripted model: the wake's model and its judge are both the sandbox's demo model.
  const demo = { AI_BASE_URL: w.sandbox.modelUrl, AI_MODEL: DEMO_MODEL_ID };

  // A polite question: the demo's echo of it carries no marker, so the judge passes it.
  await say(w, "@ada why is the sky blue?");
  const polite = await w.wake([], demo);
  assert.equal(polite.code, 0, polite.stderr);
  assert.match(polite.stderr, /INFO posted message=\S+ timeline=\S+ kind=tool/);
  const first = await agentPosts(w);
  assert.equal(first.length, 1);
  assert.match(first[0], /^\(sandbox demo model\) @bob thanks for the question/);

  // The demo quotes the question's first words, "obviously" among them: the judge refuses it.
  await say(w, "@ada obviously you know this one?");
  const marked = await w.wake([], demo);
  assert.equal(marked.code, 0, marked.stderr);
  assert.match(marked.stderr, /WARNING post blocked timeline=\S+ kind=tool check=tone/);
  assert.doesNotMatch(marked.stderr, /tone unjudged/);
  assert.match(marked.stderr, /INFO wake end timeline=\S+ outcome=ok .*posted=0/);
  assert.deepEqual(await agentPosts(w), first, "nothing more was posted");

  const records = (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`))
    .trim().split("\n").map((line) => JSON.parse(line));
  const tones = records.map((record) =>
    record.gate_verdicts.map((
      v: { verdict: string; checks: string[]; tone: { passed: boolean; model: string } },
    ) => [v.verdict, v.checks.join(), v.tone.passed, v.tone.model])
  );
  assert.deepEqual(tones, [
    [["passed", "", true, DEMO_MODEL_ID]],
    [["refused", "tone", false, DEMO_MODEL_ID]],
  ]);
  assert.match(
    records[1].gate_verdicts[0].tone.reason,
    /^The message says "obviously", a marker the sandbox's demo judge counts as rude/,
  );
  assert.equal(records[0].result, "spoke");
  assert.equal(records[1].result, "silent");
});
