/**
 * The stranded-temp sweep (docs/home-layout.md#stranded-temp-files) on real files and real pids:
 * which names count as a timeline's temps, a dead writer's temp goes at once, a live writer's and
 * this process's stay until the stale age, a temp of an unknown naming scheme goes by age only,
 * other timelines and non-temps are never touched, and the liveness snapshot carries the
 * writers' pids across a dropped run permission.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempPathFor } from "../../lib/base/atomic_write.ts";
import { livenessSnapshot, processAlive } from "../../lib/home/liveness.ts";
import { sweepStaleTemps, TEMP_STALE_AFTER_SECONDS, timelineTemps } from "../../lib/home/temps.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { ITEM, put, runChild, TL, TL2, tree, withHome } from "./helpers.ts";

/** A pid that is certainly not running: a child that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" })
    .spawn();
  await child.status;
  return child.pid;
}

/** A process that stays alive until disposed (a writer still at work). */
function livePid(): { pid: number } & AsyncDisposable {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "setTimeout(() => {}, 600_000)"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    pid: child.pid,
    async [Symbol.asyncDispose]() {
      child.kill("SIGKILL");
      await child.status;
    },
  };
}

/** The base name of a temp `pid` would write for `rel`, relative to the home. */
function tempOf(rel: string, pid: number): string {
  return tempPathFor(rel, pid);
}

/** Sets a file's modification time `seconds` into the past. */
async function age(home: string, rel: string, seconds: number): Promise<void> {
  const when = new Date(Date.now() - seconds * 1000);
  await Deno.utime(join(home, rel), when, when);
}

const SESSION = `sessions/timeline%3A${TL}.json`;

Deno.test("a timeline's temps: beside each of its files and in its claims folders, nothing else", () =>
  withHome(async (home) => {
    const pid = 4242;
    const mine = [
      tempOf(SESSION, pid),
      tempOf(`marks/${TL}.txt`, pid),
      tempOf(`marks/assets/${TL}.txt`, pid),
      tempOf(`marks/webhook_events/${TL}.txt`, pid),
      tempOf(`seen/tasks/${TL}.txt`, pid),
      tempOf(`breaker/${TL}.wakes`, pid),
      tempOf(`breaker/${TL}.tripped`, pid),
      tempOf(`billing/${TL}.blocked`, pid),
      tempOf(`records/${TL}.head`, pid),
      tempOf(`records/${TL}.jsonl`, pid),
      `claims/messages/${TL}/${ITEM}.claim.${pid}.tmp`, // a claim commit's temp
    ];
    const noPid = [
      `sessions/timeline%3A${TL}.json.1a2b3c.tmp`, // an older scheme: no pid
      `claims/tasks/${TL}/.${ITEM}.${"a".repeat(32)}.new`, // a claim birth's temp
      `claims/assets/${TL}/.${ITEM}.${"b".repeat(32)}.takeover.new`, // a take-over's temp
    ];
    const others = [
      SESSION,
      `marks/${TL}.txt`,
      `claims/messages/${TL}/${ITEM}.claim`,
      `claims/messages/${TL}/.settled`,
      `claims/messages/${TL}/.${ITEM}.takeover.${"c".repeat(32)}`, // a token, not a temp
      tempOf(`sessions/timeline%3A${TL2}.json`, pid), // another timeline's
      tempOf(`marks/${TL2}.txt`, pid),
      tempOf(`claims/messages/${TL2}/${ITEM}.claim`, pid),
      tempOf(`sessions/github%3Apr-1.json`, pid), // another source's
      tempOf("memory.db", pid),
      `marks/${TL}.txt.tmp.bak`,
    ];
    for (const rel of [...mine, ...noPid, ...others]) await put(home, rel, "x");
    await Deno.mkdir(join(home, tempOf(`marks/${TL}.txt`, 7)), { recursive: true }); // a folder
    const found = timelineTemps(home, TL).map((t) => [t.path.slice(home.length + 1), t.pid]);
    assert.deepEqual(
      found.sort(),
      [...mine.map((rel) => [rel, pid]), ...noPid.map((rel) => [rel, undefined])].sort(),
    );
  }));

Deno.test("a dead writer's temp goes at once; a live writer's and this process's stay", () =>
  withHome(async (home) => {
    await using live = livePid();
    const dead = await deadPid();
    const gone = tempOf(SESSION, dead);
    const alive = tempOf(SESSION, live.pid);
    const own = tempOf(`marks/${TL}.txt`, Deno.pid);
    await put(home, SESSION, "[]");
    await put(home, gone, "x".repeat(1000));
    await put(home, alive, "y");
    await put(home, own, "z");
    const journal = new MemoryJournal();
    const result = sweepStaleTemps(home, TL, { isAlive: processAlive, journal });
    assert.deepEqual(result, { removed: [join(home, gone)], bytes: 1000 });
    assert.deepEqual(journal.lines, [
      `INFO Removed stale temp file ${join(home, gone)} (1000 bytes): its writer (pid ${dead}) ` +
      "is gone.",
    ]);
    assert.deepEqual(await tree(home), [alive, own, SESSION].sort());
  }));

