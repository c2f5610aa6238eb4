/**
 * Turn records from a real wake: one chained record per engaged turn, which `harness records
 * verify` accepts and `harness records stats` counts (a `messages` create is a post).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { say, scriptReply, upload, wakeFor, world } from "./wake_support.ts";
import { sha256HexAsync } from "../../lib/base/sha256.ts";

Deno.test("a one-reply wake leaves one verified turn record with one post", async () => {
  await using w = await world({ routed: true });
  scriptReply(w.model, "Hello, Bob.");
  const ask = await say(w, "@ada hello");
  await w.settle();
  const result = wakeFor(w, ask.content.uuid);
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /Could not append the turn record/);
  // One attribution line, immediately before the model runs, whose total adds up.
  const lines = result.stderr.split("\n");
  const at = lines.findIndex((l) => l.startsWith("INFO context attribution "));
  assert.ok(at >= 0, result.stderr);
  assert.equal(lines.filter((l) => l.startsWith("INFO context attribution ")).length, 1);
  assert.ok(lines.findIndex((l) => l.startsWith("INFO llm ")) > at, result.stderr);
  const field = (name: string) => Number(new RegExp(` ${name}=(\\d+)`).exec(lines[at])?.[1]);
  assert.match(lines[at], new RegExp(`unit=chars source=timeline:${w.timeline} `));
  assert.ok(field("tools_count") > 0 && field("brief_now") > 0 && field("history_user") > 0);
  assert.equal(
    field("total"),
    field("tools") + field("brief") + field("history") + field("images"),
  );

  const verify = await runCli(["records", "verify"], { env: w.env });
  assert.equal(verify.code, 0, verify.stderr);
  assert.match(verify.stdout, /^records ok: 1 record in 1 /);

  const stats = await runCli(["records", "stats", "--json"], { env: w.env });
  assert.equal(stats.code, 0, stats.stderr);
  const [row] = JSON.parse(stats.stdout).timelines;
  assert.equal(row.timeline, w.timeline);
  assert.equal(row.turns, 1);
  assert.equal(row.posts, 1);

  const [line] = (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim()
    .split("\n");
  const record = JSON.parse(line);
  assert.deepEqual(record.trigger_items, [{ uuid: ask.content.uuid, kind: "message" }]);
  assert.equal(record.outcome, "ok");
  assert.equal(record.outcome_kind, "narration");
  const [call] = record.tool_calls;
  assert.deepEqual(
    { name: call.name, outcome: call.outcome, action: call.action },
    { name: "messages", outcome: "ok", action: "create" },
  );
  assert.equal(record.tool_calls.length, 1);
  assert.deepEqual(JSON.parse(call.arguments), { action: "create", body: "Hello, Bob." });
  assert.match(call.call_id, /\S/);
  const posted = /uuid is ([0-9a-f-]{36})/.exec(call.result)?.[1];
  assert.ok(posted, call.result);
  // The complete-record fields (docs/records.md#fields).
  assert.equal(record.content, "full");
  assert.deepEqual(record.inbound.items, [ask.content.uuid]);
  assert.match(record.inbound.text, /@ada hello/);
  assert.deepEqual(record.outbound, [{ uuid: posted, kind: "tool", text: "Hello, Bob." }]);
  assert.deepEqual(record.gate_verdicts, [{ kind: "tool", verdict: "passed", checks: [] }]);
  assert.equal(record.regenerated, false);
  assert.equal(record.result, "spoke");
  assert.equal(record.escalation_reason, undefined);
  assert.match(record.tool_manifest_hash, /^[0-9a-f]{64}$/);
  assert.match(record.config_hash, /^[0-9a-f]{64}$/);
  assert.equal(record.model, w.env.AI_MODEL);
  for (const stage of ["engine", "brief", "model", "compact", "escalate", "total"]) {
    assert.equal(typeof record.latency_ms[stage], "number", stage);
  }
  assert.deepEqual(Object.keys(record.usage).sort(), [
    "cached_tokens",
    "calls",
    "cost_usd",
    "tokens_in",
    "tokens_out",
  ]);
  assert.equal(record.steps, 2);
  assert.match(record.prompt_hash, /^[0-9a-f]{64}$/);
  // The wake id its claims carry (32 hex digits, the reference's claim format).
  assert.match(record.wake_id, /^[0-9a-f]{32}$/);
  assert.equal(typeof record.latency_ms.total, "number");
});

Deno.test("records of several turns in one wake chain in turn order; a failed append warns before wake end", async () => {
  await using w = await world({ third: true }); // not a 1-on-1: silence is not nudged
  // A first message turn sets the mark; then a message and an asset make two turns in one wake.
  await say(w, "first");
  scriptReply(w.model, "Hi.");
  assert.equal((await w.wake()).code, 0);
  const ask = await say(w, "second");
  const file = await upload(w, "notes.txt");
  scriptReply(w.model, "Got it.");
  w.model.reply("chat", { json: chatCompletion({ content: "Noted the file." }) });
  const result = await w.wake(["--asset", file.content.uuid]); // the asset's first wake: its trigger
  assert.equal(result.code, 0, result.stderr);
  const records = (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim()
    .split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(records.map((r) => r.seq), [1, 2, 3]);
  assert.deepEqual(records.slice(1).map((r) => r.trigger_items[0].uuid), [
    ask.content.uuid,
    file.content.uuid,
  ]);
  assert.equal((await runCli(["records", "verify"], { env: w.env })).code, 0);

  // The records directory becomes a file: the append fails, the turn does not, and the WARNING
  // comes before the wake's last line.
  await Deno.remove(`${w.home}/records`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/records`, "not a directory");
  await say(w, "third");
  scriptReply(w.model, "Still here.");
  const failed = await w.wake();
  assert.equal(failed.code, 0, failed.stderr);
  const lines = failed.stderr.trim().split("\n");
  const warned = lines.findIndex((l) => l.includes("Could not append the turn record"));
  assert.ok(warned >= 0, failed.stderr);
  assert.ok(warned < lines.findIndex((l) => l.includes("wake end ")), failed.stderr);
  assert.match(lines.at(-1)!, /wake end .*outcome=ok turns=1 .*posted=1/);
});

Deno.test("records.json content=hashes: the record holds no inbound, outbound or tool text, only their sha256", async () => {
  await using w = await world();
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/config/records.json`, JSON.stringify({ content: "hashes" }));
  await say(w, "@ada the zebra password is marmalade");
  scriptReply(w.model, "Understood, the quokka rests.");
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  const text = await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`);
  for (const secret of ["zebra", "marmalade", "quokka", "Posted to timeline"]) {
    assert.doesNotMatch(text, new RegExp(secret), secret);
  }
  const record = JSON.parse(text.trim());
  assert.equal(record.content, "hashes");
  assert.equal(record.inbound.text, undefined);
  assert.match(record.inbound.text_sha256, /^[0-9a-f]{64}$/);
  assert.equal(record.outbound.length, 1);
  assert.equal(
    record.outbound[0].text_sha256,
    await sha256HexAsync("Understood, the quokka rests."),
  );
  assert.match(record.tool_calls[0].arguments, /^[0-9a-f]{64}$/);
  assert.match(record.tool_calls[0].result, /^[0-9a-f]{64}$/);
  assert.equal((await runCli(["records", "verify"], { env: w.env })).code, 0);
});

Deno.test("a malformed records.json refuses the wake naming the file, the key and the fix", async () => {
  await using w = await world();
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/config/records.json`, JSON.stringify({ content: "some" }));
  await say(w, "@ada hello");
  const result = await w.wake();
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /records\.json key 'content' must be "full" or "hashes".*Fix:/);
  assert.equal(w.model.requests.length, 0);
});
