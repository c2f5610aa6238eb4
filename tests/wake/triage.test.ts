/**
 * One item's disposition before any turn, for every kind: self → probe → recovery → billing wall
 * → breaker → budget → claim, on a real claim store and breaker files in a temporary
 * HARNESS_HOME and a gate that records posts.
 */
import assert from "node:assert/strict";
import { BUDGET_NONE, type BudgetConfig, resolveBudget } from "../../lib/config/spending.ts";
import { chargeDay, utcDay } from "../../lib/home/budget.ts";
import { ClaimStore } from "../../lib/home/claims.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import type { PostRequest } from "../../lib/gate/post_request.ts";
import { BreakerGate } from "../../lib/wake/breaker_gate.ts";
import { signProbe } from "../../lib/wake/probe.ts";
import type { Recovery } from "../../lib/wake/recovery.ts";
import { triage, type TriageRules } from "../../lib/wake/triage.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";

const TL = "01900000-0000-7000-8000-000000000001";
const SELF = "01900000-0000-7000-8000-0000000000aa";
const PEER = "01900000-0000-7000-8000-0000000000bb";
const SECRET = "probe-secret";

/**
 * A wake just real enough for triage: claims, identity, the probe secret, the breaker's knobs, a
 * budget and a gate; `home` is a fresh temporary HARNESS_HOME unless an earlier wake's is passed.
 */
async function fakeWake(
  options: { home?: string; breakerMax?: number; budget?: BudgetConfig } = {},
) {
  const home = options.home ?? await Deno.makeTempDir({ prefix: "triage-" });
  const budget = options.budget ?? BUDGET_NONE;
  const breakerMax = options.breakerMax ?? 10;
  const posted: PostRequest[] = [];
  const journal = new MemoryJournal();
  const wake = {
    env: {
      nocProbeSecret: SECRET,
      wakeBreakerMax: breakerMax,
      wakeBreakerWindowSeconds: 3600,
      wakeBreakerCooldownSeconds: 3600,
    },
    settings: { home, timeline: TL },
    context: {
      self: { uuid: SELF, handle: "agent" },
      gate: {
        post: (request: PostRequest) => {
          posted.push(request);
          return Promise.resolve({});
        },
      },
    },
    claims: new ClaimStore(home, { journal }),
    journal,
    posts: 0,
    billingWall: false,
    budget,
    budgetWall: false,
    spent: { usd: 0, tokens: 0 },
    escalation: { on: [] },
    breaker: new BreakerGate(),
  } as unknown as Wake;
  return { home, wake, posted, journal };
}

function rules(
  kind: TriageRules["kind"],
  selfFilter: boolean,
  recoveries: Record<string, Recovery> = {},
): TriageRules {
  return { kind, selfFilter, recoveries: new Map(Object.entries(recoveries)) };
}

