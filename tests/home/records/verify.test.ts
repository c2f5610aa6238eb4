/**
 * The chain verifier against the damage it exists to catch: an edited field, a deleted line
 * (first, middle, last), two swapped lines, a file cut mid-line, an appended garbage line, a
 * duplicated line, a fork, a re-linked chain whose `seq` does not count up — each named at the
 * right line with the right reason.
 */
import assert from "node:assert/strict";
import { appendFile, readFile, truncate, writeFile } from "node:fs/promises";
import {
  canonicalJson,
  chainPath,
  headPath,
  recordHash,
  verifyRecords,
  witnessPath,
} from "../../../lib/home/records/mod.ts";
import { chainLines, putLines, TL, TL2, withHome, writeChain } from "./fixture.ts";

const N = 6;

/** The one bad record of a damaged single-timeline home. */
async function firstBad(home: string) {
  const report = await verifyRecords(home);
  assert.equal(report.ok, false, "the damage went unnoticed");
  assert.equal(report.bad.length, 1);
  return report.bad[0];
}

Deno.test("verify: an intact chain of N records verifies", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    const report = await verifyRecords(home);
    assert.equal(report.ok, true);
    assert.equal(report.records, N);
    assert.deepEqual(report.chains.map((c) => [c.timeline, c.records]), [[TL, N]]);
  });
});

Deno.test("verify: no records folder is ok with nothing counted", async () => {
  await withHome(async (home) => {
    const report = await verifyRecords(home);
    assert.deepEqual([report.ok, report.records, report.chains.length], [true, 0, 0]);
  });
});

Deno.test("verify: an edited field is `edited` at its line", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    const lines = await chainLines(home);
    lines[3] = lines[3].replace('"tokens_out":50', '"tokens_out":5');
    assert.ok(lines[3].includes('"tokens_out":5}'));
    await putLines(home, lines);
    const bad = await firstBad(home);
    assert.deepEqual([bad.file, bad.line, bad.reason], [`records/${TL}.jsonl`, 4, "edited"]);
    assert.equal(bad.timeline, TL);
  });
});

Deno.test("verify: an added field is an edit too", async () => {
  await withHome(async (home) => {
    await writeChain(home, 3);
    const lines = await chainLines(home);
    lines[1] = lines[1].replace("{", '{"note":"hi",');
    await putLines(home, lines);
    assert.deepEqual([(await firstBad(home)).line, (await firstBad(home)).reason], [2, "edited"]);
  });
});

Deno.test("verify: an edited record that was re-hashed breaks the next link", async () => {
  await withHome(async (home) => {
    const records = await writeChain(home, N);
    const forged: Record<string, unknown> = { ...records[2], steps: 99 };
    forged.record_hash = recordHash(forged);
    const lines = await chainLines(home);
    lines[2] = canonicalJson(forged);
    await putLines(home, lines);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [4, "removed"]);
    assert.match(bad.detail, /edited and re-hashed/);
  });
});

Deno.test("verify: a deleted middle line is `removed` where the gap is", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    const lines = await chainLines(home);
    lines.splice(2, 1); // record 3 gone: record 4 now sits on line 3
    await putLines(home, lines);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [3, "removed"]);
  });
});

Deno.test("verify: a deleted first line is `removed` at line 1", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    await putLines(home, (await chainLines(home)).slice(1));
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [1, "removed"]);
    assert.match(bad.detail, /first record/);
  });
});

Deno.test("verify: a deleted last line is `removed` one past the end (the head remembers)", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    await putLines(home, (await chainLines(home)).slice(0, -1));
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [N, "removed"]);
    assert.match(bad.detail, /ends at seq 5 but its head says seq 6/);
  });
});

Deno.test("verify: a deleted chain file with its head left behind is `removed`", async () => {
  await withHome(async (home) => {
    await writeChain(home, 2);
    await Deno.remove(chainPath(home, TL));
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [1, "removed"]);
  });
});

