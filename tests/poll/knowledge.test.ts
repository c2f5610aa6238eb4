/**
 * Poll mode renders the knowledge pack (docs/context.md#the-knowledge-pack) as a wake does: the
 * same bytes after the charter in the leading system message, and `knowledge_sha256` on its
 * `poll start` and `poll turn` lines equal to what the wake's turn record carries. A pack over its
 * cap refuses `fromEnv`, naming the file.
 */
import assert from "node:assert/strict";
import {
  EMPTY_KNOWLEDGE_SHA256,
  KNOWLEDGE_FILE_CAP,
  loadKnowledgePack,
} from "../../lib/config/knowledge.ts";
import { chatMessages, linesOf, pollAgent, say, scriptReply, world } from "./poll_support.ts";

const FAQ = "# FAQ\r\nThe harbour opens at six.\r\n<!-- not sent -->\n";

Deno.test("poll: the knowledge pack follows the charter with the wake's bytes, and its hash is on the lines", async () => {
  await using w = await world({ third: true });
  const config = `${w.home}/config`;
  await Deno.mkdir(`${config}/knowledge`, { recursive: true });
  await Deno.writeTextFile(`${config}/knowledge/faq.md`, FAQ);
  const pack = await loadKnowledgePack(config);
  assert.notEqual(pack.sha256, EMPTY_KNOWLEDGE_SHA256);

  // A wake on the same config home: its record's hash and its leading system text's tail.
  await say(w, "@ada when does the harbour open?");
  scriptReply(w.model, "At six.");
  const woke = await w.wake();
  assert.equal(woke.code, 0, woke.stderr);
  const record = JSON.parse(
    (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim().split("\n").at(-1)!,
  );
  assert.equal(record.knowledge_sha256, pack.sha256);
  const wakeLead = chatMessages(w.model, 0)[0];
  assert.equal(wakeLead.role, "system");
  assert.ok(wakeLead.content!.endsWith(`\n\n${pack.text}`), wakeLead.content!);
  const calls = w.model.hits("chat");

  const { agent, journal } = await pollAgent(w);
  await using _ = agent;
  await agent.pollOnce();
  await say(w, "and when does it close?");
  scriptReply(w.model, "At ten.");
  assert.equal((await agent.pollOnce()).length, 1);
  const pollLead = chatMessages(w.model, calls)[0];
  assert.equal(pollLead.role, "system");
  assert.ok(pollLead.content!.endsWith(`\n\n${pack.text}`), pollLead.content!);
  // Exactly one pack, and nothing of it before the charter's end.
  assert.equal(pollLead.content!.split(pack.text).length, 2);
  for (const head of ["poll start", "poll turn"]) {
    const [line] = linesOf(journal, head);
    assert.ok(line?.includes(`knowledge_sha256=${pack.sha256}`), `${head}: ${line}`);
  }
});

Deno.test("poll: without a knowledge folder the lines carry the empty pack's hash; an oversized file refuses", async () => {
  await using w = await world({ third: true });
  {
    const { agent, journal } = await pollAgent(w);
    await using _ = agent;
    await agent.pollOnce();
    const [line] = linesOf(journal, "poll start");
    assert.ok(line.includes(`knowledge_sha256=${EMPTY_KNOWLEDGE_SHA256}`), line);
  }
  await Deno.mkdir(`${w.home}/config/knowledge`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/config/knowledge/big.md`, "x".repeat(KNOWLEDGE_FILE_CAP + 1));
  await assert.rejects(pollAgent(w), /big\.md/);
});
