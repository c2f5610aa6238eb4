/**
 * The budget guard's decisions (docs/operating.md#the-budget-guard): the admission rule and one
 * turn's estimate; a turn admitted holds a lease until it is charged; a turn that may not start
 * yet waits for one in flight to settle (the pause is handed in, so the test settles that turn
 * exactly when the waiting wake pauses, and a long wait is announced once); each step's spend
 * reaches the lease; a wake's turns add up to its per-wake limit; the wall stays up for the rest
 * of the wake; the EXHAUSTED line and the notice come once for the box however many wakes find the
 * limit holding, and the CLEARED line once however many find it cleared.
 */
import assert from "node:assert/strict";
import { type BudgetConfig, resolveBudget } from "../../lib/config/spending.ts";
import type { Message } from "../../lib/core/types/message.ts";
import type { StepContext } from "../../lib/core/turn_hook.ts";
import { chargeDay, dayBefore, utcDay } from "../../lib/home/budget.ts";
import { leasesDir, liveLeases, withBudgetLock } from "../../lib/home/budget_leases.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import {
  admitTurn,
  chargeTurn,
  guardWake,
  progressHook,
  releaseWake,
  WAIT_FIRST_MS,
} from "../../lib/wake/budget.ts";
import { admission, turnEstimate } from "../../lib/wake/budget_admission.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";
import { startStub } from "../support/http_stub.ts";

const none = { usd: 0, tokens: 0 };

Deno.test("admission: exhausted on settled spend, wait on what is in flight, else admit", () => {
  const limits = { usd: null, tokens: 1000 };
  const estimate = { usd: 0.2, tokens: 300 };
  assert.deepEqual(admission(limits, { usd: 5, tokens: 1000 }, none, estimate), {
    kind: "exhausted",
    limit: "tokens_per_day 1000/1000",
  });
  assert.deepEqual(admission(limits, { usd: 0, tokens: 600 }, { usd: 0, tokens: 400 }, estimate), {
    kind: "wait",
    limit: "tokens_per_day 1000/1000",
  });
  assert.deepEqual(admission(limits, { usd: 0, tokens: 600 }, { usd: 0, tokens: 399 }, estimate), {
    kind: "admit",
    reserve: estimate,
  });
  // No turn to estimate from: the rest of the limit, so the turn runs alone.
  assert.deepEqual(admission(limits, { usd: 0, tokens: 600 }, { usd: 0, tokens: 100 }, undefined), {
    kind: "admit",
    reserve: { usd: 0, tokens: 300 },
  });
  // USD is named first, as the per-day check always did.
  assert.deepEqual(admission({ usd: 1, tokens: 10 }, { usd: 1, tokens: 10 }, none, estimate), {
    kind: "exhausted",
    limit: "usd_per_day 1/1",
  });
  assert.deepEqual(admission({ usd: 1, tokens: null }, { usd: 0.5, tokens: 0 }, none, undefined), {
    kind: "admit",
    reserve: { usd: 0.5, tokens: 0 },
  });
});

Deno.test("one turn's estimate: each measure's largest turn over the days given; none without turns", () => {
  assert.equal(turnEstimate([]), undefined);
  assert.equal(turnEstimate([{ largest: none, turns: 0 }]), undefined);
  assert.deepEqual(
    turnEstimate([
      { largest: { usd: 0.1, tokens: 900 }, turns: 3 },
      { largest: { usd: 0.4, tokens: 200 }, turns: 1 },
    ]),
    { usd: 0.4, tokens: 900 },
  );
});

/** The slice of a wake the guard reads. */
function wakeFor(home: string, budget: BudgetConfig, timeline: string, ntfy?: string) {
  const journal = new MemoryJournal();
  const wake = {
    settings: { home, timeline },
    budget,
    budgetWall: false,
    spent: { usd: 0, tokens: 0 },
    escalation: { on: ntfy ? ["budget_exhausted"] : [] },
    env: { ntfyDmToken: ntfy ? "tk_unit_budget" : undefined, ntfyDmUrl: ntfy },
    context: { self: { uuid: "u", handle: "ada" } },
    journal,
  } as unknown as Wake;
  return { wake, journal };
}

const usage = (tokens: number) => ({ tokensIn: tokens, tokensOut: 0 });

