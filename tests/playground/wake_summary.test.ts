/**
 * What the wake list is sent (lib/playground/wake_summary.ts): a cost is the provider's when the
 * journal states one, else priced from prices.json or the built-in list prices with the
 * `records stats` formula (cache writes at their own rate), else free on
 * the sandbox's model, else unknown — never a made-up zero; and the outcome a panel shows.
 */
import assert from "node:assert/strict";
import { resolvePrices } from "../../lib/config/prices.ts";
import { readJournalLine, summariseJournal } from "../../lib/playground/journal_view.ts";
import { costOf, summariseWake } from "../../lib/playground/wake_summary.ts";
import type { WakeView } from "../../lib/playground/wakes.ts";

function wake(lines: string[], extra: Partial<WakeView> = {}): WakeView {
  const journal = lines.map(readJournalLine);
  return {
    id: "d-1",
    agent: "vega",
    timeline: "t-1",
    trigger: { event: "message.created", item: "m-1", actor: "ada" },
    startedAt: "2026-12-01T10:00:00.000Z",
    finishedAt: "2026-12-01T10:00:03.000Z",
    ms: 3000,
    code: 0,
    spawnError: null,
    skipped: null,
    delivery: null,
    journal,
    summary: summariseJournal(journal),
    toolCalls: [],
    records: null,
    ...extra,
  };
}

const LLM = "INFO llm provider=openai model=m tokens_in=10000 tokens_out=1000 cached_tokens=4000";
const END = "INFO wake end timeline=t outcome=ok turns=1 steps=2/24 posted=1 duration=3s";
const prices = resolvePrices({ m: { input: 1, cached: 0.1, output: 10 } });

Deno.test("cost: the provider's figure wins, then prices.json, then the free sandbox model", () => {
  const reported = wake([`${LLM} cost=0.5`, END]);
  assert.deepEqual(costOf(reported, { prices, model: "m", sandboxModel: false }), {
    usd: 0.5,
    source: "provider",
  });
  // (6000 × 1 + 4000 × 0.1 + 1000 × 10) / 1e6
  assert.deepEqual(costOf(wake([LLM, END]), { prices, model: "m", sandboxModel: false }), {
    usd: 0.0164,
    source: "prices.json",
  });
  const none = new Map();
  assert.deepEqual(costOf(wake([LLM, END]), { prices: none, model: "m", sandboxModel: true }), {
    usd: 0,
    source: "sandbox",
  });
  // A real vendor without a cost and without a price: unknown, not $0.
  assert.deepEqual(costOf(wake([LLM, END]), { prices: none, model: "m", sandboxModel: false }), {
    usd: null,
    source: null,
  });
  // A wake that made no model call cost nothing, whatever the model.
  assert.deepEqual(costOf(wake([END]), { prices: none, model: "m", sandboxModel: false }), {
    usd: 0,
    source: "no model call",
  });
});

Deno.test("cost: cache writes at their own rate; a Claude model unnamed by prices.json at its built-in price", () => {
  const claude =
    "INFO llm provider=anthropic model=claude-sonnet-4-5 tokens_in=10000 tokens_out=1000 " +
    "cached_tokens=4000 cache_write_tokens=2000";
  const file = resolvePrices({
    "claude-sonnet-4-5": { input: 1, cached: 0.1, cache_write: 2, output: 10 },
  });
  // (4000 × 1 + 4000 × 0.1 + 2000 × 2 + 1000 × 10) / 1e6
  assert.deepEqual(
    costOf(wake([claude, END]), { prices: file, model: "claude-sonnet-4-5", sandboxModel: false }),
    {
      usd: 0.0184,
      source: "prices.json",
    },
  );
  // Built in: 3 input, 0.3 cached, 3.75 write, 15 output → (12000 + 1200 + 7500 + 15000) / 1e6
  const builtIn = resolvePrices({});
  assert.deepEqual(
    costOf(wake([claude, END]), {
      prices: builtIn,
      model: "claude-sonnet-4-5",
      sandboxModel: false,
    }),
    {
      usd: 0.0357,
      source: "built-in prices",
    },
  );
  const summary = summariseWake(wake([claude, END]), 1, {
    prices: builtIn,
    model: "claude-sonnet-4-5",
    sandboxModel: false,
  });
  assert.equal(summary.cacheWriteTokens, 2000);
});

Deno.test("summary: outcome, counts and no cost while running or when the router did not run it", () => {
  const pricing = { prices, model: "m", sandboxModel: false };
  const done = summariseWake(wake([LLM, END]), 3, pricing);
  assert.equal(done.n, 3);
  assert.equal(done.outcome, "ok");
  assert.equal(done.steps, "2/24");
  assert.equal(done.journalLines, 2);
  assert.equal(done.tokensIn, 10000);
  const running = summariseWake(wake([LLM], { finishedAt: null, code: null }), 1, pricing);
  assert.equal(running.outcome, "running");
  assert.deepEqual(running.cost, { usd: null, source: null });
  const coalesced = summariseWake(wake([], { skipped: "coalesced", ms: null }), 2, pricing);
  assert.equal(coalesced.outcome, "coalesced");
  const idle = summariseWake(wake(["INFO wake start"], {}), 4, pricing);
  assert.equal(idle.outcome, "idle");
  const failed = summariseWake(wake(["INFO wake start"], { code: 1 }), 5, pricing);
  assert.equal(failed.outcome, "failed");
});
