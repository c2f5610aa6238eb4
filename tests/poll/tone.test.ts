/**
 * The tone check in poll mode (docs/poll.md, docs/security.md#the-tone-check): with guardrails.json
 * naming a judge, poll judges the agent's post with the wake's own judge, loaded by name, over the
 * real openai SDK against the local wire mock; the refused line never reaches the timeline and the
 * agent reads the judge's reason.
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { JUDGED_GUARDRAILS, judgeReply, SARCASM_REASON } from "../support/tone_judge.ts";
import { agentPosts } from "../e2e/wake_support.ts";
import { chatMessages, linesOf, pollAgent, say, world } from "./poll_support.ts";

Deno.test("poll: a post the tone judge refuses is not sent; the kind one is", async () => {
  await using w = await world();
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(
    `${w.home}/config/guardrails.json`,
    JUDGED_GUARDRAILS,
  );
  const bodies = ["Oh, brilliant question.", "Good question! Here is the answer."];
  let step = 0;
  w.model.always("chat", (request) => {
    const judged = judgeReply(request);
    if (judged) return judged;
    const next = bodies[step];
    return next === undefined ? { json: chatCompletion({ content: "Done." }) } : {
      json: chatCompletion({
        toolCalls: [{
          id: `c${step++}`,
          name: "messages",
          arguments: { action: "create", body: next },
        }],
      }),
    };
  });
  const { agent, journal } = await pollAgent(w);
  await using _ = agent;
  await agent.pollOnce();
  await say(w, "why is the sky blue?");
  const posted = await agent.pollOnce();
  assert.deepEqual(posted.map((m) => m.content.body), [bodies[1]]);
  assert.deepEqual(await agentPosts(w), [bodies[1]]);
  assert.ok(
    linesOf(journal, "post blocked").some((line) => line.includes("check=tone")),
    journal.lines.join("\n"),
  );
  const judged = w.model.requestsTo("chat").filter((r) =>
    (r.body as { model: string }).model === "judge"
  );
  assert.equal(judged.length, 2);
  const agentCalls = w.model.requestsTo("chat").map((r, i) => ({ r, i }))
    .filter(({ r }) => (r.body as { model: string }).model === "scripted");
  assert.ok(JSON.stringify(chatMessages(w.model, agentCalls[1].i)).includes(SARCASM_REASON));
});
