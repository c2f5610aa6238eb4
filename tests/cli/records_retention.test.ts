/**
 * `harness cleanup --records`: records.json's retention_days prunes through the real CLI, the
 * pruned chain still passes `harness records verify`, and a wrong records.json refuses.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { appendTurnRecord } from "../../lib/home/records/mod.ts";
import { TL, turnInput } from "../home/records/fixture.ts";

async function setUp(records: unknown) {
  const home = await Deno.makeTempDir({ prefix: "retention-" });
  await Deno.mkdir(`${home}/config`);
  if (records !== undefined) {
    await Deno.writeTextFile(`${home}/config/records.json`, JSON.stringify(records));
  }
  const old = new Date("2020-01-01T12:00:00Z");
  for (let i = 1; i <= 3; i++) await appendTurnRecord(home, turnInput(i), { now: () => old });
  await appendTurnRecord(home, turnInput(4)); // today
  const env = { HARNESS_HOME: home, BASECRADLE_CONFIG_HOME: `${home}/config`, HOME: home };
  return { home, env, [Symbol.asyncDispose]: () => Deno.remove(home, { recursive: true }) };
}

Deno.test("cleanup --records prunes what retention_days no longer keeps; verify stays green", async () => {
  await using w = await setUp({ retention_days: 30 });
  const cleaned = await runCli(["cleanup", "--records"], { env: w.env });
  assert.equal(cleaned.code, 0, cleaned.stderr);
  assert.match(
    cleaned.stderr,
    /Turn records pruned: 3 record\(s\) from 1 chain\(s\) .*retention_days=30/,
  );
  const lines = (await Deno.readTextFile(`${w.home}/records/${TL}.jsonl`)).trim().split("\n");
  assert.deepEqual(lines.map((l) => JSON.parse(l).seq), [4]);
  const verify = await runCli(["records", "verify"], { env: w.env });
  assert.equal(verify.code, 0, verify.stderr);
  assert.match(verify.stdout, /^records ok: 1 record in 1 chain/);
});

Deno.test("cleanup --records without retention_days keeps everything", async () => {
  await using w = await setUp(undefined);
  const cleaned = await runCli(["cleanup", "--records"], { env: w.env });
  assert.equal(cleaned.code, 0, cleaned.stderr);
  const lines = (await Deno.readTextFile(`${w.home}/records/${TL}.jsonl`)).trim().split("\n");
  assert.equal(lines.length, 4);
});

Deno.test("a wrong records.json refuses cleanup --records naming the file, the key and the fix", async () => {
  await using w = await setUp({ retention_days: 0 });
  const cleaned = await runCli(["cleanup", "--records"], { env: w.env });
  assert.equal(cleaned.code, 1);
  assert.match(
    cleaned.stderr,
    /records\.json key 'retention_days' must be an integer from 1 .*Fix:/,
  );
  const lines = (await Deno.readTextFile(`${w.home}/records/${TL}.jsonl`)).trim().split("\n");
  assert.equal(lines.length, 4);
});

Deno.test("a retention_days too large for a date refuses at load, naming the file, key and range", async () => {
  // 200 million days before today is no date: it must never reach the pruner ("Invalid time value").
  await using w = await setUp({ retention_days: 200_000_000 });
  const cleaned = await runCli(["cleanup", "--records"], { env: w.env });
  assert.equal(cleaned.code, 1);
  assert.match(
    cleaned.stderr,
    /records\.json key 'retention_days' must be an integer from 1 to 36500 \(days\).*Fix:/,
  );
  assert.doesNotMatch(cleaned.stderr, /Invalid time value/);
  const lines = (await Deno.readTextFile(`${w.home}/records/${TL}.jsonl`)).trim().split("\n");
  assert.equal(lines.length, 4, "nothing pruned");
});
