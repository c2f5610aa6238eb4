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
import { ITEM, put, read, TL, tree, withHome } from "./helpers.ts";

Deno.test("marks: messages flat, other kinds in a folder; one uuid, no newline", () =>
  withHome(async (home) => {
    await writeMark(home, "messages", TL, "m-1");
    await writeMark(home, "assets", TL, "a-1");
    await writeMark(home, "webhook_events", "tl:x", "e-1");
    assert.deepEqual(
      await tree(home),
      [
        "marks/assets/" + TL + ".txt",
        "marks/webhook_events/tl%3Ax.txt",
        "marks/" + TL + ".txt",
      ].sort(),
    );
    assert.equal(await read(home, `marks/${TL}.txt`), "m-1");
    assert.equal(await readMark(home, "messages", TL), "m-1");
    assert.equal(await readMark(home, "assets", TL), "a-1");
    assert.equal(await readMark(home, "webhook_events", "tl:x"), "e-1");
    await writeMark(home, "messages", TL, "m-2");
    assert.equal(await read(home, `marks/${TL}.txt`), "m-2", "replaced, not appended");
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
