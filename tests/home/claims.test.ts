/**
 * Two-phase claims (docs/home-layout.md#claims): hard-link birth, take-over tokens as
 * compare-and-swap, the owner chain, commit/abandon by rename, the orphan rules, and the
 * legacy/corrupt readings.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ClaimStore, type ClaimStoreOptions } from "../../lib/home/claims.ts";
import { encodeClaimRecord } from "../../lib/home/claim_record.ts";
import { livenessSnapshot, processAlive } from "../../lib/home/liveness.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { ITEM, put, read, TL, tree, withHome } from "./helpers.ts";

const T0 = 1755500000.25;
const DIR = `claims/messages/${TL}`;
const CLAIM = `${DIR}/${ITEM}.claim`;
const DEAD = 7001;
const alive = (pid: number) => pid !== DEAD;

const wake = (n: number) => n.toString(16).padStart(32, "0");

/** A store with injected identity, clock and liveness. */
function store(home: string, n: number, extra: Partial<ClaimStoreOptions> = {}): ClaimStore {
  return new ClaimStore(home, {
    wakeId: wake(n),
    pid: 5000 + n,
    now: () => T0,
    isAlive: alive,
    ...extra,
  });
}

Deno.test("a claim is born populated by a hard link, leaving no temp", () =>
  withHome(async (home) => {
    const a = store(home, 1);
    assert.equal(await a.claim("messages", TL, ITEM), "won");
    assert.equal(
      await read(home, CLAIM),
      `{"phase": "in-flight", "pid": 5001, "wake": "${wake(1)}", "at": 1755500000.25}`,
    );
    assert.deepEqual(await tree(home), [CLAIM]);
    assert.equal(await a.claim("messages", TL, ITEM), "lost", "a second claim never wins");
    assert.equal(await store(home, 2).claim("messages", TL, ITEM), "lost");
    assert.deepEqual(await tree(home), [CLAIM], "the losers' temps are gone too");
  }));

Deno.test("names are quote()d: a timeline or item with reserved characters", () =>
  withHome(async (home) => {
    const a = store(home, 1);
    assert.equal(await a.claim("webhook_events", "tl:1/2", "it em"), "won");
    assert.deepEqual(await tree(home), ["claims/webhook_events/tl%3A1%2F2/it%20em.claim"]);
    assert.deepEqual(await a.unsettled("webhook_events", "tl:1/2"), ["it em"]);
  }));

Deno.test("two stores racing on each of 25 items: exactly one winner per item", () =>
  withHome(async (home) => {
    const a = store(home, 1);
    const b = store(home, 2);
    for (let i = 0; i < 25; i++) {
      const item = `item-${i}`;
      const outcomes = await Promise.all([
        a.claim("assets", TL, item),
        b.claim("assets", TL, item),
      ]);
      assert.equal(outcomes.filter((o) => o === "won").length, 1, `item ${i}: ${outcomes}`);
      const winner = outcomes[0] === "won" ? a : b;
      assert.equal((await a.read("assets", TL, item))?.wake, winner.wakeId);
    }
  }));

Deno.test("commit and abandon rewrite by rename: exact bytes, no temp left", () =>
  withHome(async (home) => {
    const a = store(home, 1, { now: () => 1755500100 });
    await a.claim("tasks", TL, ITEM);
    await a.commit("tasks", TL, ITEM);
    const path = `claims/tasks/${TL}/${ITEM}.claim`;
    assert.equal(
      await read(home, path),
      '{"phase": "done", "pid": null, "wake": null, "at": 1755500100.0}',
    );
    await a.abandon("tasks", TL, ITEM, "side effects ran — unsafe to re-drive");
    assert.equal(
      await read(home, path),
      '{"phase": "abandoned", "pid": null, "wake": null, "at": 1755500100.0, ' +
        '"reason": "side effects ran \\u2014 unsafe to re-drive"}',
    );
    assert.deepEqual(await tree(home), [path]);
    assert.deepEqual(await a.read("tasks", TL, ITEM), {
      phase: "abandoned",
      pid: null,
      wake: null,
      at: 1755500100,
      reason: "side effects ran — unsafe to re-drive",
    });
  }));

