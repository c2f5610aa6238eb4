/**
 * What cleanup removes (docs/operating.md#what-is-deleted): exactly one timeline's transcript (and
 * its stranded temps), marks, seen-set, claims and escalation directories, breaker, billing and working-state files — never
 * memory.db and its journals, never another timeline's files, never a non-timeline session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { purgeTimeline, timelinesOnDisk } from "../../lib/home/cleanup.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { ITEM, put, TL, TL2, tree, withHome } from "./helpers.ts";

const Q = `timeline%3A${TL}`;

/** Everything one timeline owns, as the harness lays it out. */
const OWNED = [
  `sessions/${Q}.json`,
  `sessions/${Q}.json.4213-9f2c0a1b.tmp`,
  `sessions/${Q}.json.77.tmp`,
  `marks/${TL}.txt`,
  `marks/${TL}.txt.4213-0a0b0c0d.tmp`,
  `marks/assets/${TL}.txt`,
  `marks/webhook_events/${TL}.txt`,
  `seen/tasks/${TL}.txt`,
  `claims/messages/${TL}/${ITEM}.claim`,
  `claims/messages/${TL}/.${ITEM}.takeover.0123456789abcdef0123456789abcdef`,
  `claims/messages/${TL}/${ITEM}.claim.4213.tmp`,
  `claims/tasks/${TL}/${ITEM}.claim`,
  `breaker/${TL}.wakes`,
  `breaker/${TL}.tripped`,
  `breaker/${TL}.last`,
  `billing/${TL}.blocked`,
  `working_state/${TL}.json`,
  `working_state/${TL}.json.4213-0a0b0c0d.tmp`,
];

/** What must survive any purge of TL. */
const KEPT = [
  "memory.db",
  "memory.db-wal",
  "memory.db-shm",
  "recall.db",
  "recall.db-wal",
  "recall.db-shm",
  "mempalace/conversations/abc.md",
  "mempalace/chroma.sqlite3",
  "sessions/github%3Aowner%2Frepo.json",
  "sessions/notes.txt",
  `sessions/timeline%3A${TL2}.json`,
  `marks/${TL2}.txt`,
  `marks/assets/${TL2}.txt`,
  `seen/tasks/${TL2}.txt`,
  `claims/messages/${TL2}/${ITEM}.claim`,
  `breaker/${TL2}.wakes`,
  `breaker/${TL2}.last`,
  `billing/${TL2}.blocked`,
  `working_state/${TL2}.json`,
  `working_state/${TL}.txt`,
  `breaker/${TL}.other`,
  `billing/${TL}.blocked.bak`,
  `unrelated/${TL}.txt`,
  `${TL}.txt`,
];

async function fakeHome(home: string): Promise<void> {
  for (const rel of [...OWNED, ...KEPT]) await put(home, rel, "x");
}

Deno.test("timelinesOnDisk finds every referenced timeline once, sorted", () =>
  withHome(async (home) => {
    assert.deepEqual(await timelinesOnDisk(home), []);
    await fakeHome(home);
    await put(home, "claims/assets/tl%3Aodd/x.claim", "");
    await put(home, "claims/not-a-dir", "");
    assert.deepEqual(await timelinesOnDisk(home), [TL, TL2, "tl:odd"].sort());
  }));

Deno.test("purge removes exactly the timeline's artifacts and returns them", () =>
  withHome(async (home) => {
    await fakeHome(home);
    const journal = new MemoryJournal();
    const removed = await purgeTimeline(home, TL, journal);
    const expectedPaths = OWNED.filter((rel) => !rel.startsWith("claims/"))
      .concat([`claims/messages/${TL}`, `claims/tasks/${TL}`])
      .map((rel) => join(home, rel));
    assert.deepEqual([...removed].sort(), expectedPaths.sort());
    assert.equal(removed.length, 16, "14 files and 2 claims directories");
    const left = await tree(home);
    // Folders emptied by the purge stay (they belong to the layout, not the timeline).
    assert.deepEqual(left, [...KEPT, "claims/tasks/", "marks/webhook_events/"].sort());
    assert.deepEqual(journal.lines, []);
    // Idempotent: nothing left to purge.
    assert.deepEqual(await purgeTimeline(home, TL, journal), []);
    assert.deepEqual(await tree(home), left);
  }));

Deno.test("purging a timeline with quoted names matches the decoded uuid", () =>
  withHome(async (home) => {
    await put(home, "sessions/timeline%3Atl%2F1.json", "[]");
    await put(home, "marks/tl%2F1.txt", "m");
    await put(home, "claims/messages/tl%2F1/a.claim", "");
    const removed = await purgeTimeline(home, "tl/1", new MemoryJournal());
    assert.equal(removed.length, 3);
    assert.deepEqual(await tree(home), ["claims/messages/", "marks/", "sessions/"]);
  }));

Deno.test("one undeletable path is reported and the rest are still removed", () =>
  withHome(async (home) => {
    await fakeHome(home);
    const journal = new MemoryJournal();
    const stuck = join(home, `marks/assets/${TL}.txt`);
    const removed = await purgeTimeline(home, TL, journal, async (path) => {
      if (path === stuck) throw new Deno.errors.PermissionDenied("Permission denied (os error 13)");
      await Deno.remove(path, { recursive: true });
    });
    assert.equal(removed.length, 15);
    assert.ok(!removed.includes(stuck));
    assert.deepEqual(journal.lines, [
      `WARNING cleanup: could not remove ${stuck}: Permission denied (os error 13)`,
    ]);
    const left = await tree(home);
    assert.ok(left.includes(`marks/assets/${TL}.txt`));
    for (const rel of OWNED.filter((r) => r !== `marks/assets/${TL}.txt`)) {
      assert.ok(!left.includes(rel), `${rel} should be gone`);
    }
  }));

Deno.test("purge removes the timeline's escalation marks directory, not another's", () =>
  withHome(async (home) => {
    await put(home, `escalations/${TL}/${ITEM}.json`, "{}");
    await put(home, `escalations/${TL2}/${ITEM}.json`, "{}");
    assert.deepEqual(await timelinesOnDisk(home), [TL, TL2].sort());
    const removed = await purgeTimeline(home, TL, new MemoryJournal());
    assert.deepEqual(removed, [join(home, `escalations/${TL}`)]);
    assert.deepEqual(await tree(home), [`escalations/${TL2}/${ITEM}.json`]);
  }));
