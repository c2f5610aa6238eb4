/**
 * The catch-up's round decision (docs/operating.md#catch-up-before-exit): which kinds are listed
 * again, how long a wake waits first, and that the rounds end. Pure, on a fake clock; end to end
 * in tests/e2e/wake_catch_up.test.ts.
 */
import assert from "node:assert/strict";
import {
  catchUp,
  MAX_CATCH_UP_ROUNDS,
  planCatchUp,
  startSecondEnd,
} from "../../lib/wake/catch_up.ts";
import type { ReadAheadKind } from "../../lib/wake/read_ahead.ts";
import type { Wake } from "../../lib/wake/wake_state.ts";
import { onlyOwn } from "../../lib/wake/window.ts";

const T = 1_796_075_529_000; // a whole second, epoch ms

Deno.test("the start second ends at the next whole second, even for a start on the boundary", () => {
  assert.equal(startSecondEnd(T), T + 1000);
  assert.equal(startSecondEnd(T + 1), T + 1000);
  assert.equal(startSecondEnd(T + 999.9), T + 1000);
  assert.equal(startSecondEnd(T + 1000), T + 2000);
});

Deno.test("an idle wake inside its start second waits for the boundary, then lists all four", () => {
  const boundary = startSecondEnd(T + 200);
  const listed = { messages: T + 250, assets: T + 250, webhook_events: T + 250, tasks: T + 250 };
  assert.deepEqual(planCatchUp({ now: T + 400, boundary, listedAt: listed, round: 0 }), {
    kinds: ["messages", "assets", "webhook_events", "tasks"],
    waitMs: 600,
  });
});

Deno.test("a wake whose turn passed the boundary lists again only what it listed before it, at once", () => {
  const boundary = startSecondEnd(T + 200);
  // The message turn ran 3 s: the other kinds were listed afresh after it.
  const listed = { messages: T + 250, assets: T + 3300, webhook_events: T + 3300, tasks: T + 3300 };
  assert.deepEqual(planCatchUp({ now: T + 3400, boundary, listedAt: listed, round: 0 }), {
    kinds: ["messages"],
    waitMs: 0,
  });
});

Deno.test("nothing is listed again once every listing was requested after the boundary", () => {
  const boundary = startSecondEnd(T + 900);
  const after = { messages: T + 1000, assets: T + 1000, webhook_events: T + 1001, tasks: T + 1200 };
  assert.equal(planCatchUp({ now: T + 1300, boundary, listedAt: after, round: 0 }), undefined);
  // Requested exactly at the boundary counts as after it; one millisecond before does not.
  const edge = { ...after, tasks: T + 999 };
  assert.deepEqual(planCatchUp({ now: T + 1300, boundary, listedAt: edge, round: 0 })?.kinds, [
    "tasks",
  ]);
  // A kind never listed (its reconcile did not get to it) counts as listed before.
  const { assets: _, ...noAssets } = after;
  assert.deepEqual(planCatchUp({ now: T + 1300, boundary, listedAt: noAssets, round: 0 })?.kinds, [
    "assets",
  ]);
});

Deno.test("the rounds are bounded even if listings keep predating the boundary", () => {
  const boundary = startSecondEnd(T);
  const stale = { messages: T, assets: T, webhook_events: T, tasks: T };
  assert.ok(planCatchUp({ now: T, boundary, listedAt: stale, round: MAX_CATCH_UP_ROUNDS - 1 }));
  assert.equal(
    planCatchUp({ now: T, boundary, listedAt: stale, round: MAX_CATCH_UP_ROUNDS }),
    undefined,
  );
});

Deno.test("catchUp waits until the clock has passed the boundary, then reconciles once", async () => {
  let now = T + 300;
  const listedAt: Partial<Record<ReadAheadKind, number>> = { messages: T + 100, assets: T + 100 };
  const calls: { at: number; kinds: ReadAheadKind[] }[] = [];
  const waits: number[] = [];
  // A timer whose first wait ends 2 ms early: the loop waits again rather than list inside the
  // second.
  const time = {
    now: () => now,
    sleep: (ms: number) => {
      now += waits.length ? ms : ms - 2;
      waits.push(ms);
      return Promise.resolve();
    },
  };
  await catchUp({ env: { catchUp: true }, startedAt: T + 50, listedAt }, (kinds) => {
    calls.push({ at: now, kinds });
    for (const kind of kinds) listedAt[kind] = now;
    return Promise.resolve();
  }, time);
  assert.deepEqual(waits, [701, 2]);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].at, T + 1001);
  assert.deepEqual(calls[0].kinds, ["messages", "assets", "webhook_events", "tasks"]);
});

Deno.test("catchUp does nothing when switched off (HARNESS_CATCH_UP=off)", async () => {
  let called = false;
  await catchUp({ env: { catchUp: false }, startedAt: T, listedAt: {} }, () => {
    called = true;
    return Promise.resolve();
  }, { now: () => T, sleep: () => Promise.resolve() });
  assert.equal(called, false);
});

Deno.test("the catch-up leaves a listing of nothing but the agent's own items alone", () => {
  const wake = (catchingUp: boolean) =>
    ({ catchingUp, context: { self: { uuid: "me" } } }) as unknown as Wake;
  const author = (item: { by?: string }) => item.by;
  const own = [{ by: "me" }, { by: "me" }];
  const mixed = [{ by: "me" }, { by: "bob" }];
  assert.equal(onlyOwn(wake(true), own, author), true);
  assert.equal(onlyOwn(wake(true), [], author), true); // nothing new at all
  assert.equal(onlyOwn(wake(true), mixed, author), false);
  assert.equal(onlyOwn(wake(true), [{}], author), false); // no author (a webhook delivery)
  // Outside the catch-up every listing is reconciled as it is.
  assert.equal(onlyOwn(wake(false), own, author), false);
});
