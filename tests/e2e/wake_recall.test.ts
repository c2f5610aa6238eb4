/**
 * Automatic memory in real wakes (docs/memory.md#automatic-recall-the-recall-provider): what a
 * peer told the agent on one timeline — in a message it had no reason to answer — is recalled
 * into turn 0 on another timeline a month later, inside the volatile part of the request; and a
 * store that cannot be used costs a WARNING, never the wake.
 */
import { pathExists } from "../../lib/base/read_files.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { RECALLED_HEADING } from "../../lib/memory/recall_provider.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { agentPosts, say, scriptReply, type World, world } from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

const RECALL = { HARNESS_MEMORY_PROVIDER: "recall" };
const FACT = "by the way, my birthday is Feb. 16, 1977. No need to answer.";

interface ChatBody {
  messages: { role: string; content: unknown }[];
}

/** A second timeline the peer shares with the agent. */
async function secondTimeline(w: World): Promise<string> {
  const { timeline } = await w.peer.client.timelines.create({ name: "another room" });
  await w.peer.client.timelines.addParticipant(timeline.uuid, w.agent.uuid);
  return timeline.uuid;
}

Deno.test("recall: a fact told silently on timeline A is in turn 0 on timeline B a month later, in the volatile tail", async () => {
  await using w = await world();
  await say(w, FACT);
  // The agent stays silent on A (through the one-on-one nudge too): the fact reaches memory
  // through the unspoken turn alone.
  w.model.reply(
    "chat",
    { json: chatCompletion({ content: "Bob shared his birthday." }) },
    { json: chatCompletion({ content: "Nothing to answer; he said so." }) },
  );
  const a = await w.wake([], RECALL);
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual(await agentPosts(w), []);

  // A month passes: the observed exchange is dated back 30 days.
  const db = new DatabaseSync(join(w.home, "recall.db"));
  db.exec(`UPDATE recall_exchanges SET at = at - ${30 * 86_400_000}`);
  db.close();

  const b = await secondTimeline(w);
  await w.peer.client.messages.create(
    b,
    asUser("message", { body: "quick one: when is my birthday again?" }),
  );
  scriptReply(w.model, "February 16th!");
  const before = w.model.requestsTo("chat").length;
  const woke = await runCli(["wake", "--timeline", b], { env: { ...w.env, ...RECALL } });
  assert.equal(woke.code, 0, woke.stderr);
  assert.match(woke.stderr, /wake end .*outcome=ok/);

  const first = w.model.requestsTo("chat")[before].body as ChatBody;
  const texts = first.messages.map((m) => typeof m.content === "string" ? m.content : "");
  const lastUser = first.messages.findLastIndex((m) => m.role === "user");
  const tail = first.messages[lastUser - 1];
  assert.equal(tail.role, "system", "the volatile note sits just before the newest user turn");
  const note = String(tail.content);
  const recalled = note.slice(note.indexOf(RECALLED_HEADING));
  assert.ok(note.includes(RECALLED_HEADING), note);
  assert.ok(recalled.includes(`bob: ${FACT}`), recalled);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  assert.ok(recalled.includes(`[${monthAgo}, timeline ${w.timeline.slice(0, 8)}]`), recalled);
  // Nowhere else: not in the charter, not in the transcript.
  const elsewhere = texts.filter((t, i) => i !== lastUser - 1 && t.includes(RECALLED_HEADING));
  assert.deepEqual(elsewhere, []);
  assert.ok(!texts[0].includes("Feb. 16"), "the charter (cached prefix) holds no memory");
});

Deno.test("recall: an unusable recall.db is a WARNING; the wake answers all the same", async () => {
  await using w = await world();
  await Deno.writeTextFile(join(w.home, "recall.db"), "not a database ".repeat(300));
  await say(w, "@ada are you there?");
  scriptReply(w.model, "I am here.");
  const result = await w.wake([], RECALL);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /wake end .*outcome=ok/);
  assert.match(
    result.stderr,
    /WARNING Memory provider context\(\) failed; omitting recalled memory\./,
  );
  assert.match(result.stderr, /WARNING Memory provider observe\(\) failed; continuing\./);
  assert.deepEqual(await agentPosts(w), ["I am here."]);
});

Deno.test("recall: an idle wake bound to recall never opens its store", async () => {
  await using w = await world();
  const result = await w.wake([], RECALL);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(w.model.hits(), 0);
  assert.ok(
    !(await pathExists(join(w.home, "recall.db"))),
    "recall.db was created by an idle wake",
  );
});

Deno.test("mempalace: a wake says once that the automatic provider serves it, and works", async () => {
  await using w = await world();
  await say(w, "@ada hello there");
  scriptReply(w.model, "Hello!");
  const result = await w.wake([], { HARNESS_MEMORY_PROVIDER: "mempalace" });
  assert.equal(result.code, 0, result.stderr);
  const binds = result.stderr.split("\n").filter((line) => line.includes("op=bind"));
  assert.equal(binds.length, 1, result.stderr);
  assert.match(binds[0], /^INFO memory op=bind provider=mempalace backend=recall note="the Python/);
  assert.deepEqual(await agentPosts(w), ["Hello!"]);
  // No palace under the home: nothing imported, nothing said about it.
  assert.doesNotMatch(result.stderr, /op=import/);
});