Deno.test("reading: missing is none, empty (legacy) is done, corrupt is done with a WARNING", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    const a = store(home, 1, { journal });
    assert.equal(await a.read("messages", TL, ITEM), undefined);
    await put(home, CLAIM, "");
    assert.equal((await a.read("messages", TL, ITEM))?.phase, "done");
    assert.deepEqual(journal.lines, []);
    await put(home, CLAIM, '{"phase": "in-fli');
    assert.equal((await a.read("messages", TL, ITEM))?.phase, "done");
    assert.deepEqual(journal.lines, [
      `WARNING Unreadable claim record at ${join(home, CLAIM)}; treating it as done rather ` +
      "than re-driving an item we cannot reason about.",
    ]);
    assert.equal(await a.claim("messages", TL, ITEM), "lost", "a legacy/corrupt claim is held");
  }));

Deno.test("unsettled lists in-flight claims only, decoded and sorted", () =>
  withHome(async (home) => {
    const a = store(home, 1);
    for (const item of ["c", "a", "b:1", "d", "e"]) await a.claim("messages", TL, item);
    await a.commit("messages", TL, "d");
    await a.abandon("messages", TL, "e", "no");
    await put(home, `${DIR}/legacy.claim`, "");
    await put(home, `${DIR}/corrupt.claim`, "{");
    await put(
      home,
      `${DIR}/.x.takeover.${wake(9)}`,
      encodeClaimRecord({
        phase: "in-flight",
        pid: 1,
        wake: wake(9),
        at: 1,
      }),
    );
    assert.deepEqual(await a.unsettled("messages", TL), ["a", "b:1", "c"]);
    assert.deepEqual(await a.unsettled("messages", "nowhere"), []);
  }));

Deno.test("orphan rules: wake, same pid, dead pid, 6 h age, settled", () => {
  let now = T0;
  const me = store("/nonexistent", 1, { now: () => now });
  const rec = (pid: number | null, w: string, at: number | null = T0) => ({
    phase: "in-flight",
    pid,
    wake: w,
    at,
  });
  assert.equal(me.isOrphaned(rec(5001, wake(1))), false, "this very wake");
  assert.equal(me.isOrphaned(rec(5001, wake(2))), true, "an earlier wake of this process");
  assert.equal(me.isOrphaned(rec(DEAD, wake(2))), true, "dead pid");
  assert.equal(me.isOrphaned(rec(null, wake(2))), true, "no pid recorded");
  assert.equal(me.isOrphaned(rec(6000, wake(2))), false, "live pid, young");
  now = T0 + 6 * 3600;
  assert.equal(me.isOrphaned(rec(6000, wake(2))), false, "exactly 6 h is not stale yet");
  now = T0 + 6 * 3600 + 0.5;
  assert.equal(me.isOrphaned(rec(6000, wake(2))), true, "older than 6 h: a reused pid");
  assert.equal(me.isOrphaned(rec(6000, wake(2), null)), true, "no `at` counts as ancient");
  for (const phase of ["done", "abandoned"]) {
    assert.equal(me.isOrphaned({ ...rec(DEAD, wake(2)), phase }), false, phase);
  }
});

