/**
 * The budget guard's pieces: budget.json validation, the day ledger (appends from several writers
 * add up; a torn line counts as nothing), the exhausted marker, and which limit holds.
 */
import assert from "node:assert/strict";
import { BUDGET_NONE, budgetLimited, resolveBudget } from "../../lib/config/spending.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import {
  budgetDir,
  chargeDay,
  clearExhausted,
  daySpend,
  exhaustedMark,
  markExhausted,
  utcDay,
} from "../../lib/home/budget.ts";
import { limitReached } from "../../lib/wake/budget.ts";

Deno.test("budget.json: limits as written, none by default, wrong keys refused with the fix", () => {
  assert.deepEqual(resolveBudget({}), BUDGET_NONE);
  assert.equal(budgetLimited(BUDGET_NONE), false);
  const budget = resolveBudget({ usd_per_day: 5, tokens_per_wake: 1000 });
  assert.deepEqual(budget, {
    usdPerWake: null,
    usdPerDay: 5,
    tokensPerWake: 1000,
    tokensPerDay: null,
  });
  assert.equal(budgetLimited(budget), true);
  const cases: [unknown, RegExp][] = [
    [[], /must be a JSON object/],
    [
      { usd_per_day: 0 },
      /key 'usd_per_day' must be a number above 0 and at most 1000000 \(USD\).*Fix:/,
    ],
    [
      { tokens_per_day: 1.5 },
      /key 'tokens_per_day' must be an integer from 1 to 1000000000000 \(tokens\).*Fix:/,
    ],
    [{ usd_per_month: 1 }, /key 'usd_per_month' is not a budget setting.*Fix:/],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => resolveBudget(value), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /^budget\.json /);
      assert.match(error.message, message);
      return true;
    });
  }
});

Deno.test("the day ledger sums every writer's lines; a torn line counts as nothing", async () => {
  const home = await Deno.makeTempDir();
  try {
    const day = utcDay(new Date("2026-12-01T23:59:59Z"));
    assert.equal(day, "2026-12-01");
    assert.deepEqual(await daySpend(home, day), { usd: 0, tokens: 0 });
    await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => chargeDay(home, day, { timeline: `t${i % 3}`, usd: 0.1, tokens: 100 }),
      ),
    );
    await Deno.writeTextFile(`${budgetDir(home)}/${day}.jsonl`, '{"usd":5,"tok', { append: true });
    assert.deepEqual(await daySpend(home, day), { usd: 2, tokens: 2000 });
    assert.deepEqual(await daySpend(home, "2026-12-02"), { usd: 0, tokens: 0 });
    assert.equal(await exhaustedMark(home), undefined);
    await markExhausted(home, "usd_per_day 2/1 2026-12-01");
    assert.equal(await exhaustedMark(home), "usd_per_day 2/1 2026-12-01");
    await clearExhausted(home);
    await clearExhausted(home); // a missing marker is fine
    assert.equal(await exhaustedMark(home), undefined);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("which limit holds: daily ones first, then per-wake; at the limit counts as reached", () => {
  const budget = resolveBudget({ usd_per_day: 1, tokens_per_wake: 500 });
  const none = { usd: 0, tokens: 0 };
  assert.equal(limitReached(budget, { usd: 0.99, tokens: 9e9 }, none), undefined);
  assert.equal(limitReached(budget, { usd: 1, tokens: 0 }, none), "usd_per_day 1/1");
  assert.equal(limitReached(budget, none, { usd: 0, tokens: 500 }), "tokens_per_wake 500/500");
  assert.equal(
    limitReached(budget, { usd: 3, tokens: 0 }, { usd: 0, tokens: 900 }),
    "usd_per_day 3/1",
  );
  assert.equal(limitReached(BUDGET_NONE, { usd: 1e9, tokens: 1e9 }, none), undefined);
});
