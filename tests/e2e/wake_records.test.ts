/**
 * Turn records from a real wake: one chained record per engaged turn, which `harness records
 * verify` accepts and `harness records stats` counts (a `messages` create is a post).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { say, scriptReply, upload, world } from "./wake_support.ts";

Deno.test("a one-reply wake leaves one verified turn record with one post", async () => {
  await using w = await world();
  const ask = await say(w, "@ada hello");
  scriptReply(w.model, "Hello, Bob.");
  const result = await w.wake();
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
  assert.deepEqual(record.tool_calls, [{ name: "messages", outcome: "ok", action: "create" }]);
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
