/**
 * Drift over time: a generated history across two timelines and two days, bucketed by day and by
 * week, against numbers computed by hand; the price table prices only turns without a provider
 * cost, and records before the window do not count.
 */
import assert from "node:assert/strict";
import {
  appendTurnRecord,
  driftRecords,
  parseSince,
  periodOf,
  type TurnRecordInput,
} from "../../../lib/home/records/mod.ts";
import { chainLines, putLines, TL, TL2, turnInput, withHome } from "./fixture.ts";

const passed = { kind: "tool", verdict: "passed", checks: [] } as const;
const refused = { kind: "tool", verdict: "refused", checks: ["secrets"] } as const;

interface Turn {
  at: string;
  timeline?: string;
  wake: string;
  in: number;
  cached: number;
  out: number;
  cost?: number;
  ms: number;
  model?: string;
  verdicts?: TurnRecordInput["gateVerdicts"];
  escalation?: string;
}

const HISTORY: Turn[] = [
  { at: "2026-11-20T10:00:00Z", wake: "old", in: 9999, cached: 0, out: 9, cost: 9, ms: 9999 },
  {
    at: "2026-11-30T01:00:00Z",
    wake: "A",
    in: 1000,
    cached: 400,
    out: 50,
    cost: 0.01,
    ms: 100,
    verdicts: [passed],
  },
  {
    at: "2026-11-30T02:00:00Z",
    wake: "A",
    in: 1000,
    cached: 600,
    out: 50,
    cost: 0.02,
    ms: 200,
    verdicts: [refused, passed],
  },
  {
    at: "2026-11-30T03:00:00Z",
    wake: "B",
    in: 2000,
    cached: 0,
    out: 100,
    ms: 300,
    model: "priced-model",
    verdicts: [refused, refused],
    escalation: "gate_refused_twice",
  },
  { at: "2026-11-30T23:59:59Z", wake: "C", in: 0, cached: 0, out: 0, ms: 400, model: "unknown" },
  {
    at: "2026-12-01T00:00:00Z",
    timeline: TL2,
    wake: "D",
    in: 500,
    cached: 500,
    out: 10,
    cost: 0.001,
    ms: 50,
  },
  {
    at: "2026-12-01T08:00:00Z",
    timeline: TL2,
    wake: "D",
    in: 500,
    cached: 0,
    out: 10,
    cost: 0.003,
    ms: 150,
  },
];

async function write(home: string) {
  let i = 0;
  for (const t of HISTORY) {
    await appendTurnRecord(
      home,
      turnInput(++i, {
        timeline: t.timeline ?? TL,
        wakeId: t.wake,
        model: t.model ?? "gpt-test",
        latencyMs: { total: t.ms },
        usage: { calls: 1, tokensIn: t.in, tokensOut: t.out, cachedTokens: t.cached, cost: t.cost },
        content: "full",
        gateVerdicts: t.verdicts ?? [],
        escalationReason: t.escalation,
      }),
      { now: () => new Date(t.at) },
    );
  }
}

const PRICES = new Map([["priced-model", { input: 1, cached: 0.5, output: 2 }]]);
const SINCE = new Date("2026-11-25T00:00:00Z");

Deno.test("drift by day: each day's four numbers, tokens, cost and wakes, computed by hand", async () => {
  await withHome(async (home) => {
    await write(home);
    const report = await driftRecords(home, { since: SINCE, by: "day", prices: PRICES });
    assert.equal(report.unreadable, 0);
    assert.deepEqual(report.buckets, [
      {
        period: "2026-11-30",
        turns: 4,
        wakes: 3,
        guardrail_failure_rate: 0.5, // turns 2 and 3 had a refusal
        escalation_rate: 0.25,
        p95_latency_ms: 400, // nearest rank: ⌈0.95·4⌉ = 4th of 100, 200, 300, 400
        cache_hit_ratio: 0.25, // 1000 cached of 4000
        tokens_in: 4000,
        tokens_out: 200,
        cached_tokens: 1000,
        cache_write_tokens: 0,
        cost_usd: 0.0322, // 0.01 + 0.02 + (2000·1 + 100·2)/1e6 from the table
        priced_turns: 1,
        unpriced_turns: 1,
      },
      {
        period: "2026-12-01",
        turns: 2,
        wakes: 1,
        guardrail_failure_rate: 0,
        escalation_rate: 0,
        p95_latency_ms: 150,
        cache_hit_ratio: 0.5,
        tokens_in: 1000,
        tokens_out: 20,
        cached_tokens: 500,
        cache_write_tokens: 0,
        cost_usd: 0.004,
        priced_turns: 0,
        unpriced_turns: 0,
      },
    ]);
    assert.deepEqual(report.total, {
      period: "total",
      turns: 6,
      wakes: 4,
      guardrail_failure_rate: 2 / 6,
      escalation_rate: 1 / 6,
      p95_latency_ms: 400,
      cache_hit_ratio: 0.3,
      tokens_in: 5000,
      tokens_out: 220,
      cached_tokens: 1500,
      cache_write_tokens: 0,
      cost_usd: 0.0362,
      priced_turns: 1,
      unpriced_turns: 1,
    });
  });
});

