/**
 * The witness log (docs/records.md#what-verify-detects): the writer names every record in it, one
 * canonical line each; retention keeps each chain's newest line only, and the pruned chains still
 * verify against it; a log that cannot be appended is a clear error naming what was written, and
 * a log whose name is taken by a directory is skipped by verify, which falls back on the heads.
 */
import assert from "node:assert/strict";
import {
  appendTurnRecord,
  canonicalJson,
  chainPath,
  headPath,
  parseWitnesses,
  pruneRecords,
  verifyRecords,
  witnessPath,
} from "../../../lib/home/records/mod.ts";
import { chainLines, putLines, TL, TL2, turnInput, withHome, writeChain } from "./fixture.ts";

const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12));

Deno.test("witness log: one canonical line per record; each timeline's last line is its newest record", async () => {
  await withHome(async (home) => {
    const a = await writeChain(home, 3, TL);
    const b = await writeChain(home, 2, TL2);
    const lines = (await Deno.readTextFile(witnessPath(home))).trimEnd().split("\n");
    assert.equal(lines.length, 5);
    assert.equal(
      lines[2],
      canonicalJson({ at: a[2].at, record_hash: a[2].record_hash, seq: 3, timeline: TL }),
    );
    const last = parseWitnesses(`${lines.join("\n")}\n{torn`);
    assert.deepEqual([last.get(TL)?.seq, last.get(TL2)?.record_hash], [3, b[1].record_hash]);
  });
});

Deno.test("retention keeps each chain's newest witness line, and a later cut is still caught", async () => {
  await withHome(async (home) => {
    for (let d = 1; d <= 6; d++) {
      await appendTurnRecord(home, turnInput(d), { now: () => day(d) });
      await appendTurnRecord(home, turnInput(d, { timeline: TL2 }), { now: () => day(d) });
    }
    assert.equal((await pruneRecords(home, 2, day(6))).removed, 6);
    const lines = (await Deno.readTextFile(witnessPath(home))).trimEnd().split("\n");
    assert.deepEqual(lines.map((l) => [JSON.parse(l).timeline, JSON.parse(l).seq]).sort(), [
      [TL, 6],
      [TL2, 6],
    ]);
    assert.equal((await verifyRecords(home)).ok, true);
    await putLines(home, (await chainLines(home)).slice(0, -1));
    await Deno.remove(headPath(home, TL));
    const report = await verifyRecords(home);
    assert.deepEqual(report.bad.map((b) => [b.timeline, b.reason]), [[TL, "removed"]]);
  });
});

Deno.test("witness log: an append that fails says the record and its head were written", async () => {
  await withHome(async (home) => {
    await Deno.mkdir(witnessPath(home), { recursive: true });
    await assert.rejects(
      () => appendTurnRecord(home, turnInput(1)),
      /record seq 1 and its head were written, but the witness log \(records\/witness\.log\) could not be appended: /,
    );
    assert.equal((await chainLines(home)).length, 1);
    assert.ok(await Deno.stat(headPath(home, TL)));
    await appendTurnRecord(home, turnInput(2)).catch(() => {});
    const report = await verifyRecords(home);
    assert.equal(report.ok, true, JSON.stringify(report.bad));
    assert.deepEqual(report.skipped, [
      { entry: "records/witness.log", why: "a directory, not the witness log" },
    ]);
    assert.ok(await Deno.stat(chainPath(home, TL)));
  });
});