Deno.test("past the stale age every temp goes; younger than it, a live or unknown writer's stays", () =>
  withHome(async (home) => {
    await using live = livePid();
    const old = TEMP_STALE_AFTER_SECONDS + 60;
    const liveOld = tempOf(SESSION, live.pid); // a pid since reused by another process
    const liveYoung = tempOf(`marks/${TL}.txt`, live.pid);
    const foreignOld = `sessions/timeline%3A${TL}.json.abcdef.tmp`;
    const foreignYoung = `marks/${TL}.txt.abcdef.tmp`;
    const linkOld = `claims/messages/${TL}/.${ITEM}.${"a".repeat(32)}.new`;
    const ownOld = tempOf(`breaker/${TL}.wakes`, Deno.pid);
    for (const rel of [liveOld, liveYoung, foreignOld, foreignYoung, linkOld, ownOld]) {
      await put(home, rel, "t");
    }
    for (const rel of [liveOld, foreignOld, linkOld, ownOld]) await age(home, rel, old);
    await age(home, foreignYoung, TEMP_STALE_AFTER_SECONDS - 600);
    const journal = new MemoryJournal();
    const { removed } = sweepStaleTemps(home, TL, { isAlive: processAlive, journal });
    assert.deepEqual(
      removed.map((path) => path.slice(home.length + 1)).sort(),
      [liveOld, foreignOld, linkOld, ownOld].sort(),
    );
    assert.deepEqual(
      await tree(home),
      [
        "breaker/",
        `claims/messages/${TL}/`,
        foreignYoung,
        liveYoung,
        "sessions/",
      ].sort(),
    );
    const reasons = journal.lines.map((line) => line.replace(/^.* bytes\): /, "")).sort();
    assert.deepEqual(
      reasons,
      [
        `untouched for over 6 h (its name names no writer).`,
        `untouched for over 6 h (its name names no writer).`,
        `untouched for over 6 h (pid ${Deno.pid} is alive).`,
        `untouched for over 6 h (pid ${live.pid} is alive).`,
      ].sort(),
    );
  }));

Deno.test("the sweep never throws: an unreadable folder or temp is a WARNING and it goes on", {
  ignore: Deno.uid() === 0, // root reads and removes regardless of modes
}, () =>
  withHome(async (home) => {
    const dead = await deadPid();
    const stuck = tempOf(`marks/${TL}.txt`, dead);
    const freed = tempOf(SESSION, dead);
    await put(home, stuck, "x");
    await put(home, freed, "y");
    await Deno.mkdir(join(home, "seen", "tasks"), { recursive: true });
    await Deno.chmod(join(home, "marks"), 0o500); // listable, but nothing can be removed
    await Deno.chmod(join(home, "seen", "tasks"), 0o000); // not even listable
    try {
      const journal = new MemoryJournal();
      const { removed } = sweepStaleTemps(home, TL, { isAlive: processAlive, journal });
      assert.deepEqual(removed, [join(home, freed)]);
      assert.equal(journal.lines.length, 3, journal.lines.join("\n"));
      assert.ok(
        journal.lines.some((l) =>
          l.startsWith(`WARNING Could not look for stale temp files in ${home}/seen/tasks: `)
        ),
      );
      assert.ok(
        journal.lines.some((l) =>
          l.startsWith(`WARNING Could not remove stale temp file ${join(home, stuck)}: `)
        ),
      );
    } finally {
      await Deno.chmod(join(home, "marks"), 0o700);
      await Deno.chmod(join(home, "seen", "tasks"), 0o700);
    }
  }));

Deno.test("without the run permission a dead writer looks alive, unless snapshotted first", () =>
  withHome(async (home) => {
    const dead = await deadPid();
    const temp = tempOf(SESSION, dead);
    const child = new URL("./temp_sweep_child.ts", import.meta.url);
    const run = async (mode: string) => {
      await put(home, temp, "stranded");
      return await runChild(child, [mode, home, TL]);
    };
    assert.equal(await run("plain"), "removed 0", "cannot tell, so it must keep the temp");
    assert.deepEqual(await tree(home), [temp]);
    assert.equal(await run("snapshot"), "removed 1", "judged before the permission went");
    assert.deepEqual(await tree(home), ["sessions/"]);
  }));

Deno.test("the liveness snapshot judges the writers of a timeline's temps once each", () =>
  withHome(async (home) => {
    const asked: number[] = [];
    const gone = [tempOf(SESSION, 101), tempOf(`marks/${TL}.txt`, 101)];
    const writing = tempOf(`records/${TL}.head`, 102);
    const elsewhere = tempOf(`marks/${TL2}.txt`, 103);
    for (const rel of [...gone, writing, elsewhere]) await put(home, rel, "t");
    const isAlive = livenessSnapshot(home, TL, (pid) => (asked.push(pid), pid === 102));
    assert.deepEqual(asked.sort(), [101, 102]);
    const { removed } = sweepStaleTemps(home, TL, { isAlive });
    assert.deepEqual(removed.map((path) => path.slice(home.length + 1)).sort(), gone.sort());
    assert.deepEqual(await tree(home), [elsewhere, writing, "sessions/"].sort());
    assert.deepEqual(asked.sort(), [101, 102], "the sweep asked nothing new");
  }));
