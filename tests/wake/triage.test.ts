/**
 * One item's disposition before any turn, for every kind: self → probe → recovery → billing wall
 * → budget → claim, on a real claim store in a temporary HARNESS_HOME and a gate that records
 * posts.
 */
import assert from "node:assert/strict";
import { BUDGET_NONE, type BudgetConfig, resolveBudget } from "../../lib/config/spending.ts";
import { chargeDay, utcDay } from "../../lib/home/budget.ts";
import { ClaimStore } from "../../lib/home/claims.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import type { PostRequest } from "../../lib/gate/post_request.ts";
import { signProbe } from "../../lib/wake/probe.ts";
import type { Recovery } from "../../lib/wake/recovery.ts";
import { triage, type TriageRules } from "../../lib/wake/triage.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";

const TL = "01900000-0000-7000-8000-000000000001";
const SELF = "01900000-0000-7000-8000-0000000000aa";
const PEER = "01900000-0000-7000-8000-0000000000bb";
const SECRET = "probe-secret";

/** A wake just real enough for triage: claims, identity, the probe secret and a gate. */
async function fakeWake(budget: BudgetConfig = BUDGET_NONE) {
  const home = await Deno.makeTempDir({ prefix: "triage-" });
  const posted: PostRequest[] = [];
  const journal = new MemoryJournal();
  const wake = {
    env: { nocProbeSecret: SECRET },
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
  } as unknown as Wake;
  return { home, wake, posted };
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
  const { home, wake } = await fakeWake(resolveBudget({ tokens_per_day: 100 }));
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