Deno.test("a turn waits while the turns in flight commit the limit, and starts once one settles", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-guard-" });
  try {
    const day = utcDay(new Date());
    await chargeDay(home, dayBefore(day), { timeline: "earlier", usd: 0, tokens: 1000 });
    const budget = resolveBudget({ tokens_per_day: 1000 });
    const a = wakeFor(home, budget, "tl-a");
    const b = wakeFor(home, budget, "tl-b");
    assert.equal(await admitTurn(a.wake), true);
    assert.equal(await admitTurn(a.wake), true); // an unused admission is kept, not doubled
    assert.equal((await withBudgetLock(home, () => liveLeases(home))).length, 1);

    const pauses: number[] = [];
    const admitted = await admitTurn(b.wake, {
      pause: async (ms) => {
        pauses.push(ms);
        // Meanwhile a's turn ends having spent less than its estimate: room for b.
        await chargeTurn(a.wake, usage(400));
      },
    });
    assert.equal(admitted, true);
    assert.deepEqual(pauses, [WAIT_FIRST_MS]);
    assert.deepEqual(b.journal.lines, [
      `INFO Budget guard WAITING for timeline tl-b: tokens_per_day 1000/1000 committed with 1 ` +
      `turn(s) in flight on ${day} (UTC); the next turn starts or stops once one of them settles.`,
    ]);
    const [lease] = await withBudgetLock(home, () => liveLeases(home));
    assert.equal(lease.timeline, "tl-b");
    assert.deepEqual(lease.reserved, { tokens: 1000, usd: 0 });

    // b's turn passes the limit: the wall rises, the transition is logged once.
    await chargeTurn(b.wake, usage(700));
    assert.equal(b.wake.budgetWall, true);
    assert.match(
      b.journal.lines.at(-1)!,
      /^WARNING Budget guard EXHAUSTED for timeline tl-b: tokens_per_day 1100\/1000 on /,
    );
    const c = wakeFor(home, budget, "tl-c");
    assert.equal(await admitTurn(c.wake), false);
    assert.equal(c.wake.budgetWall, true);
    assert.deepEqual(c.journal.lines, []); // another wake said it already
    assert.deepEqual(await withBudgetLock(home, () => liveLeases(home)), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("once a daily limit holds, the wall stays up for the rest of the wake", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-guard-" });
  try {
    const day = utcDay(new Date());
    await chargeDay(home, day, { timeline: "other", usd: 2, tokens: 0 });
    const { wake } = wakeFor(home, resolveBudget({ usd_per_day: 1 }), "tl-a");
    assert.equal(await admitTurn(wake), false);
    assert.equal(wake.budgetWall, true);
    // The day's ledger goes (the UTC day turned, say): this wake still starts no turn.
    await Deno.remove(`${home}/budget/${day}.jsonl`);
    assert.equal(await admitTurn(wake), false);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("of several wakes finding a limit cleared at once, one says so", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-guard-" });
  try {
    await Deno.mkdir(`${home}/budget`, { recursive: true });
    await Deno.writeTextFile(`${home}/budget/exhausted`, "usd_per_day 2/1 2026-12-01\n");
    const budget = resolveBudget({ usd_per_day: 1 });
    const wakes = ["tl-a", "tl-b", "tl-c", "tl-d"].map((t) => wakeFor(home, budget, t));
    await Promise.all(wakes.map(({ wake }) => guardWake(wake)));
    const said = wakes.flatMap(({ journal }) => journal.lines);
    assert.equal(said.length, 1, said.join("\n"));
    assert.match(said[0], /^INFO Budget guard CLEARED for timeline tl-.: the limit \(usd_per_day /);
    assert.ok(wakes.every(({ wake }) => !wake.budgetWall));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a long wait is announced once, and looks again at growing intervals", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-guard-" });
  try {
    const budget = resolveBudget({ tokens_per_day: 1000 });
    const a = wakeFor(home, budget, "tl-a");
    const b = wakeFor(home, budget, "tl-b");
    assert.equal(await admitTurn(a.wake), true); // nothing to estimate from: the whole limit
    const pauses: number[] = [];
    const admitted = await admitTurn(b.wake, {
      pause: async (ms) => {
        pauses.push(ms);
        if (pauses.length === 3) await chargeTurn(a.wake, usage(400)); // a settles, at last
      },
    });
    assert.equal(admitted, true);
    assert.deepEqual(pauses, [WAIT_FIRST_MS, 2 * WAIT_FIRST_MS, 4 * WAIT_FIRST_MS]);
    assert.equal(b.journal.lines.length, 1, b.journal.lines.join("\n"));
    assert.match(b.journal.lines[0], /^INFO Budget guard WAITING for timeline tl-b: /);
    await releaseWake(b.wake);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("with nothing recorded to estimate from, the first turn runs alone", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-guard-" });
  try {
    const budget = resolveBudget({ tokens_per_day: 5000 });
    const a = wakeFor(home, budget, "tl-a");
    const b = wakeFor(home, budget, "tl-b");
    assert.equal(await admitTurn(a.wake), true);
    let waited = 0;
    const admitted = await admitTurn(b.wake, {
      pause: async () => {
        waited++;
        await chargeTurn(a.wake, usage(800)); // now there is a turn to estimate from
      },
    });
    assert.equal(admitted, true);
    assert.equal(waited, 1);
    const [lease] = await withBudgetLock(home, () => liveLeases(home));
    assert.deepEqual(lease.reserved, { tokens: 800, usd: 0 });
    await releaseWake(b.wake);
    assert.deepEqual(await withBudgetLock(home, () => liveLeases(home)), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

/** An assistant step as the engine hands it to hooks. */
function step(tokens: number, cost?: number, tokensOut = 0): StepContext {
  const reply = { role: "assistant", usage: { tokensIn: tokens, tokensOut, cost } } as Message;
  return { step: 1, maxSteps: 24, reply, toolRuns: [], messages: [], append() {} };
}

Deno.test("each step's spend reaches the lease; a turn that failed is charged what its steps spent", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-guard-" });
  try {
    const budget = resolveBudget({ tokens_per_day: 100_000, usd_per_day: 10 });
    const { wake, journal } = wakeFor(home, budget, "tl-a");
    assert.equal(await admitTurn(wake), true);
    const hook = progressHook(wake);
    await hook.afterStep!(step(300, 0.25));
    await hook.afterStep!(step(150, undefined, 50)); // what the model wrote counts too
    const [lease] = await withBudgetLock(home, () => liveLeases(home));
    assert.deepEqual(lease.spent, { tokens: 500, usd: 0.25 });

    // A lease file that cannot be rewritten costs that update and a WARNING, not the turn.
    await Deno.remove(`${leasesDir(home)}/${lease.id}.json`);
    await Deno.mkdir(`${leasesDir(home)}/${lease.id}.json`);
    await hook.afterStep!(step(100));
    assert.match(journal.lines.at(-1)!, /^WARNING Could not record the turn's spend so far/);
    await Deno.remove(`${leasesDir(home)}/${lease.id}.json`);

    await chargeTurn(wake, undefined); // the engine never returned: the steps' spend counts
    const ledger = await Deno.readTextFile(`${home}/budget/${utcDay(new Date())}.jsonl`);
    assert.deepEqual(JSON.parse(ledger), { timeline: "tl-a", usd: 0.25, tokens: 600 });
    assert.deepEqual(wake.spent, { usd: 0.25, tokens: 600 });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("usd_per_wake: the wake's turns add up their cost, and the one that reaches it stops the next", async () => {
  const home = await Deno.makeTempDir({ prefix: "budget-guard-" });
  try {
    const budget = resolveBudget({ usd_per_wake: 0.5 });
    const { wake, journal } = wakeFor(home, budget, "tl-a");
    const costing = (usd: number) => ({ tokensIn: 10, tokensOut: 5, cost: usd });
    assert.equal(await admitTurn(wake), true);
    await chargeTurn(wake, costing(0.25));
    assert.equal(await admitTurn(wake), true); // 0.25 of 0.5: the next turn may start
    await chargeTurn(wake, costing(0.25)); // together they reach the limit
    assert.equal(await admitTurn(wake), false);
    assert.equal(journal.lines.length, 1, journal.lines.join("\n"));
    assert.match(
      journal.lines[0],
      /^WARNING Budget guard EXHAUSTED for timeline tl-a: usd_per_wake 0\.5\/0\.5 on /,
    );
    const ledger = await Deno.readTextFile(`${home}/budget/${utcDay(new Date())}.jsonl`);
    assert.deepEqual(ledger.trim().split("\n").map((l) => JSON.parse(l)), [
      { timeline: "tl-a", usd: 0.25, tokens: 15 },
      { timeline: "tl-a", usd: 0.25, tokens: 15 },
    ]);
    // A new wake starts with nothing spent, whatever the day's ledger holds.
    const next = wakeFor(home, budget, "tl-a");
    assert.equal(await admitTurn(next.wake), true);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the exhaustion notice goes out once per limit and day for the whole box", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  const home = await Deno.makeTempDir({ prefix: "budget-guard-" });
  try {
    const budget = resolveBudget({ tokens_per_wake: 100 });
    // Two wakes on two timelines each pass the per-wake limit, one after the other; the
    // marker is cleared between them, as the second wake's start finds no limit holding.
    for (const timeline of ["tl-a", "tl-b"]) {
      const { wake, journal } = wakeFor(home, budget, timeline, ntfy.url);
      assert.equal(await admitTurn(wake), true);
      await chargeTurn(wake, usage(150));
      assert.equal(wake.budgetWall, true);
      assert.ok(journal.lines.some((l) => l.startsWith("WARNING Budget guard EXHAUSTED")));
      await Deno.remove(`${home}/budget/exhausted`);
    }
    assert.equal(ntfy.requests.length, 1);
    assert.match(ntfy.requests[0].text(), /^Escalation: budget_exhausted\nTimeline: tl-a\n/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