Deno.test("take-over of an orphan: token names the dead owner, claim rewritten to the taker", () =>
  withHome(async (home) => {
    const dead = store(home, 1, { pid: DEAD, now: () => T0 - 7 * 3600 });
    await dead.claim("messages", TL, ITEM);
    const taker = store(home, 2);
    assert.equal(taker.isOrphaned((await taker.owner("messages", TL, ITEM))!), true);
    assert.equal(await taker.takeOver("messages", TL, ITEM), true);
    const mine = `{"phase": "in-flight", "pid": 5002, "wake": "${wake(2)}", "at": 1755500000.25}`;
    assert.equal(await read(home, CLAIM), mine);
    assert.equal(await read(home, `${DIR}/.${ITEM}.takeover.${wake(1)}`), mine);
    assert.deepEqual(await tree(home), [`${DIR}/.${ITEM}.takeover.${wake(1)}`, CLAIM]);
    // The taker is alive and young: nobody else may take it now, and it is not its own orphan.
    assert.equal(await store(home, 3).takeOver("messages", TL, ITEM), false);
    assert.equal(await taker.takeOver("messages", TL, ITEM), false);
    assert.equal((await taker.read("messages", TL, ITEM))?.wake, wake(2));
  }));

Deno.test("a live owner's claim, or a settled one, is never taken over", () =>
  withHome(async (home) => {
    const owner = store(home, 1);
    await owner.claim("messages", TL, ITEM);
    assert.equal(await store(home, 2).takeOver("messages", TL, ITEM), false);
    await owner.commit("messages", TL, ITEM);
    assert.equal(await store(home, 2).takeOver("messages", TL, ITEM), false);
    assert.equal(await store(home, 2).takeOver("messages", TL, "never-claimed"), false);
    // Even a CAS against a stale judgement backs off once the item is settled.
    assert.equal(await store(home, 3).takeOver("messages", TL, ITEM, wake(1)), false);
    assert.equal((await owner.read("messages", TL, ITEM))?.phase, "done");
  }));

Deno.test("CAS race: two wakes taking over the same orphan — exactly one wins", () =>
  withHome(async (home) => {
    for (let round = 0; round < 20; round++) {
      const item = `orphan-${round}`;
      await store(home, 100 + round, { pid: DEAD }).claim("messages", TL, item);
      const b = store(home, 1);
      const c = store(home, 2);
      const results = await Promise.all([
        b.takeOver("messages", TL, item),
        c.takeOver("messages", TL, item),
      ]);
      assert.equal(results.filter(Boolean).length, 1, `round ${round}: ${results}`);
      const winner = results[0] ? b : c;
      assert.equal((await b.owner("messages", TL, item))?.wake, winner.wakeId);
    }
  }));

Deno.test("CAS with a judged owner: a taker that judged a stale owner loses", () =>
  withHome(async (home) => {
    await store(home, 1, { pid: DEAD }).claim("messages", TL, ITEM);
    const b = store(home, 2);
    const c = store(home, 3);
    const judgedByBoth = (await b.owner("messages", TL, ITEM))!.wake;
    assert.equal(await b.takeOver("messages", TL, ITEM, judgedByBoth), true);
    assert.equal(await c.takeOver("messages", TL, ITEM, judgedByBoth), false);
    assert.equal((await c.read("messages", TL, ITEM))?.wake, b.wakeId);
  }));

Deno.test("chain: a take-over that died before rewriting the claim is followed and recovered", () =>
  withHome(async (home) => {
    await store(home, 1, { pid: DEAD }).claim("messages", TL, ITEM);
    // Wake 2 won the token from wake 1, then died before rewriting the claim file.
    const token1 = `${DIR}/.${ITEM}.takeover.${wake(1)}`;
    await put(
      home,
      token1,
      encodeClaimRecord({ phase: "in-flight", pid: DEAD, wake: wake(2), at: T0 }),
    );
    const c = store(home, 3);
    assert.equal((await c.read("messages", TL, ITEM))?.wake, wake(1), "the file lags");
    assert.equal((await c.owner("messages", TL, ITEM))?.wake, wake(2), "the chain does not");
    assert.equal(await c.takeOver("messages", TL, ITEM), true, "judged wake 2, took it from 2");
    assert.ok((await tree(home)).includes(`${DIR}/.${ITEM}.takeover.${wake(2)}`));
    assert.equal((await c.owner("messages", TL, ITEM))?.wake, wake(3));
    // A fourth wake cannot win the token from wake 1 again: that owner's token is spent.
    assert.equal(await store(home, 4).takeOver("messages", TL, ITEM, wake(1)), false);
  }));

