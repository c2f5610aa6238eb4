/**
 * The wake breaker (docs/operating.md#the-wake-breaker) with an injected clock: trip, decline,
 * reset, file bytes, texts.
 */
import assert from "node:assert/strict";
import { recordAndCheck } from "../../lib/home/breaker.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { put, read, TL, tree, withHome } from "./helpers.ts";

const T0 = 1755500000;
const WAKES = `breaker/${TL}.wakes`;
const TRIPPED = `breaker/${TL}.tripped`;

const TRIPPED_TEXT = (count: number, window: string, max: number) =>
  `WARNING Wake breaker TRIPPED for timeline ${TL}: ${count} wakes within ${window}s exceeds ` +
  `the cap of ${max}. Self-declining (no provider call) until the burst clears; an operator ` +
  "can reset by clearing the trip marker under HARNESS_HOME.";
const RESET_TEXT = `WARNING Wake breaker RESET for timeline ${TL}: the wake burst cleared; ` +
  "resuming normal operation.";

function checker(home: string, journal: MemoryJournal, max = 3, window = 60, cooldown = 60) {
  return (now: number) =>
    recordAndCheck(home, TL, {
      max,
      windowSeconds: window,
      cooldownSeconds: cooldown,
      now,
      journal,
    });
}

Deno.test("trips on the wake past the cap, once, then declines; resets after the cooldown", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    const check = checker(home, journal);
    for (let i = 0; i < 3; i++) assert.equal(await check(T0 + i), "proceed", `wake ${i}`);
    assert.deepEqual(journal.lines, []);
    assert.equal(
      await read(home, WAKES),
      "1755500000.0\n1755500001.0\n1755500002.0\n",
      "one float repr per line",
    );

    assert.equal(await check(T0 + 3.5), "declined");
    assert.equal(await read(home, TRIPPED), "1755500003.5", "trip time, no newline");
    assert.deepEqual(journal.lines, [TRIPPED_TEXT(4, "60.0", 3)]);

    // Still inside the burst: declined, and no second TRIPPED line.
    assert.equal(await check(T0 + 10), "declined");
    assert.equal(journal.lines.length, 1);

    // The window has drained (only 2 stamps inside) but the cooldown has not passed.
    assert.equal(await check(T0 + 62), "declined");
    // Cooldown passed and the count is within the cap: reset, window restarts at now.
    assert.equal(await check(T0 + 64), "proceed");
    assert.deepEqual(journal.lines, [TRIPPED_TEXT(4, "60.0", 3), RESET_TEXT]);
    assert.equal(await read(home, WAKES), "1755500064.0\n");
    assert.deepEqual(await tree(home), [WAKES], "the trip marker is gone");
    assert.equal(await check(T0 + 65), "proceed");
  }));

Deno.test("a tripped timeline stays declined while the wakes keep coming, cooldown or not", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    const check = checker(home, journal, 2, 10, 5);
    for (let i = 0; i < 3; i++) await check(T0 + i);
    assert.equal(journal.lines.length, 1);
    // A steady 1/s stream: count stays above the cap, so the cooldown alone does not reset.
    for (let t = 3; t < 30; t++) assert.equal(await check(T0 + t), "declined", `t=${t}`);
    assert.equal(journal.lines.length, 1);
  }));

Deno.test("the window is printed as a Python float; the cap and count as ints", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    const check = checker(home, journal, 1, 2.5, 1);
    await check(T0);
    assert.equal(await check(T0 + 1), "declined");
    assert.deepEqual(journal.lines, [TRIPPED_TEXT(2, "2.5", 1)]);
  }));

Deno.test("max ≤ 0 disables the breaker: always proceed, nothing written", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    for (const max of [0, -1]) {
      const check = checker(home, journal, max);
      for (let i = 0; i < 20; i++) assert.equal(await check(T0), "proceed");
    }
    assert.deepEqual(await tree(home), []);
    assert.deepEqual(journal.lines, []);
  }));

Deno.test("corrupt window lines are skipped and said; an unparseable trip marker is not a trip, said and removed", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    await put(home, WAKES, `garbage\n${T0 - 1}\n\n0x10\n1_755_499_999.5\n${T0 - 100}\n`);
    await put(home, TRIPPED, "not a time");
    const check = checker(home, journal, 5);
    assert.equal(await check(T0), "proceed");
    assert.equal(await read(home, WAKES), "1755499999.0\n1755499999.5\n1755500000.0\n");
    assert.deepEqual(journal.lines, [
      `WARNING Wake breaker window ${home}/${WAKES} has 2 line(s) that are not timestamps; ` +
      "they are skipped and dropped from the file, and the window counts the 3 readable one(s).",
      `WARNING Wake breaker trip marker ${home}/${TRIPPED} does not hold a timestamp ` +
      '("not a time"); the timeline counts as not tripped, the marker is removed, and the ' +
      "breaker trips again if the burst goes on.",
    ]);
    assert.deepEqual(await tree(home), [WAKES], "the corrupt marker is gone");
    // Said once: the rewritten window and the removed marker read clean on the next wake.
    assert.equal(await check(T0 + 1), "proceed");
    assert.equal(journal.lines.length, 2);
  }));

Deno.test("an empty trip marker (a write torn by a kill) is said, and a burst trips again", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    await put(home, TRIPPED, "");
    const check = checker(home, journal, 1);
    assert.equal(await check(T0), "proceed");
    assert.match(
      journal.lines[0],
      /^WARNING Wake breaker trip marker .*\.tripped does not hold a timestamp \(""\)/,
    );
    assert.equal(await check(T0 + 1), "declined");
    assert.equal(await read(home, TRIPPED), "1755500001.0");
    assert.deepEqual(journal.lines.slice(1), [TRIPPED_TEXT(2, "60.0", 1)]);
  }));

Deno.test("a clock function is accepted as well as a number", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    const verdict = await recordAndCheck(home, TL, {
      max: 1,
      windowSeconds: 60,
      cooldownSeconds: 60,
      now: () => T0,
      journal,
    });
    assert.equal(verdict, "proceed");
    assert.equal(await read(home, WAKES), "1755500000.0\n");
  }));
