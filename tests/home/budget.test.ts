/**
 * The budget guard's pieces: budget.json validation, the day ledger (appends from several writers
 * add up; a torn, foreign or negative line counts as nothing; the largest turn per measure), the
 * exhausted marker (created and removed by exactly one caller), and which limit holds.
 */
import assert from "node:assert/strict";
import { BUDGET_NONE, budgetLimited, resolveBudget } from "../../lib/config/spending.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import {
  budgetDir,
  chargeDay,
  clearExhausted,
  dayLedger,
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

Deno.test("the ledger counts nothing for a line that is not a turn, or a negative amount", async () => {
  const home = await Deno.makeTempDir();
  try {
    const day = "2026-12-01";
    await chargeDay(home, day, { timeline: "a", usd: 0.5, tokens: 900 });
    await chargeDay(home, day, { timeline: "b", usd: 0.75, tokens: 100 });
    // Valid JSON that is no turn, and amounts that would lower the day's spend.
    const foreign = ["null", "5", '"text"', "[]", '{"usd":-9,"tokens":-5000}', '{"usd":"1"}'];
    await Deno.writeTextFile(`${budgetDir(home)}/${day}.jsonl`, foreign.join("\n") + "\n", {
      append: true,
    });
    const ledger = await dayLedger(home, day);
    assert.equal(ledger.usd, 1.25);
    assert.equal(ledger.tokens, 1000);
    // Each measure's own largest turn, wherever it sits in the file.
    assert.deepEqual(ledger.largest, { usd: 0.75, tokens: 900 });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the exhausted marker: of several callers exactly one creates it and one removes it", async () => {
  const home = await Deno.makeTempDir();
  try {
    const made = await Promise.all([1, 2, 3].map(() => markExhausted(home, "usd_per_day 2/1")));
    assert.deepEqual(made.filter(Boolean).length, 1);
    const cleared = await Promise.all([1, 2, 3].map(() => clearExhausted(home)));
    assert.deepEqual(cleared.filter(Boolean).length, 1);
    // A marker emptied by hand still reads as a limit holding.
    await Deno.writeTextFile(`${budgetDir(home)}/exhausted`, "\n");
    assert.equal(await exhaustedMark(home), "unknown");
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
