/**
 * Retention: pruning drops whole UTC days of the oldest records, leaves an anchor naming the last
 * one dropped, and the remaining chain — and every record appended after — still verifies; a
 * prune interrupted before the rewrite verifies from genesis; an unreadable anchor, a genesis
 * record pasted into a pruned chain and a head naming another record at the anchor are named.
 */
import assert from "node:assert/strict";
import {
  anchorPath,
  appendTurnRecord,
  canonicalJson,
  headPath,
  parseAnchor,
  pruneRecords,
  retentionCutoff,
  verifyRecords,
  witnessPath,
} from "../../../lib/home/records/mod.ts";
import { chainLines, putLines, TL, TL2, turnInput, withHome } from "./fixture.ts";

const day = (d: number, hour = 12) => new Date(Date.UTC(2026, 10, d, hour));

/** One record per day, Nov 1..n, written at noon UTC. */
async function history(home: string, days: number) {
  const out = [];
  for (let d = 1; d <= days; d++) {
    out.push(await appendTurnRecord(home, turnInput(d), { now: () => day(d) }));
  }
  return out;
}

Deno.test("the cutoff is a UTC midnight: retention_days whole days before today", () => {
  assert.equal(retentionCutoff(day(10, 23), 3).toISOString(), "2026-11-07T00:00:00.000Z");
  assert.equal(retentionCutoff(day(10, 0), 1).toISOString(), "2026-11-09T00:00:00.000Z");
});

Deno.test("pruning keeps the window, anchors the last dropped record, and verify stays green", async () => {
  await withHome(async (home) => {
    const records = await history(home, 10);
    const report = await pruneRecords(home, 3, day(10, 8)); // keep Nov 7, 8, 9, 10
    assert.deepEqual(report, { removed: 6, chains: 1, cutoff: "2026-11-07T00:00:00.000Z" });
    const lines = await chainLines(home);
    assert.deepEqual(lines.map((l) => JSON.parse(l).seq), [7, 8, 9, 10]);
    const anchor = parseAnchor(await Deno.readTextFile(anchorPath(home, TL)));
    assert.equal(anchor?.seq, 6);
    assert.equal(anchor?.record_hash, records[5].record_hash);
    const verified = await verifyRecords(home);
    assert.equal(verified.ok, true, JSON.stringify(verified.bad));
    assert.equal(verified.records, 4);
    // The chain goes on from where it was; pruning again is idempotent.
    await appendTurnRecord(home, turnInput(11), { now: () => day(11) });
    assert.equal((await pruneRecords(home, 3, day(10, 9))).removed, 0);
    assert.equal((await verifyRecords(home)).ok, true);
  });
});

Deno.test("a chain pruned to nothing continues from its anchor, and verifies", async () => {
  await withHome(async (home) => {
    await history(home, 3);
    assert.equal((await pruneRecords(home, 1, day(20))).removed, 3);
    assert.deepEqual(await chainLines(home), [""]);
    assert.equal((await verifyRecords(home)).ok, true); // the head names the anchored record
    const next = await appendTurnRecord(home, turnInput(4), { now: () => day(20) });
    assert.equal(next.seq, 4);
    const verified = await verifyRecords(home);
    assert.equal(verified.ok, true, JSON.stringify(verified.bad));
    assert.equal(verified.records, 1);
  });
});

Deno.test("an edit before the cutoff stops pruning there, and verify still names it", async () => {
  await withHome(async (home) => {
    await history(home, 6);
    const path = `${home}/records/${TL}.jsonl`;
    const lines = (await Deno.readTextFile(path)).split("\n");
    lines[2] = lines[2].replace('"steps":2', '"steps":3'); // seq 3 edited
    await Deno.writeTextFile(path, lines.join("\n"));
    assert.equal((await pruneRecords(home, 1, day(30))).removed, 2);
    const verified = await verifyRecords(home);
    assert.equal(verified.ok, false);
    assert.equal(verified.bad[0].reason, "edited");
    assert.equal(verified.bad[0].line, 1);
  });
});

Deno.test("an anchor that does not match the first remaining record fails verify as removed", async () => {
  await withHome(async (home) => {
    await history(home, 5);
    await pruneRecords(home, 2, day(5)); // drops Nov 1, 2
    const path = `${home}/records/${TL}.jsonl`;
    const [, ...rest] = await chainLines(home); // drop one more by hand, not through pruning
    await Deno.writeTextFile(path, `${rest.join("\n")}\n`);
    const verified = await verifyRecords(home);
    assert.equal(verified.ok, false);
    assert.equal(verified.bad[0].reason, "removed");
  });
});

Deno.test("a prune interrupted before the rewrite (anchor written, genesis still first) verifies", async () => {
  await withHome(async (home) => {
    const records = await history(home, 5);
    const anchor = { at: records[1].at, pruned_at: day(9).toISOString() };
    await Deno.writeTextFile(
      anchorPath(home, TL),
      `${canonicalJson({ ...anchor, record_hash: records[1].record_hash, seq: 2 })}\n`,
    );
    const verified = await verifyRecords(home);
    assert.equal(verified.ok, true, JSON.stringify(verified.bad));
    assert.equal(verified.records, 5);
  });
});

Deno.test("an anchor that cannot be read fails verify as invalid at line 1", async () => {
  await withHome(async (home) => {
    await history(home, 4);
    await pruneRecords(home, 1, day(4));
    await Deno.writeTextFile(anchorPath(home, TL), "{not an anchor");
    const verified = await verifyRecords(home);
    assert.equal(verified.ok, false);
    assert.deepEqual(
      [verified.bad[0].line, verified.bad[0].reason, verified.bad[0].detail],
      [1, "invalid", "the anchor file is unreadable"],
    );
  });
});

Deno.test("a chain's first record pasted into a pruned chain is `reordered`, not a gap", async () => {
  await withHome(async (home) => {
    await history(home, 5);
    await appendTurnRecord(home, turnInput(1, { timeline: TL2 }), { now: () => day(1) });
    const [first] = await chainLines(home, TL2); // a genesis record, whole and well hashed
    await pruneRecords(home, 2, day(5)); // TL keeps Nov 3, 4, 5 after its anchor
    const lines = await chainLines(home);
    await putLines(home, [lines[0], first, ...lines.slice(1)]);
    const bad = (await verifyRecords(home, { timeline: TL })).bad[0];
    assert.deepEqual([bad.line, bad.reason], [2, "reordered"]);
    assert.match(bad.detail, /claims to be a chain's first record but is not the first line/);
  });
});

Deno.test("a head naming another record at the anchor's seq is `edited`", async () => {
  await withHome(async (home) => {
    const records = await history(home, 3);
    await pruneRecords(home, 1, day(20)); // pruned to nothing: the head names the anchored record
    await Deno.remove(witnessPath(home)); // the head is the one witness left
    await Deno.writeTextFile(
      headPath(home, TL),
      `${canonicalJson({ record_hash: records[0].record_hash, seq: 3 })}\n`,
    );
    const verified = await verifyRecords(home);
    assert.equal(verified.ok, false);
    assert.equal(verified.bad[0].reason, "edited");
    assert.match(verified.bad[0].detail, /its head names another record at seq 3/);
  });
});
