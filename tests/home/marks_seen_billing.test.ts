/**
 * Marks (docs/home-layout.md#marks), the task seen-set (docs/home-layout.md#the-task-seen-set) and
 * the billing marker (docs/home-layout.md#the-billing-marker): paths and bytes.
 */
import assert from "node:assert/strict";
import { readMark, writeMark } from "../../lib/home/marks.ts";
import { addSeen, readSeen } from "../../lib/home/seen.ts";
import {
  clearBillingBlocked,
  isBillingBlocked,
  markBillingBlocked,
} from "../../lib/home/billing.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { ITEM, put, read, TL, tree, withHome } from "./helpers.ts";

/** Item uuids, as the platform spells them. */
const M1 = "0197a6b3-0000-7000-8000-0000000000a1";
const M2 = "0197a6b3-0000-7000-8000-0000000000a2";
const A1 = "0197a6b3-0000-7000-8000-0000000000b1";
const E1 = "0197a6b3-0000-7000-8000-0000000000c1";

Deno.test("marks: messages flat, other kinds in a folder; one uuid, no newline", () =>
  withHome(async (home) => {
    await writeMark(home, "messages", TL, M1);
    await writeMark(home, "assets", TL, A1);
    await writeMark(home, "webhook_events", "tl:x", E1);
    assert.deepEqual(
      await tree(home),
      [
        "marks/assets/" + TL + ".txt",
        "marks/webhook_events/tl%3Ax.txt",
        "marks/" + TL + ".txt",
      ].sort(),
    );
    assert.equal(await read(home, `marks/${TL}.txt`), M1);
    assert.equal(await readMark(home, "messages", TL), M1);
    assert.equal(await readMark(home, "assets", TL), A1);
    assert.equal(await readMark(home, "webhook_events", "tl:x"), E1);
    await writeMark(home, "messages", TL, M2);
    assert.equal(await read(home, `marks/${TL}.txt`), M2, "replaced, not appended");
  }));

Deno.test("marks: one that is not an item id reads as no mark, with a WARNING naming the file", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    const path = `${home}/marks/assets/${TL}.txt`;
    for (
      const [bytes, shown] of [
        ["m-1", '3 character(s): "m-1"'],
        [`${ITEM.slice(0, 20)}`, `20 character(s): "${ITEM.slice(0, 20)}"`], // torn mid-write
        [`${ITEM}\n${ITEM}`, `73 character(s): "${`${ITEM}\n${ITEM}`.slice(0, 40)}…"`],
      ]
    ) {
      await put(home, `marks/assets/${TL}.txt`, bytes);
      assert.equal(await readMark(home, "assets", TL, journal), undefined, bytes);
      assert.equal(
        journal.lines.at(-1),
        `WARNING Mark file ${path} does not hold an item id (${shown.replace("\n", "\\n")}); ` +
          "reading it as no mark, so the assets first-wake inference decides where to start " +
          "and the next mark written replaces it.",
      );
    }
    assert.equal(journal.lines.length, 3);
    // A good mark, upper-case or padded, says nothing.
    await put(home, `marks/assets/${TL}.txt`, ` ${ITEM.toUpperCase()}\n`);
    assert.equal(await readMark(home, "assets", TL, journal), ITEM.toUpperCase());
    assert.equal(journal.lines.length, 3);
  }));

Deno.test("marks: a mark that cannot be read at all is not guessed at: it throws", () =>
  withHome(async (home) => {
    await Deno.mkdir(`${home}/marks/${TL}.txt`, { recursive: true });
    await assert.rejects(readMark(home, "messages", TL, new MemoryJournal()));
  }));

Deno.test("marks: missing or blank means no mark; a Python-written mark is stripped", () =>
  withHome(async (home) => {
    assert.equal(await readMark(home, "messages", TL), undefined);
    await put(home, `marks/${TL}.txt`, "  \n");
    assert.equal(await readMark(home, "messages", TL), undefined);
    await put(home, `marks/assets/${TL}.txt`, ` ${ITEM}\n`);
    assert.equal(await readMark(home, "assets", TL), ITEM);
  }));

Deno.test("seen-set: appended `uuid\\n` lines, read as a set of stripped non-empty lines", () =>
  withHome(async (home) => {
    assert.deepEqual(await readSeen(home, TL), new Set());
    await addSeen(home, TL, "t-1");
    await addSeen(home, TL, ["t-2", "t-3"]);
    await addSeen(home, TL, []);
    assert.equal(await read(home, `seen/tasks/${TL}.txt`), "t-1\nt-2\nt-3\n");
    await Deno.writeTextFile(`${home}/seen/tasks/${TL}.txt`, "\n  t-4 \r\nt-1\n", {
      append: true,
    });
    assert.deepEqual(await readSeen(home, TL), new Set(["t-1", "t-2", "t-3", "t-4"]));
  }));

Deno.test("billing marker: float repr of the onset, present until cleared", () =>
  withHome(async (home) => {
    assert.equal(await isBillingBlocked(home, TL), false);
    await markBillingBlocked(home, TL, 1755500000);
    assert.equal(await read(home, `billing/${TL}.blocked`), "1755500000.0");
    assert.equal(await isBillingBlocked(home, TL), true);
    await markBillingBlocked(home, "tl:2", 1755500000.123456);
    assert.equal(await read(home, "billing/tl%3A2.blocked"), "1755500000.123456");
    await clearBillingBlocked(home, TL);
    await clearBillingBlocked(home, TL); // already gone: fine
    assert.equal(await isBillingBlocked(home, TL), false);
    assert.equal(await isBillingBlocked(home, "tl:2"), true, "per timeline");
  }));
