/**
 * The knowledge pack through real wakes (docs/context.md#the-knowledge-pack): rendered right after
 * the charter in the first request, read afresh by every engaged wake (an edit needs no restart),
 * hashed into every turn record, shown by `resolved-config` and `verify`; a pack over its cap
 * stops the turn before the model is called, and every door names the same file and cap — while
 * an idle wake never reads it.
 */
import assert from "node:assert/strict";
import {
  EMPTY_KNOWLEDGE_SHA256,
  KNOWLEDGE_FILE_CAP,
  loadKnowledgePack,
} from "../../lib/config/knowledge.ts";
import { runCli } from "../support/run_cli.ts";
import { agentPosts, commonPrefix, modelTap, say, scriptReply, world } from "./wake_support.ts";

type Tap = ReturnType<typeof modelTap>;

/** The records of the world's timeline, oldest first. */
async function records(home: string, timeline: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${home}/records/${timeline}.jsonl`);
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

/** The first chat request body sent since `before`, verbatim. */
function firstChat(tap: Tap, before: number): string {
  const chat = tap.requests.slice(before).find((r) => r.path.endsWith("/chat/completions"));
  assert.ok(chat, "no chat request was made");
  return chat.text;
}

Deno.test("knowledge pack: an edit between two wakes changes knowledge_sha256 and no byte before the pack", async () => {
  await using w = await world();
  await using tap = modelTap(w);
  const env = { AI_BASE_URL: tap.baseURL };
  const config = w.env.BASECRADLE_CONFIG_HOME;
  await Deno.mkdir(`${config}/knowledge`, { recursive: true });
  await Deno.writeTextFile(`${config}/knowledge/hours.md`, "# Hours\r\nOpen 9 to 5.\r\n");
  await Deno.writeTextFile(`${config}/knowledge/refunds.md`, "Refunds take 14 days.\n");

  const wakeOnce = async (ask: string) => {
    await say(w, ask);
    scriptReply(w.model, "Noted.");
    const before = tap.requests.length;
    const result = await w.wake([], env);
    assert.equal(result.code, 0, result.stderr);
    return firstChat(tap, before);
  };
  const first = await wakeOnce("What are your hours?");
  const pack1 = await loadKnowledgePack(config);
  // Edited in place; the next wake is a new process that reads it again (no install, no restart).
  await Deno.writeTextFile(`${config}/knowledge/refunds.md`, "Refunds take 30 days.\n");
  const second = await wakeOnce("And refunds?");
  const pack2 = await loadKnowledgePack(config);

  const [r1, r2] = await records(w.home, w.timeline);
  assert.equal(r1.knowledge_sha256, pack1.sha256);
  assert.equal(r2.knowledge_sha256, pack2.sha256);
  assert.notEqual(r1.knowledge_sha256, r2.knowledge_sha256);
  assert.equal(r1.prompt_hash, r2.prompt_hash, "the charter's own hash is untouched by the pack");

  // The pack is the end of the leading system message, right after the charter.
  const lead = (body: string) => JSON.parse(body).messages[0];
  assert.equal(lead(first).role, "system");
  assert.ok(lead(first).content.endsWith(`\n\n${pack1.text}`));
  assert.ok(lead(second).content.endsWith(`\n\n${pack2.text}`));
  assert.ok(lead(first).content.includes("=== knowledge/hours.md ===\n# Hours\nOpen 9 to 5."));
  // Every byte before the pack is the same in both requests; they part inside the pack.
  const at1 = first.indexOf("Knowledge pack:");
  const at2 = second.indexOf("Knowledge pack:");
  assert.ok(at1 > 0 && at1 === at2);
  assert.equal(first.slice(0, at1), second.slice(0, at2));
  const parted = commonPrefix(first, second);
  assert.ok(parted > at1, "the requests part before the pack");
  assert.equal(first.slice(parted - 13, parted), "Refunds take ");
});

Deno.test("knowledge pack: without one, the record carries the sha256 of no bytes and the request no pack", async () => {
  await using w = await world();
  await using tap = modelTap(w);
  await say(w, "hello");
  scriptReply(w.model, "Hi.");
  const before = tap.requests.length;
  const result = await w.wake([], { AI_BASE_URL: tap.baseURL });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(!firstChat(tap, before).includes("Knowledge pack:"));
  const [record] = await records(w.home, w.timeline);
  assert.equal(record.knowledge_sha256, EMPTY_KNOWLEDGE_SHA256);
});

Deno.test("knowledge pack: resolved-config and verify show it; over its cap every door names the file and the cap, an idle wake never reads it, and the item waits for the fix", async () => {
  await using w = await world();
  const config = w.env.BASECRADLE_CONFIG_HOME;
  const installed = await runCli(["install"], { env: w.env });
  assert.equal(installed.code, 0, installed.stderr);
  await Deno.mkdir(`${config}/knowledge`, { recursive: true });
  await Deno.writeTextFile(`${config}/knowledge/faq.md`, "Q: Who? A: Ada.\n");
  const pack = await loadKnowledgePack(config);

  const resolved = await runCli(["resolved-config"], { env: w.env });
  assert.equal(resolved.code, 0, resolved.stderr);
  assert.deepEqual(JSON.parse(resolved.stdout).knowledge, {
    bytes: 16,
    files: [{ bytes: 16, name: "faq.md" }],
    sha256: pack.sha256,
  });
  const verified = await runCli(["verify", "--json", "--no-evidence"], { env: w.env });
  assert.equal(verified.code, 0, verified.stderr);
  assert.equal(JSON.parse(verified.stdout).knowledge_sha256, pack.sha256);
  const plain = await runCli(["verify", "--no-evidence"], { env: w.env });
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, new RegExp(`\\nknowledge_sha256 ${pack.sha256}\\n$`));

  // Over the cap.
  const big = `${config}/knowledge/big.md`;
  await Deno.writeTextFile(big, "b".repeat(KNOWLEDGE_FILE_CAP + 1));
  const sentence = `Knowledge file ${big} is 32,769 bytes, over the 32,768-byte cap for one ` +
    "knowledge file; split it into smaller files or shorten it (a knowledge file is never cut).";
  // An idle wake has nothing to answer and never reads the pack.
  const idle = await w.wake();
  assert.equal(idle.code, 0, idle.stderr);
  const [doctor, verify, resolvedBad] = await Promise.all([
    runCli(["doctor", "--json", "--timeout", "60"], { env: w.env }),
    runCli(["verify", "--json", "--no-evidence"], { env: w.env }),
    runCli(["resolved-config"], { env: w.env }),
  ]);
  assert.equal(resolvedBad.code, 1);
  assert.equal(resolvedBad.stdout, "");
  assert.equal(resolvedBad.stderr, `harness resolved-config: ${sentence}\n`);
  assert.equal(verify.code, 1);
  const [finding] = JSON.parse(verify.stdout).findings;
  assert.deepEqual(
    { check: finding.check, subject: finding.subject, detail: finding.detail },
    { check: "wake-would-refuse", subject: "knowledge/big.md", detail: sentence },
  );
  const row = JSON.parse(doctor.stdout).checks.find((r: { name: string }) =>
    r.name === "wake-config"
  );
  assert.equal(row.status, "FAIL", doctor.stdout);
  assert.ok(row.detail.includes(sentence), row.detail);

  // An engaged wake refuses with the same sentence before the model is called; nothing is posted.
  const ask = await say(w, "@ada what is in the FAQ?");
  const engaged = await w.wake();
  assert.equal(engaged.code, 1, engaged.stderr);
  assert.ok(engaged.stderr.includes(`ERROR harness wake: ${sentence}\n`), engaged.stderr);
  assert.equal(w.model.hits("chat"), 0, "the model was called");
  assert.deepEqual(await agentPosts(w), []);

  // Fixed: the next wake answers the item that waited.
  await Deno.remove(big);
  scriptReply(w.model, "Ada is me.");
  const fixed = await w.wake();
  assert.equal(fixed.code, 0, fixed.stderr);
  assert.deepEqual(await agentPosts(w), ["Ada is me."]);
  assert.ok(ask.content.uuid);
});
