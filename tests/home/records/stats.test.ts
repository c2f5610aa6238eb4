/**
 * Stats on a known fixture: turns, posts (successful messages creates only), tokens, cache-hit
 * ratio, cost, and the nearest-rank p95 over 20 latencies given out of order.
 */
import assert from "node:assert/strict";
import { appendFile } from "node:fs/promises";
import {
  appendTurnRecord,
  chainPath,
  percentile,
  statsRecords,
} from "../../../lib/home/records/mod.ts";
import { TL, TL2, turnInput, withHome } from "./fixture.ts";

/** 1..20 in a scrambled order, so a stats that forgets to sort gets it wrong. */
const LATENCIES = [7, 19, 3, 20, 11, 1, 15, 9, 18, 5, 13, 2, 17, 8, 10, 4, 16, 6, 14, 12];

Deno.test("stats: p95 is nearest-rank: 19 of 1..20, whatever the order", () => {
  assert.equal(percentile(LATENCIES, 95), 19);
  assert.equal(percentile([5], 95), 5);
  assert.equal(percentile([], 95), null);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10);
  assert.equal(percentile([10, 20], 50), 10);
});

Deno.test("stats: per-timeline numbers on a known fixture", async () => {
  await withHome(async (home) => {
    for (const [i, total] of LATENCIES.entries()) {
      // Every 4th turn posted; every 5th turn's post failed; the rest only listed.
      const toolCalls = i % 4 === 0
        ? [{ name: "messages", outcome: i % 5 === 0 ? "error" : "ok", action: "create" } as const]
        : [{ name: "messages", outcome: "ok", action: "list" } as const];
      await appendTurnRecord(
        home,
        turnInput(i, {
          toolCalls: [...toolCalls, { name: "memory", outcome: "ok" }],
          latencyMs: { model: total / 2, total },
          usage: { tokensIn: 100, tokensOut: 10 + i, cachedTokens: i < 10 ? 50 : 0, cost: 0.5 },
        }),
      );
    }
    await appendTurnRecord(
      home,
      turnInput(99, {
        timeline: TL2,
        usage: { tokensIn: 0, tokensOut: 0, cachedTokens: 0 },
        latencyMs: { total: 42 },
      }),
    );
    await appendFile(chainPath(home, TL2), "junk\n");
    const [one, two] = await statsRecords(home);
    // Posting turns: i = 0, 4, 8, 12, 16; failed: i = 0 (and 20, out of range) → 4 posts.
    assert.deepEqual(one, {
      timeline: TL,
      turns: 20,
      posts: 4,
      tokens_in: 2000,
      tokens_out: 20 * 10 + 190,
      cached_tokens: 500,
      cache_hit_ratio: 0.25,
      p95_latency_ms: 19,
      cost_usd: 10,
      unreadable: 0,
      // Records without the complete fields carry no result: they count under none.
      results: { spoke: 0, silent: 0, escalated: 0, refused: 0, truncated: 0, failed: 0 },
    });
    assert.deepEqual(two, {
      timeline: TL2,
      turns: 1,
      posts: 1,
      tokens_in: 0,
      tokens_out: 0,
      cached_tokens: 0,
      cache_hit_ratio: null,
      p95_latency_ms: 42,
      cost_usd: null,
      unreadable: 1,
      results: { spoke: 0, silent: 0, escalated: 0, refused: 0, truncated: 0, failed: 0 },
    });
    assert.deepEqual((await statsRecords(home, { timeline: TL2 })).map((s) => s.turns), [1]);
  });
});

Deno.test("stats: posts are what reached the timeline, not every messages create", async () => {
  const { postsOf } = await import("../../../lib/home/records/stats.ts");
  const call = (outcome: "ok" | "blocked" | "error") => ({
    name: "messages",
    action: "create",
    outcome,
  });
  const base = { tool_calls: [call("blocked"), call("blocked"), call("ok"), call("ok")] };
  // Two creates said ok but only one post has a uuid on the platform (the other's outcome was
  // unknown): the record's outbound is the truth.
  const withOutbound = {
    ...base,
    outbound: [{ uuid: "m1", kind: "tool" }, { uuid: "m2", kind: "probe-ack" }],
  };
  assert.equal(postsOf(withOutbound as never), 1);
  // An older record without outbound: its ok creates only, never the blocked ones.
  assert.equal(postsOf(base as never), 2);
});

Deno.test("stats: turns are counted by result, the hand-offs among them", async () => {
  await withHome(async (home) => {
    const results = ["spoke", "escalated", "refused", "truncated", "escalated", "silent"] as const;
    for (const [i, result] of results.entries()) {
      await appendTurnRecord(home, turnInput(i, { content: "full", result }));
    }
    await appendTurnRecord(home, turnInput(9)); // older than the field: in none
    const [row] = await statsRecords(home);
    assert.equal(row.turns, 7);
    assert.deepEqual(row.results, {
      spoke: 1,
      silent: 1,
      escalated: 2,
      refused: 1,
      truncated: 1,
      failed: 0,
    });
  });
});