Deno.test("triage: the agent's own item is final only where the kind filters it", async () => {
  const { home, wake } = await fakeWake();
  try {
    const own = { uuid: "m1", author: SELF, carrier: "hello" };
    assert.deepEqual(await triage(wake, rules("messages", true), own), {
      disposition: "final",
      rule: "self",
    });
    // Tasks do not filter: the agent's own scheduled task is claimed and engaged.
    assert.deepEqual(await triage(wake, rules("tasks", false), { ...own, uuid: "t1" }), {
      disposition: "ours",
      rule: "claim",
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("triage: a verified probe is acked and final; a forged one is an ordinary item", async () => {
  const { home, wake, posted } = await fakeWake();
  try {
    const marker = await signProbe(SECRET, "n0nce");
    const probe = { uuid: "p1", author: PEER, carrier: `ping ${marker}` };
    assert.deepEqual(await triage(wake, rules("assets", true), probe), {
      disposition: "final",
      rule: "probe",
    });
    assert.equal(posted.length, 1);
    assert.equal(posted[0].kind, "probe-ack");
    assert.equal(wake.posts, 1);
    const forged = { uuid: "p2", author: PEER, carrier: await signProbe("other", "n0nce") };
    assert.equal((await triage(wake, rules("assets", true), forged)).rule, "claim");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("triage: recovery verdicts decide, and `billing` raises the wall for what follows", async () => {
  const { home, wake } = await fakeWake();
  try {
    const r = rules("webhook_events", false, {
      e1: "final",
      e2: "pending",
      e3: "redrive",
      e4: "billing",
    });
    const item = (uuid: string) => ({ uuid, carrier: "{}" });
    assert.deepEqual(await triage(wake, r, item("e1")), { disposition: "final", rule: "recovery" });
    assert.deepEqual(await triage(wake, r, item("e2")), {
      disposition: "pending",
      rule: "recovery",
    });
    // A re-drive owns the item without a claim race (recovery took the claim over).
    assert.deepEqual(await triage(wake, r, item("e3")), { disposition: "ours", rule: "claim" });
    assert.equal(await wake.claims.owner("webhook_events", TL, "e3"), undefined);
    assert.deepEqual(await triage(wake, r, item("e4")), {
      disposition: "pending",
      rule: "recovery",
    });
    assert.equal(wake.billingWall, true);
    // Behind the wall nothing is claimed: the item stays free for a later wake.
    assert.deepEqual(await triage(wake, r, item("e5")), {
      disposition: "pending",
      rule: "billing-wall",
    });
    assert.equal(await wake.claims.owner("webhook_events", TL, "e5"), undefined);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("triage: a claim another live wake holds is pending; a committed one is final", async () => {
  const { home, wake } = await fakeWake();
  try {
    // pid 1 is always alive: a wake still running elsewhere.
    const other = new ClaimStore(home, { pid: 1 });
    await other.claim("messages", TL, "held");
    await other.claim("messages", TL, "done");
    await other.commit("messages", TL, "done");
    const r = rules("messages", true);
    assert.deepEqual(await triage(wake, r, { uuid: "held", author: PEER, carrier: "x" }), {
      disposition: "pending",
      rule: "held",
    });
    assert.deepEqual(await triage(wake, r, { uuid: "done", author: PEER, carrier: "x" }), {
      disposition: "final",
      rule: "held",
    });
    assert.deepEqual(await triage(wake, r, { uuid: "new", author: PEER, carrier: "x" }), {
      disposition: "ours",
      rule: "claim",
    });
    assert.equal((await wake.claims.owner("messages", TL, "new"))?.phase, "in-flight");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("triage: over a daily budget limit the item stays pending and unclaimed", async () => {
  const { home, wake } = await fakeWake({ budget: resolveBudget({ tokens_per_day: 100 }) });
  try {
    const r = rules("messages", true);
    // Under the limit: admitted (a lease is taken) and claimed.
    assert.deepEqual(await triage(wake, r, { uuid: "m1", author: PEER, carrier: "x" }), {
      disposition: "ours",
      rule: "claim",
    });
    // The day's ledger reaches the limit (another wake's turn): the next item is refused before
    // its claim, and the wall stays up for the rest of the wake.
    await chargeDay(home, utcDay(new Date()), { timeline: "other", usd: 0, tokens: 100 });
    const budget = await import("../../lib/wake/budget.ts");
    await budget.releaseWake(wake); // the first item's turn never ran: its lease goes
    assert.deepEqual(await triage(wake, r, { uuid: "m2", author: PEER, carrier: "x" }), {
      disposition: "pending",
      rule: "budget-wall",
    });
    assert.equal(wake.budgetWall, true);
    assert.equal(await wake.claims.owner("messages", TL, "m2"), undefined);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

/** The breaker's window file for the test timeline: one line per counted wake. */
async function counted(home: string): Promise<number> {
  try {
    const text = await Deno.readTextFile(`${home}/breaker/${TL}.wakes`);
    return text.split("\n").filter((line) => line.trim()).length;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}

Deno.test("triage: a wake counts once, at its first item with no human's word", async () => {
  const { home, wake } = await fakeWake({ breakerMax: 1 });
  try {
    const r = rules("messages", true);
    // The agent's own message and a human's never count.
    assert.equal((await triage(wake, r, { uuid: "own", author: SELF, carrier: "x" })).rule, "self");
    const human = { uuid: "h1", author: PEER, carrier: "x", human: true };
    assert.equal((await triage(wake, r, human)).disposition, "ours");
    assert.equal(await counted(home), 0);
    // An AI's message counts the wake, once however many follow.
    for (const uuid of ["a1", "a2", "a3"]) {
      assert.deepEqual(await triage(wake, r, { uuid, author: PEER, carrier: "x" }), {
        disposition: "ours",
        rule: "claim",
      });
    }
    assert.equal(await counted(home), 1);
    assert.equal(wake.breaker.declined, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("triage: a tripped breaker holds back only items with no human's word, unclaimed", async () => {
  const first = await fakeWake({ breakerMax: 1 });
  const { home } = first;
  try {
    const r = rules("assets", true);
    assert.equal((await triage(first.wake, r, { uuid: "a1", carrier: "" })).disposition, "ours");
    // The next wake with an AI's item exceeds the cap of 1: TRIPPED, and the item is held back.
    const { wake, journal } = await fakeWake({ home, breakerMax: 1 });
    assert.deepEqual(await triage(wake, r, { uuid: "a2", carrier: "" }), {
      disposition: "pending",
      rule: "breaker",
    });
    assert.equal(await wake.claims.owner("assets", TL, "a2"), undefined); // free for later
    assert.equal(wake.breaker.declined, 1);
    assert.match(journal.lines.join("\n"), /WARNING Wake breaker TRIPPED for timeline /);
    // A human's item in the same wake is engaged; so is a re-drive of a dead wake's work.
    const human = { uuid: "h1", carrier: "", human: true };
    assert.deepEqual(await triage(wake, r, human), { disposition: "ours", rule: "claim" });
    const redrive = rules("assets", true, { a0: "redrive" });
    assert.deepEqual(await triage(wake, redrive, { uuid: "a0", carrier: "" }), {
      disposition: "ours",
      rule: "claim",
    });
    // Another AI item in the same wake reuses the verdict: no second stamp.
    assert.equal((await triage(wake, r, { uuid: "a3", carrier: "" })).rule, "breaker");
    assert.equal(wake.breaker.declined, 2);
    assert.equal(await counted(home), 2);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
