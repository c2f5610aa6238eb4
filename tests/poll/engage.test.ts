/**
 * After the seed, each new message from someone else is one turn (docs/poll.md): `pollOnce`
 * returns exactly what the agent posted through its `messages` tool — nothing for silence, never
 * the narration — and the agent's own messages are never engaged.
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { chatMessages, linesOf, pollAgent, say, scriptReply, world } from "./poll_support.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("a new peer message: pollOnce returns exactly the agent's reply", async () => {
  await using w = await world();
  await say(w, "before");
  const { agent, journal } = await pollAgent(w);
  await using _ = agent;
  await agent.pollOnce();
  const question = await say(w, "what is 2+2?");
  scriptReply(w.model, "4", "I told Bob.");
  const posted = await agent.pollOnce();
  assert.equal(posted.length, 1);
  assert.equal(posted[0].content.body, "4");
  assert.equal(posted[0].user.uuid, w.agent.uuid);
  // It is the platform's own record of the post, on the watched timeline.
  const onTimeline = await w.peer.client.messages.get(posted[0].content.uuid);
  assert.equal(onTimeline.content.body, "4");
  // The model heard the message rendered as the wake renders it, after the seeded context.
  const sent = chatMessages(w.model, 0).filter((m) => m.role === "user").map((m) => m.content);
  assert.deepEqual(sent, [
    `[${
      (await w.peer.client.messages.list({ timeline: w.timeline }).toArray()).at(-1)!
        .created_at
    }] bob: before`,
    `[${question.created_at}] bob: what is 2+2?`,
  ]);
  // The narration is unspoken: logged, never posted.
  assert.ok(linesOf(journal, "unspoken").some((l) => l.includes('text="I told Bob."')));
  const bodies = (await w.peer.client.messages.list({ timeline: w.timeline }).toArray())
    .map((m) => m.content.body);
  assert.ok(!bodies.includes("I told Bob."));
  // The agent's own post is news on the next poll, and is not engaged.
  assert.deepEqual(await agent.pollOnce(), []);
  assert.equal(w.model.hits("chat"), 2);
  assert.equal(agent.mark, posted[0].content.uuid);
});

Deno.test("own messages posted elsewhere are taken in but never engaged", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w);
  await using _ = agent;
  await agent.pollOnce();
  const own = await w.agent.client.messages.create(
    w.timeline,
    asUser("message", { body: "from my phone" }),
  );
  assert.deepEqual(await agent.pollOnce(), []);
  assert.equal(w.model.hits("chat"), 0);
  assert.equal(agent.mark, own.content.uuid);
});

Deno.test("silence: a model that narrates without posting yields []", async () => {
  await using w = await world();
  const { agent, journal } = await pollAgent(w);
  await using _ = agent;
  await agent.pollOnce();
  await say(w, "just thinking out loud");
  w.model.reply("chat", { json: chatCompletion({ content: "Nothing to add." }) });
  assert.deepEqual(await agent.pollOnce(), []);
  assert.equal(w.model.hits("chat"), 1);
  const mine = (await w.peer.client.messages.list({ timeline: w.timeline }).toArray())
    .filter((m) => m.user.uuid === w.agent.uuid);
  assert.deepEqual(mine, [], "the poll loop never posts on the agent's behalf");
  assert.ok(linesOf(journal, "unspoken").some((l) => l.includes('text="Nothing to add."')));
});

Deno.test("several new messages are engaged one turn each, in order", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w);
  await using _ = agent;
  await agent.pollOnce();
  await say(w, "one");
  await say(w, "two");
  scriptReply(w.model, "re: one");
  w.model.reply("chat", { json: chatCompletion({ content: "skip" }) });
  const posted = await agent.pollOnce();
  assert.deepEqual(posted.map((m) => m.content.body), ["re: one"]);
  const lastUser = (i: number) =>
    chatMessages(w.model, i).filter((m) => m.role === "user").at(-1)!.content ?? "";
  assert.match(lastUser(0), /\] bob: one$/);
  assert.match(lastUser(2), /\] bob: two$/);
  // The second turn sees the first one's exchange: one session, held in memory.
  assert.ok(chatMessages(w.model, 2).some((m) => m.role === "tool"));
});

Deno.test("a turn that fails is thrown, not retried; the next poll carries on", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w, { HARNESS_RESPONSE_RETRIES: "0" });
  await using _ = agent;
  await agent.pollOnce();
  await say(w, "first");
  w.model.reply("chat", { status: 400, json: { error: { message: "bad request" } } });
  await assert.rejects(agent.pollOnce());
  await say(w, "second");
  scriptReply(w.model, "got the second");
  assert.deepEqual((await agent.pollOnce()).map((m) => m.content.body), ["got the second"]);
  assert.equal(w.model.hits("chat"), 3, "the failed message was not engaged again");
});