Deno.test("drift by week: Monday-started ISO weeks; one timeline narrows; no table, no pricing", async () => {
  await withHome(async (home) => {
    await write(home);
    const week = await driftRecords(home, { since: SINCE, by: "week", prices: PRICES });
    assert.deepEqual(week.buckets, [{ ...week.total, period: "2026-11-30" }]);
    const one = await driftRecords(home, { since: SINCE, by: "day", timeline: TL2 });
    assert.deepEqual(one.buckets.map((b) => [b.period, b.turns]), [["2026-12-01", 2]]);
    const unpriced = await driftRecords(home, { since: SINCE, by: "day" });
    assert.equal(unpriced.total.cost_usd, 0.034);
    assert.equal(unpriced.total.unpriced_turns, 2);
  });
});

Deno.test("periods and spans", () => {
  assert.equal(periodOf("2026-12-06T23:00:00.000Z", "week"), "2026-11-30"); // a Sunday
  assert.equal(periodOf("2026-11-30T00:00:00.000Z", "week"), "2026-11-30"); // a Monday
  assert.equal(periodOf("2026-12-01T05:00:00.000Z", "day"), "2026-12-01");
  const now = new Date("2026-12-08T12:00:00Z");
  assert.equal(parseSince("7d", now)?.toISOString(), "2026-12-01T12:00:00.000Z");
  assert.equal(parseSince("2w", now)?.toISOString(), "2026-11-24T12:00:00.000Z");
  assert.equal(parseSince("36h", now)?.toISOString(), "2026-12-07T00:00:00.000Z");
  assert.equal(parseSince("7", now), undefined);
  assert.equal(parseSince("-1d", now), undefined);
});

Deno.test("a line not in canonical spelling is read whole, with the same numbers", async () => {
  await withHome(async (home) => {
    await Deno.mkdir(`${home}/records`);
    const line = JSON.stringify({
      wake_id: "W",
      usage: { tokens_in: 10, tokens_out: 1, cached_tokens: 5, cost_usd: 0.5, calls: 1 },
      latency_ms: { total: 7 },
      at: "2026-11-30T01:00:00.000Z",
      model: "m",
      gate_verdicts: [{ kind: "tool", verdict: "refused", checks: [] }],
    });
    await Deno.writeTextFile(`${home}/records/${TL}.jsonl`, `${line}\n`);
    const report = await driftRecords(home, { since: SINCE, by: "day" });
    assert.equal(report.total.turns, 1);
    assert.equal(report.total.guardrail_failure_rate, 1);
    assert.equal(report.total.cache_hit_ratio, 0.5);
    assert.equal(report.total.cost_usd, 0.5);
  });
});

Deno.test("drift reads a line the same whether it is spelled canonically or not", async () => {
  await withHome(async (home) => {
    await write(home);
    const canonical = await driftRecords(home, { since: SINCE, by: "day", prices: PRICES });
    // The lenient reader checks no hash, so it must find the same fields in lines it did not
    // write: one chain with `at` first but the other keys reversed, the other in canonical order
    // but with spaces inside `usage` and `latency_ms`.
    const respell = async (
      timeline: string,
      spell: (record: Record<string, unknown>) => string,
    ) => {
      const lines = await chainLines(home, timeline);
      await putLines(home, lines.map((line) => spell(JSON.parse(line))), timeline);
    };
    await respell(
      TL,
      ({ at, ...rest }) =>
        JSON.stringify({ at, ...Object.fromEntries(Object.entries(rest).reverse()) }),
    );
    await respell(
      TL2,
      (record) => JSON.stringify(record).replace(/"(usage|latency_ms)":\{/g, '"$1":{ '),
    );
    assert.match((await chainLines(home, TL2))[0], /"usage":\{ "/);
    const respelled = await driftRecords(home, { since: SINCE, by: "day", prices: PRICES });
    assert.deepEqual(respelled, canonical);
  });
});

Deno.test("drift prices a Claude turn's cache writes and reads at their own rates, from the built-in table", async () => {
  await withHome(async (home) => {
    await appendTurnRecord(
      home,
      turnInput(1, {
        timeline: TL,
        wakeId: "W",
        model: "claude-sonnet-4-5-20250929",
        latencyMs: { total: 10 },
        // 10,000 in: 6,000 read from the cache, 3,000 written to it, 1,000 fresh.
        usage: {
          calls: 2,
          tokensIn: 10_000,
          tokensOut: 500,
          cachedTokens: 6_000,
          cacheWriteTokens: 3_000,
        },
        content: "full",
        gateVerdicts: [],
      }),
      { now: () => new Date("2026-12-01T12:00:00Z") },
    );
    const { builtInPriceTable } = await import("../../../lib/config/prices.ts");
    const report = await driftRecords(home, {
      since: SINCE,
      by: "day",
      prices: builtInPriceTable(),
    });
    assert.equal(report.total.cache_write_tokens, 3_000);
    assert.equal(report.total.priced_turns, 1);
    // Sonnet 4.5 at $3 in / $15 out per 1M: fresh 1,000 × 3 + reads 6,000 × 0.3
    // + writes 3,000 × 3.75 + out 500 × 15, over 1e6.
    assert.equal(report.total.cost_usd, (3_000 + 1_800 + 11_250 + 7_500) / 1e6);
    // Without the table the turn is unpriced, and the record still reads (an older one has no
    // cache_write_tokens at all: see the history above).
    const bare = await driftRecords(home, { since: SINCE, by: "day" });
    assert.equal(bare.total.unpriced_turns, 1);
  });
});
