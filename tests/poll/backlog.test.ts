/**
 * The first poll (docs/poll.md; `HARNESS_CONTEXT_MESSAGES` in docs/environment.md#harness): the
 * newest N messages are seeded as context — own posts as assistant turns, peers' as
 * `[created_at] handle: body` — none is answered, and the mark is primed to the true newest
 * message whatever N is.
 */
import assert from "node:assert/strict";
import { backlog, pollAgent, say, scriptReply, world } from "./poll_support.ts";

Deno.test("a 60-message backlog seeds the newest 50, answers none, primes the mark", async () => {
  await using w = await world();
  const history = await backlog(w, 60, 7);
  const { agent, journal } = await pollAgent(w, { HARNESS_CONTEXT_MESSAGES: "50" });
  await using _ = agent;
  assert.deepEqual(await agent.pollOnce(), []);
  assert.equal(w.model.hits("chat"), 0, "the backlog is context, never a prompt");
  assert.equal(agent.mark, history.at(-1)!.content.uuid);
  const turns = await agent.transcript();
  assert.equal(turns.length, 50);
  const seeded = history.slice(10);
  turns.forEach((turn, i) => {
    const m = seeded[i];
    if (m.user.uuid === w.agent.uuid) {
      assert.deepEqual([turn.role, turn.content], ["assistant", m.content.body]);
    } else {
      assert.deepEqual([turn.role, turn.content], [
        "user",
        `[${m.created_at}] bob: ${m.content.body}`,
      ]);
    }
  });
  assert.ok(journal.lines.some((l) => l.includes("poll start") && l.includes("seeded=50")));
  // Nothing of the backlog is answered on later polls either.
  assert.deepEqual(await agent.pollOnce(), []);
  assert.equal(w.model.hits("chat"), 0);
});

Deno.test("HARNESS_CONTEXT_MESSAGES=all seeds the whole backlog", async () => {
  await using w = await world();
  const history = await backlog(w, 60);
  const { agent } = await pollAgent(w, { HARNESS_CONTEXT_MESSAGES: "ALL" });
  await using _ = agent;
  await agent.pollOnce();
  const turns = await agent.transcript();
  assert.equal(turns.length, 60);
  assert.equal(turns[0].content, `[${history[0].created_at}] bob: backlog 1`);
  assert.equal(agent.mark, history.at(-1)!.content.uuid);
  assert.equal(w.model.hits("chat"), 0);
});

Deno.test("the default window is 50", async () => {
  await using w = await world();
  await backlog(w, 55);
  const { agent } = await pollAgent(w);
  await using _ = agent;
  await agent.pollOnce();
  assert.equal((await agent.transcript()).length, 50);
});

Deno.test("a window of 0 seeds nothing but still primes the mark: only news is answered", async () => {
  await using w = await world();
  const history = await backlog(w, 3);
  const { agent } = await pollAgent(w, { HARNESS_CONTEXT_MESSAGES: "0" });
  await using _ = agent;
  assert.deepEqual(await agent.pollOnce(), []);
  assert.equal(agent.mark, history.at(-1)!.content.uuid);
  assert.deepEqual(await agent.transcript(), []);
  const news = await say(w, "anyone there?");
  scriptReply(w.model, "Yes.");
  const posted = await agent.pollOnce();
  assert.deepEqual(posted.map((m) => m.content.body), ["Yes."]);
  const turns = await agent.transcript();
  assert.equal(turns[0].content, `[${news.created_at}] bob: anyone there?`);
});

Deno.test("an empty timeline seeds nothing and the first message is answered", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w);
  await using _ = agent;
  assert.deepEqual(await agent.pollOnce(), []);
  assert.equal(agent.mark, undefined);
  await say(w, "hello");
  scriptReply(w.model, "Hi Bob.");
  assert.deepEqual((await agent.pollOnce()).map((m) => m.content.body), ["Hi Bob."]);
});