Deno.test("verify: two swapped lines are `reordered` at the first of them", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    const lines = await chainLines(home);
    [lines[2], lines[3]] = [lines[3], lines[2]];
    await putLines(home, lines);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [3, "reordered"]);
    assert.match(bad.detail, /chains onto line 4 \(a later line\)/);
  });
});

Deno.test("verify: the first line moved to the end is `reordered`", async () => {
  await withHome(async (home) => {
    await writeChain(home, 3);
    const lines = await chainLines(home);
    await putLines(home, [...lines.slice(1), lines[0]]);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [1, "reordered"]);
  });
});

Deno.test("verify: a file cut mid-line is `torn` at the cut line", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    const size = (await Deno.stat(chainPath(home, TL))).size;
    await truncate(chainPath(home, TL), size - 40);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [N, "torn"]);
    assert.match(bad.detail, /ends mid-line/);
  });
});

Deno.test("verify: an appended garbage line is `invalid` at its line", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    await appendFile(chainPath(home, TL), "this is not a record\n");
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [N + 1, "invalid"]);
    assert.match(bad.detail, /not JSON/);
  });
});

Deno.test("verify: appended garbage without a newline is `torn`", async () => {
  await withHome(async (home) => {
    await writeChain(home, 2);
    await appendFile(chainPath(home, TL), "oops");
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [3, "torn"]);
  });
});

Deno.test("verify: a duplicated line is `duplicate`", async () => {
  await withHome(async (home) => {
    await writeChain(home, 3);
    const lines = await chainLines(home);
    await putLines(home, [...lines, lines[1]]);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [4, "duplicate"]);
    assert.match(bad.detail, /line 2/);
  });
});

Deno.test("verify: two records chaining onto one are a `fork`", async () => {
  await withHome(async (home) => {
    await writeChain(home, 3);
    const lines = await chainLines(home);
    // A writer that skipped the lock: it read the same tail as the writer of line 3.
    const sibling: Record<string, unknown> = { ...JSON.parse(lines[2]), record_id: "other" };
    sibling.record_hash = recordHash(sibling);
    await putLines(home, [...lines, canonicalJson(sibling)]);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [4, "fork"]);
    assert.match(bad.detail, /same record as line 3/);
  });
});

Deno.test("verify: a well-hashed record of the wrong shape is `invalid`", async () => {
  await withHome(async (home) => {
    await writeChain(home, 1);
    const lines = await chainLines(home);
    const odd: Record<string, unknown> = { ...JSON.parse(lines[0]), outcome: "maybe" };
    odd.record_hash = recordHash(odd);
    await putLines(home, [canonicalJson(odd)]);
    await writeFile(headPath(home, TL), "");
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [1, "invalid"]);
    assert.match(bad.detail, /outcome/);
  });
});

Deno.test("verify: one bad line per damaged chain; --timeline narrows to one", async () => {
  await withHome(async (home) => {
    await writeChain(home, 3, TL);
    await writeChain(home, 2, TL2);
    await appendFile(chainPath(home, TL2), "junk\n");
    const all = await verifyRecords(home);
    assert.equal(all.ok, false);
    assert.deepEqual(all.bad.map((b) => [b.timeline, b.line]), [[TL2, 3]]);
    assert.equal(all.records, 5);
    const one = await verifyRecords(home, { timeline: TL });
    assert.deepEqual([one.ok, one.records], [true, 3]);
  });
});

Deno.test("verify: the head file is read, not trusted blindly", async () => {
  await withHome(async (home) => {
    await writeChain(home, 2);
    assert.ok((await readFile(headPath(home, TL), "utf8")).includes('"seq":2'));
    await writeFile(headPath(home, TL), "{not json");
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [3, "invalid"]);
  });
});

