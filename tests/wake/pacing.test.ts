/**
 * Read-speed pacing (loop 1 of docs/context.md#read-speed-pacing-aiai-conversations): the delay
 * math and the settle loop.
 */
import assert from "node:assert/strict";
import {
  type PaceConfig,
  paceDelaySeconds,
  PACING_FAILED,
  readSeconds,
  restartCapWarning,
  type SettleDeps,
  settleRead,
} from "../../lib/wake/pacing.ts";

const CFG: PaceConfig = { enabled: true, charsPerSec: 17, floorSeconds: 20, maxBuilds: 3 };
const T0 = Date.parse("2026-08-18T12:00:00Z");
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

Deno.test("readSeconds is max(floor, len/cps), counting code points", () => {
  assert.equal(readSeconds("hi", CFG), 20);
  assert.equal(readSeconds("x".repeat(680), CFG), 40);
  assert.equal(readSeconds("😀".repeat(680), CFG), 40); // code points, not UTF-16 units
});

Deno.test("cps ≤ 0 means read time 0: the floor only", () => {
  assert.equal(readSeconds("x".repeat(10_000), { ...CFG, charsPerSec: 0 }), 20);
  assert.equal(readSeconds("x".repeat(10_000), { ...CFG, charsPerSec: -5 }), 20);
  assert.equal(readSeconds("x", { ...CFG, charsPerSec: 0, floorSeconds: 0 }), 0);
});

Deno.test("the age is subtracted so only the remainder is waited", () => {
  const message = { body: "x".repeat(680), created_at: at(0) };
  assert.equal(paceDelaySeconds(message, T0, CFG), 40);
  assert.equal(paceDelaySeconds(message, T0 + 15_000, CFG), 25);
  assert.equal(paceDelaySeconds(message, T0 + 40_000, CFG), 0);
  assert.equal(paceDelaySeconds(message, T0 + 90_000, CFG), 0); // never negative
  // A message "from the future" (clock skew) has age 0: the full read time.
  assert.equal(paceDelaySeconds(message, T0 - 5_000, CFG), 40);
  // The floor applies before the age.
  assert.equal(paceDelaySeconds({ body: "hi", created_at: at(0) }, T0 + 5_000, CFG), 15);
});

Deno.test("an unparseable created_at is a pacing error", () => {
  assert.throws(() => paceDelaySeconds({ body: "x", created_at: "soon" }, T0, CFG));
});

/** A settle harness over a fake clock: sleeping advances it. */
function fake(options: {
  targets: ({ body: string; created_at: string } | undefined)[];
  rereads: boolean[];
  config?: Partial<PaceConfig>;
}) {
  let clock = T0;
  const slept: number[] = [];
  const warnings: string[] = [];
  let target = 0;
  let reread = 0;
  const deps: SettleDeps = {
    config: { ...CFG, ...options.config },
    timeline: "tl-1",
    warn: (text) => warnings.push(text),
    target: () => options.targets[Math.min(target++, options.targets.length - 1)],
    reread: () => Promise.resolve(options.rereads[reread++] ?? false),
    now: () => clock,
    sleep: (ms) => {
      slept.push(ms);
      clock += ms;
      return Promise.resolve();
    },
  };
  return { deps, slept, warnings, rereads: () => reread };
}

Deno.test("settle: an AI newest is slept on once, then re-read", async () => {
  const f = fake({ targets: [{ body: "hello", created_at: at(-5) }], rereads: [false] });
  const result = await settleRead(f.deps);
  assert.deepEqual(f.slept, [15_000]);
  assert.equal(f.rereads(), 1);
  assert.deepEqual(result, { sleptMs: 15_000, restarts: 0 });
  assert.deepEqual(f.warnings, []);
});

Deno.test("settle: no target (human newest or probe) ⇒ no delay, no re-read", async () => {
  const f = fake({ targets: [undefined], rereads: [] });
  assert.deepEqual(await settleRead(f.deps), { sleptMs: 0, restarts: 0 });
  assert.deepEqual(f.slept, []);
  assert.equal(f.rereads(), 0);
});

Deno.test("settle: pacing disabled ⇒ no delay", async () => {
  const f = fake({
    targets: [{ body: "hello", created_at: at(0) }],
    rereads: [],
    config: { enabled: false },
  });
  assert.deepEqual(await settleRead(f.deps), { sleptMs: 0, restarts: 0 });
  assert.deepEqual(f.slept, []);
});

Deno.test("settle: a new AI newest restarts the read on it", async () => {
  // The second message appeared 10 s into the first read: 20 − (20 − 10) = 10 s owed.
  const f = fake({
    targets: [{ body: "a", created_at: at(0) }, { body: "b", created_at: at(10) }],
    rereads: [true, false],
  });
  const result = await settleRead(f.deps);
  assert.deepEqual(f.slept, [20_000, 10_000]);
  assert.equal(result.restarts, 1);
  assert.deepEqual(f.warnings, []);
});

Deno.test("settle: a human arriving during the read ends it without further delay", async () => {
  const f = fake({ targets: [{ body: "a", created_at: at(0) }, undefined], rereads: [true] });
  const result = await settleRead(f.deps);
  assert.deepEqual(f.slept, [20_000]);
  assert.equal(result.restarts, 0);
});

Deno.test("settle: the restart cap stops the loop with a WARNING", async () => {
  let n = 0;
  const f = fake({ targets: [], rereads: [], config: { maxBuilds: 2 } });
  const deps: SettleDeps = {
    ...f.deps,
    target: () => ({ body: "again", created_at: at(n++ * 20) }),
    reread: () => Promise.resolve(true), // always something new
  };
  const result = await settleRead(deps);
  assert.equal(result.restarts, 2);
  assert.equal(f.slept.length, 3); // the first read + 2 restarts
  assert.deepEqual(f.warnings, [restartCapWarning(2, "tl-1")]);
  assert.match(f.warnings[0], /^Read-pace settle hit the 2-restart cap for timeline tl-1/);
});

Deno.test("settle: any pacing error ⇒ WARNING and no further delay", async () => {
  const bad = fake({ targets: [{ body: "a", created_at: "garbage" }], rereads: [] });
  assert.deepEqual(await settleRead(bad.deps), { sleptMs: 0, restarts: 0 });
  assert.deepEqual(bad.warnings, [PACING_FAILED]);
  assert.equal(PACING_FAILED, "Read-pacing failed; answering without further delay.");

  const f = fake({ targets: [{ body: "a", created_at: at(0) }], rereads: [] });
  const deps: SettleDeps = { ...f.deps, reread: () => Promise.reject(new Error("503")) };
  const result = await settleRead(deps);
  assert.deepEqual(f.slept, [20_000]);
  assert.equal(result.sleptMs, 20_000);
  assert.deepEqual(f.warnings, [PACING_FAILED]);
});