Deno.test("chain following stops at 16 hops and on a cycle", () =>
  withHome(async (home) => {
    await store(home, 0, { pid: DEAD }).claim("messages", TL, ITEM);
    for (let n = 0; n < 20; n++) {
      await put(
        home,
        `${DIR}/.${ITEM}.takeover.${wake(n)}`,
        encodeClaimRecord({ phase: "in-flight", pid: DEAD, wake: wake(n + 1), at: T0 }),
      );
    }
    const c = store(home, 99);
    assert.equal((await c.owner("messages", TL, ITEM))?.wake, wake(16));
    // A corrupt cycle (20 → 0) ends where the wake repeats rather than spinning.
    await Deno.writeTextFile(
      join(home, `${DIR}/.${ITEM}.takeover.${wake(3)}`),
      encodeClaimRecord({ phase: "in-flight", pid: DEAD, wake: wake(0), at: T0 }),
    );
    assert.equal((await c.owner("messages", TL, ITEM))?.wake, wake(0));
  }));

Deno.test("default liveness: this process is alive, a reaped child is not", async () => {
  assert.equal(processAlive(Deno.pid), true);
  const child = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).spawn();
  const pid = child.pid;
  await child.status;
  assert.equal(processAlive(pid), false);
  assert.equal(processAlive(0), true, "a process group is never judged dead");
  assert.equal(processAlive(2 ** 30), false, "beyond any pid the kernel hands out");
});

Deno.test("default wake ids are 32 lowercase hex and fresh per store", () =>
  withHome((home) => {
    const a = new ClaimStore(home);
    const b = new ClaimStore(home);
    assert.match(a.wakeId, /^[0-9a-f]{32}$/);
    assert.notEqual(a.wakeId, b.wakeId);
    assert.equal(a.pid, Deno.pid);
    return Promise.resolve();
  }));

Deno.test("a liveness snapshot judges each claim's pid once, and asks later for the rest", () =>
  withHome(async (home) => {
    await store(home, 1, { pid: 41 }).claim("messages", TL, "a");
    await store(home, 2, { pid: 42 }).claim("tasks", TL, "b");
    await put(
      home,
      `${DIR}/.a.takeover.${wake(1)}`,
      encodeClaimRecord({ phase: "in-flight", pid: 43, wake: wake(3), at: T0 }),
    );
    const asked: number[] = [];
    const probe = (pid: number) => (asked.push(pid), pid === 42);
    const isAlive = livenessSnapshot(home, TL, probe);
    assert.deepEqual(asked.sort(), [41, 42, 43]);
    assert.deepEqual([isAlive(41), isAlive(42), isAlive(43)], [false, true, false]);
    assert.equal(asked.length, 3, "answered from the snapshot");
    isAlive(44);
    assert.deepEqual(asked.slice(3), [44]);
  }));

Deno.test("a liveness snapshot skips settled claims without judging them, however many", () =>
  withHome(async (home) => {
    // A long-lived timeline: many committed and abandoned claims, one legacy empty one, and a
    // single in-flight claim among them.
    for (let i = 0; i < 300; i++) {
      await put(
        home,
        `${DIR}/done-${i}.claim`,
        encodeClaimRecord({ phase: "done", pid: null, wake: null, at: T0 }),
      );
    }
    await put(
      home,
      `${DIR}/gave-up.claim`,
      encodeClaimRecord({ phase: "abandoned", pid: null, wake: null, at: T0, reason: "billing" }),
    );
    await put(home, `${DIR}/legacy.claim`, "");
    await store(home, 1, { pid: 4242 }).claim("messages", TL, "live");
    const asked: number[] = [];
    const isAlive = livenessSnapshot(home, TL, (pid) => (asked.push(pid), true));
    assert.deepEqual(asked, [4242]);
    assert.equal(isAlive(4242), true);
    assert.equal(asked.length, 1);
  }));