/**
 * Rewrites records from `from` on with `seqs` (one per record), re-hashing each and re-linking
 * the next onto it, and leaves a head naming the new last record: a chain whose links all hold
 * but whose numbering does not (a writer that lost count, or a hand-forged chain).
 */
function renumbered(records: readonly Record<string, unknown>[], seqs: readonly number[]) {
  const out: string[] = [];
  let prev = records[0].prev_hash;
  records.forEach((record, i) => {
    const copy: Record<string, unknown> = { ...record, seq: seqs[i], prev_hash: prev };
    delete copy.record_hash;
    copy.record_hash = recordHash(copy);
    prev = copy.record_hash;
    out.push(canonicalJson(copy));
  });
  const last = JSON.parse(out.at(-1)!);
  return {
    lines: out,
    head: `${canonicalJson({ record_hash: last.record_hash, seq: last.seq })}\n`,
  };
}

Deno.test("verify: a well-linked chain whose seq repeats or skips is `invalid` at that line", async () => {
  await withHome(async (home) => {
    const records = await writeChain(home, 5);
    await Deno.remove(witnessPath(home)); // the head and the links are the only witnesses left
    for (
      const [seqs, line, detail] of [
        [[1, 2, 2, 3, 4], 3, "seq 2 where 3 was due"],
        [[1, 2, 3, 5, 6], 4, "seq 5 where 4 was due"],
        [[3, 4, 5, 6, 7], 1, "seq 3 where 1 was due"],
      ] as const
    ) {
      const { lines, head } = renumbered(records, seqs);
      await putLines(home, lines);
      await writeFile(headPath(home, TL), head);
      const bad = await firstBad(home);
      assert.deepEqual([bad.line, bad.reason, bad.detail], [line, "invalid", detail]);
    }
    // The same surgery with the right numbers verifies: the numbering alone was the fault.
    const { lines, head } = renumbered(records, [1, 2, 3, 4, 5]);
    await putLines(home, lines);
    await writeFile(headPath(home, TL), head);
    assert.equal((await verifyRecords(home)).ok, true);
  });
});

Deno.test("verify: a lone record that does not start at seq 1 is `invalid`", async () => {
  await withHome(async (home) => {
    const records = await writeChain(home, 1);
    await Deno.remove(witnessPath(home));
    await Deno.remove(headPath(home, TL)); // a one-record chain may lack its head
    await putLines(home, renumbered(records, [2]).lines);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason, bad.detail], [1, "invalid", "seq 2 where 1 was due"]);
  });
});

Deno.test("verify: a chain rewritten whole, its head to match, is `edited` by the witness log", async () => {
  await withHome(async (home) => {
    const records = await writeChain(home, 4);
    // Every record re-hashed and re-linked with one field changed: the links and the head hold.
    const edited = records.map((r, i) => i === 1 ? { ...r, steps: 9 } : r);
    const { lines, head } = renumbered(edited, [1, 2, 3, 4]);
    await putLines(home, lines);
    await writeFile(headPath(home, TL), head);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [4, "edited"]);
    assert.match(
      bad.detail,
      /the witness log names another record at seq 4: the chain was rewritten/,
    );
  });
});

Deno.test("verify: a record of another version, however well hashed, is `invalid`", async () => {
  await withHome(async (home) => {
    const records = await writeChain(home, 2);
    const { lines, head } = renumbered(records.map((r) => ({ ...r, version: 2 })), [1, 2]);
    await putLines(home, lines);
    await writeFile(headPath(home, TL), head);
    await Deno.remove(witnessPath(home));
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason, bad.detail], [
      1,
      "invalid",
      "record version 2 is not 1",
    ]);
  });
});

Deno.test("verify: a blank line is `invalid` and says so", async () => {
  await withHome(async (home) => {
    await writeChain(home, 3);
    const lines = await chainLines(home);
    await putLines(home, [lines[0], "", ...lines.slice(1)]);
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason, bad.detail], [2, "invalid", "blank line"]);
  });
});
