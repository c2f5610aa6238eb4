/**
 * The writer: hashes and chain fields, one canonical line per record, the head file, refusal of
 * a bad input before anything is written, and the corrupt-tail recovery (torn append, garbage
 * line, edited last record).
 */
import assert from "node:assert/strict";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import {
  appendTurnRecord,
  canonicalHash,
  canonicalJson,
  chainPath,
  GENESIS_HASH,
  headPath,
  recordHash,
  sha256Hex,
  StageTimer,
  TurnRecordSchema,
  verifyRecords,
} from "../../../lib/home/records/mod.ts";
import { chainLines, putLines, TL, turnInput, withHome, writeChain } from "./fixture.ts";

Deno.test("writer: the first record chains onto the genesis, the next onto it", async () => {
  await withHome(async (home) => {
    const [first, second] = await writeChain(home, 2);
    assert.equal(first.seq, 1);
    assert.equal(first.prev_hash, GENESIS_HASH);
    assert.equal(second.seq, 2);
    assert.equal(second.prev_hash, first.record_hash);
    assert.equal(first.record_hash, recordHash(first));
    assert.notEqual(first.record_hash, second.record_hash);
  });
});

Deno.test("writer: each line is the record's canonical encoding, and parses back", async () => {
  await withHome(async (home) => {
    const records = await writeChain(home, 3);
    const lines = await chainLines(home);
    assert.deepEqual(lines, records.map((r) => canonicalJson(r)));
    for (const line of lines) TurnRecordSchema.parse(JSON.parse(line));
  });
});

Deno.test("writer: prompt and config are hashed, never stored; fields in stored spelling", async () => {
  await withHome(async (home) => {
    const at = new Date("2026-01-02T03:04:05.000Z");
    const record = await appendTurnRecord(
      home,
      turnInput(1, {
        config: { b: 2, a: [1] },
        error: "boom sk-abcdefghijklmnop",
        outcome: "error",
      }),
      { now: () => at },
    );
    assert.equal(record.prompt_hash, sha256Hex("You are a careful agent."));
    assert.equal(record.config_hash, canonicalHash({ a: [1], b: 2 }));
    assert.equal(record.at, "2026-01-02T03:04:05.000Z");
    assert.equal(record.source, `timeline:${TL}`);
    assert.deepEqual(record.usage, {
      calls: 2,
      tokens_in: 1000,
      tokens_out: 50,
      cached_tokens: 400,
      cost_usd: 0.001,
    });
    assert.deepEqual(record.trigger_items, [{ uuid: "item-1", kind: "message" }]);
    assert.equal(record.error, "boom [redacted]");
    const text = await readFile(chainPath(home, TL), "utf8");
    assert.ok(!text.includes("careful agent"));
    const noPrompt = await appendTurnRecord(home, turnInput(2, { prompt: undefined }));
    assert.equal(noPrompt.prompt_hash, null);
  });
});

Deno.test("writer: the head names the newest record", async () => {
  await withHome(async (home) => {
    const records = await writeChain(home, 3);
    const head = JSON.parse(await readFile(headPath(home, TL), "utf8"));
    assert.deepEqual(head, { seq: 3, record_hash: records[2].record_hash });
  });
});

Deno.test("writer: an input that makes no valid record is refused and nothing is written", async () => {
  await withHome(async (home) => {
    await writeChain(home, 1);
    const before = await readFile(chainPath(home, TL), "utf8");
    const bad = turnInput(2, { usage: { tokensIn: -1, tokensOut: 0, cachedTokens: 0 } });
    await assert.rejects(() => appendTurnRecord(home, bad));
    await assert.rejects(() => appendTurnRecord(home, turnInput(3, { config: { x: NaN } })));
    assert.equal(await readFile(chainPath(home, TL), "utf8"), before);
  });
});

Deno.test("writer: a torn tail is terminated, stepped over and fingerprinted", async () => {
  await withHome(async (home) => {
    const [first] = await writeChain(home, 1);
    const fragment = '{"version":1,"seq":2,"rec';
    await appendFile(chainPath(home, TL), fragment);
    const next = await appendTurnRecord(home, turnInput(3));
    assert.equal(next.seq, 2);
    assert.equal(next.prev_hash, first.record_hash);
    assert.deepEqual(next.recovered_from, {
      after_seq: 1,
      lines: 1,
      bytes: fragment.length,
      sha256: sha256Hex(fragment),
    });
    const lines = await chainLines(home);
    assert.deepEqual(lines.length, 3);
    assert.equal(lines[1], fragment); // kept on its own line, as evidence
    // The lost record stays visible: verify names the fragment's line.
    const report = await verifyRecords(home);
    assert.equal(report.bad[0].line, 2);
    assert.match(report.bad[0].detail, /resumed the chain past it at line 3/);
  });
});

Deno.test("writer: never chains onto an edited last record or a garbage line", async () => {
  await withHome(async (home) => {
    const records = await writeChain(home, 2);
    const lines = await chainLines(home);
    const edited = lines[1].replace('"steps":2', '"steps":9');
    await putLines(home, [lines[0], edited, "garbage"]);
    const next = await appendTurnRecord(home, turnInput(3));
    assert.equal(next.prev_hash, records[0].record_hash);
    assert.equal(next.seq, 2);
    assert.equal(next.recovered_from?.lines, 2);
    assert.equal(next.recovered_from?.bytes, edited.length + 1 + "garbage".length + 1);
  });
});

Deno.test("writer: a file of nothing but garbage restarts from the genesis", async () => {
  await withHome(async (home) => {
    await writeChain(home, 1);
    await writeFile(chainPath(home, TL), "junk\n");
    const next = await appendTurnRecord(home, turnInput(2));
    assert.equal(next.prev_hash, GENESIS_HASH);
    assert.deepEqual(next.recovered_from?.after_seq, 0);
  });
});

Deno.test("writer: finds its predecessor behind a tail longer than one read chunk", async () => {
  await withHome(async (home) => {
    const [first] = await writeChain(home, 1);
    await appendFile(chainPath(home, TL), `${"x".repeat(70_000)}\n${"y".repeat(70_000)}`);
    const next = await appendTurnRecord(home, turnInput(2));
    assert.equal(next.prev_hash, first.record_hash);
    assert.equal(next.recovered_from?.lines, 2);
    assert.equal(next.recovered_from?.bytes, 140_001);
  });
});

Deno.test("writer: StageTimer charges laps to stages and adds the total", () => {
  let t = 1000;
  const timer = new StageTimer(() => t);
  t += 5;
  timer.lap("claim");
  t += 100;
  timer.lap("model");
  t += 20;
  timer.lap("tools");
  t += 50;
  timer.lap("model");
  assert.deepEqual(timer.latency(), { claim: 5, model: 150, tools: 20, total: 175 });
});
