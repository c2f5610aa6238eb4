/**
 * `harness records stats --since`: the drift table and JSON through the real CLI, prices.json
 * pricing a turn without a provider cost, the chart drawn only for a terminal, and usage errors.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { appendTurnRecord } from "../../lib/home/records/mod.ts";
import { turnInput } from "../home/records/fixture.ts";
import { driftChart } from "../../lib/cli/records.ts";

async function setUp() {
  const home = await Deno.makeTempDir({ prefix: "drift-cli-" });
  await Deno.mkdir(`${home}/config`);
  await Deno.writeTextFile(
    `${home}/config/prices.json`,
    JSON.stringify({ "gpt-test": { input: 10, output: 100 } }),
  );
  const usage = { calls: 1, tokensIn: 1000, tokensOut: 100, cachedTokens: 250 };
  await appendTurnRecord(home, turnInput(1, { usage: { ...usage, cost: 0.5 } }));
  await appendTurnRecord(home, turnInput(2, { usage })); // priced: (1000·10 + 100·100)/1e6
  const env = { HARNESS_HOME: home, BASECRADLE_CONFIG_HOME: `${home}/config`, HOME: home };
  return { home, env, [Symbol.asyncDispose]: () => Deno.remove(home, { recursive: true }) };
}

Deno.test("records stats --since 7d --json: the drift numbers, priced from prices.json", async () => {
  await using w = await setUp();
  const r = await runCli(["records", "stats", "--since", "7d", "--by", "week", "--json"], {
    env: w.env,
  });
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.by, "week");
  assert.equal(report.total.turns, 2);
  assert.equal(report.total.cache_hit_ratio, 0.25);
  assert.equal(report.total.cost_usd, 0.52);
  assert.equal(report.total.priced_turns, 1);
  assert.equal(report.total.guardrail_failure_rate, 0);
});

Deno.test("records stats --since --chart on a pipe prints the plain table only", async () => {
  await using w = await setUp();
  const r = await runCli(["records", "stats", "--since", "1d", "--chart", "cost"], { env: w.env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^day\s+turns\s+wakes\s+guard_fail\s+escalated\s+p95_ms\s+cache_hit/);
  assert.match(r.stdout, /\ntotal\s+2\s+2\s+0\.0%\s+0\.0%/);
  assert.doesNotMatch(r.stdout, /[▁▂▃▄▅▆▇█]/);
});

Deno.test("records stats: bad --since, --by or --chart is a usage error (exit 2)", async () => {
  await using w = await setUp();
  for (
    const args of [
      ["--since", "7"],
      ["--since", "7d", "--by", "month"],
      ["--since", "7d", "--chart", "pie"],
      ["--by", "day"],
    ]
  ) {
    const r = await runCli(["records", "stats", ...args], { env: w.env });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
  }
  await Deno.writeTextFile(`${w.home}/config/prices.json`, JSON.stringify({ m: { input: -1 } }));
  const bad = await runCli(["records", "stats", "--since", "7d"], { env: w.env });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /prices\.json key 'm\.input' is wrong.*Fix:/);
});

Deno.test("the terminal chart: a sparkline and one bar per period, scaled to the largest", () => {
  const bucket = (period: string, cost: number | null) => ({
    period,
    turns: 1,
    wakes: 1,
    guardrail_failure_rate: 0,
    escalation_rate: 0,
    p95_latency_ms: 1,
    cache_hit_ratio: null,
    tokens_in: 0,
    tokens_out: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    cost_usd: cost,
    priced_turns: 0,
    unpriced_turns: 0,
  });
  const chart = driftChart(
    [bucket("2026-11-30", 1), bucket("2026-12-01", 0.5), bucket("2026-12-02", null)],
    "cost",
  );
  const lines = chart.trim().split("\n");
  assert.equal(lines[0], "cost: █▄ ");
  assert.equal(lines[1], `2026-11-30  ${"█".repeat(40)}  1.0000`);
  assert.equal(lines[2], `2026-12-01  ${"█".repeat(20).padEnd(40)}  0.5000`);
  assert.equal(lines[3], `2026-12-02  ${" ".repeat(40)}  -`);
});
