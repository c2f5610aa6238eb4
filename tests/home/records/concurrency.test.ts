/**
 * Two processes appending to one timeline's chain at once. The router serialises a timeline's
 * wakes, so this should not happen in production; if it does (a manual `harness wake` beside the
 * router), the writer's exclusive lock makes the appenders take turns and the chain stays
 * linear: valid, gap-free, every record present. (A writer that skips the lock forks the chain,
 * which verify names as `fork`: see verify.test.ts.)
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { appendTurnRecord, statsRecords, verifyRecords } from "../../../lib/home/records/mod.ts";
import { waitFor } from "../../support/wait_for.ts";
import { chainLines, TL, turnInput, withHome } from "./fixture.ts";

const WORKER = fileURLToPath(new URL("./append_worker.ts", import.meta.url));
const EACH = 40;

function appender(home: string, tag: string, gate: string): Promise<Deno.CommandOutput> {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", WORKER, home, TL, String(EACH), tag, gate],
    stdout: "piped",
    stderr: "piped",
  }).output();
}

Deno.test("concurrency: two appender processes on one chain leave a valid linear chain", async () => {
  await withHome(async (home) => {
    // Both workers boot, say so, and start appending together once told to.
    const gate = await Deno.makeTempDir({ prefix: "append-gate-" });
    try {
      const running = Promise.all([appender(home, "a", gate), appender(home, "b", gate)]);
      await waitFor("both appenders to be ready", async () => {
        const names = (await Array.fromAsync(Deno.readDir(gate))).map((e) => e.name);
        return names.includes("ready-a") && names.includes("ready-b");
      }, { ms: 120_000 });
      await Deno.writeTextFile(`${gate}/go`, "");
      const results = await running;
      for (const r of results) assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
    } finally {
      await Deno.remove(gate, { recursive: true });
    }
    const report = await verifyRecords(home);
    assert.deepEqual(report.bad, []);
    assert.equal(report.records, 2 * EACH);
    const wakes = (await chainLines(home)).map((line) => JSON.parse(line).wake_id as string);
    assert.equal(wakes.filter((w) => w.startsWith("a-")).length, EACH);
    assert.equal(wakes.filter((w) => w.startsWith("b-")).length, EACH);
    // The two processes did overlap: their records interleave (otherwise this proves nothing).
    const switches = wakes.filter((w, i) => i > 0 && w[0] !== wakes[i - 1][0]).length;
    assert.ok(switches > 1, `the appenders ran one after the other (${switches} switch)`);
  });
});

Deno.test("concurrency: concurrent appends within one process also stay linear", async () => {
  await withHome(async (home) => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => appendTurnRecord(home, turnInput(i))),
    );
    const report = await verifyRecords(home);
    assert.deepEqual([report.ok, report.records], [true, 20]);
    assert.equal((await statsRecords(home))[0].turns, 20);
  });
});
