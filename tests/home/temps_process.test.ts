/**
 * Stranded temps across real processes (docs/home-layout.md#stranded-temp-files): a writer
 * SIGKILLed half-way through saving a large transcript leaves its temp beside the transcript,
 * and the next sweep of that timeline removes it; a writer still at work keeps its temp through
 * the sweep and finishes its save.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { parseTempName } from "../../lib/base/atomic_write.ts";
import { livenessSnapshot } from "../../lib/home/liveness.ts";
import { sweepStaleTemps } from "../../lib/home/temps.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { put, TL, tree, withHome } from "./helpers.ts";

const CHILD = new URL("./temp_writer_child.ts", import.meta.url).pathname;
const SESSION = `sessions/timeline%3A${TL}.json`;
/** A large save (32 MiB), so the half on disk is a real stranded copy. */
const SIZE = 32 * 1024 * 1024;

/** Starts a writer saving `SIZE` bytes to the transcript; resolves once it is mid-write. */
async function startWriter(home: string) {
  const gate = await Deno.makeTempDir({ prefix: "temp-gate-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-write",
      CHILD,
      join(home, SESSION),
      String(SIZE),
      gate,
    ],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const deadline = Date.now() + 60_000;
  let temp: string | undefined;
  while (temp === undefined) {
    assert.ok(Date.now() < deadline, "the writer never started its temp");
    temp = await Deno.readTextFile(join(gate, "writing")).catch(() => undefined);
    if (temp === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    child,
    temp,
    go: () => Deno.writeTextFile(join(gate, "go"), ""),
    [Symbol.asyncDispose]: async () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.status;
      await Deno.remove(gate, { recursive: true });
    },
  };
}

Deno.test("a save SIGKILLed mid-write strands its temp; the next sweep of the timeline removes it", () =>
  withHome(async (home) => {
    await put(home, SESSION, "[]");
    await using writer = await startWriter(home);
    assert.equal(parseTempName(basename(writer.temp))?.pid, writer.child.pid);
    writer.child.kill("SIGKILL");
    const status = await writer.child.status;
    assert.equal(status.signal, "SIGKILL");
    // What the kill left: the old transcript intact, and half a new one beside it.
    assert.equal(await Deno.readTextFile(join(home, SESSION)), "[]");
    assert.equal((await Deno.stat(writer.temp)).size, SIZE / 2);

    const journal = new MemoryJournal();
    const result = sweepStaleTemps(home, TL, { isAlive: livenessSnapshot(home, TL), journal });
    assert.deepEqual(result, { removed: [writer.temp], bytes: SIZE / 2 });
    assert.deepEqual(journal.lines, [
      `INFO Removed stale temp file ${writer.temp} (${SIZE / 2} bytes): its writer ` +
      `(pid ${writer.child.pid}) is gone.`,
    ]);
    assert.deepEqual(await tree(home), [SESSION]);
    assert.equal(await Deno.readTextFile(join(home, SESSION)), "[]");
  }));

Deno.test("a live writer's temp survives the sweep, and its save completes", () =>
  withHome(async (home) => {
    await put(home, SESSION, "[]");
    await using writer = await startWriter(home);
    const journal = new MemoryJournal();
    const result = sweepStaleTemps(home, TL, { isAlive: livenessSnapshot(home, TL), journal });
    assert.deepEqual(result, { removed: [], bytes: 0 });
    assert.deepEqual(journal.lines, []);
    assert.equal((await Deno.stat(writer.temp)).size, SIZE / 2);

    await writer.go();
    const status = await writer.child.status;
    assert.equal(status.code, 0);
    assert.equal((await Deno.stat(join(home, SESSION))).size, SIZE);
    assert.deepEqual(await tree(home), [SESSION], "renamed into place, no temp left");
  }));
