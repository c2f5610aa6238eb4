/**
 * What `records verify` catches beyond the chain's own links (docs/records.md#what-verify-detects):
 * records cut off the end with the head removed (or rewritten to match) too — the witness log
 * still names the last record written; a longer chain without its head; lines with CRLF endings
 * or re-spelled JSON. And what it accepts: chains written before the witness log, a chain
 * retired and started afresh, a witness one record behind after a crash, and — still
 * undetectable — a cut with the head and the witness log removed down to a one-record chain.
 */
import assert from "node:assert/strict";
import {
  appendTurnRecord,
  canonicalJson,
  chainPath,
  headPath,
  verifyRecords,
  witnessPath,
} from "../../../lib/home/records/mod.ts";
import { chainLines, putLines, TL, TL2, turnInput, withHome, writeChain } from "./fixture.ts";

const N = 6;

async function firstBad(home: string) {
  const report = await verifyRecords(home);
  assert.equal(report.ok, false, "the damage went unnoticed");
  assert.equal(report.bad.length, 1);
  return report.bad[0];
}

Deno.test("verify: a cut tail with its head removed too is `removed`, named by the witness log", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    await writeChain(home, 2, TL2); // another chain's lines share the log
    await putLines(home, (await chainLines(home)).slice(0, 3));
    await Deno.remove(headPath(home, TL));
    const bad = await firstBad(home);
    assert.deepEqual([bad.timeline, bad.line, bad.reason], [TL, 4, "removed"]);
    assert.match(bad.detail, /ends at seq 3 but the witness log says seq 6 was written/);
  });
});

Deno.test("verify: a cut tail with a head forged to match is `removed`, named by the witness log", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    const kept = (await chainLines(home)).slice(0, 4);
    await putLines(home, kept);
    const last = JSON.parse(kept[3]);
    await Deno.writeTextFile(
      headPath(home, TL),
      `${canonicalJson({ record_hash: last.record_hash, seq: last.seq })}\n`,
    );
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [5, "removed"]);
    assert.match(bad.detail, /the witness log says seq 6/);
  });
});

Deno.test("verify: a chain of two or more records without a head is `invalid` even without the witness log", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    await putLines(home, (await chainLines(home)).slice(0, 2));
    await Deno.remove(headPath(home, TL));
    await Deno.remove(witnessPath(home));
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [3, "invalid"]);
    assert.match(bad.detail, /the head file is missing \(a chain of 2 records always has one\)/);
  });
});

Deno.test("verify: what is still not detected — cut to one record with the head and the witness log gone", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    await putLines(home, (await chainLines(home)).slice(0, 1));
    await Deno.remove(headPath(home, TL));
    await Deno.remove(witnessPath(home));
    // Indistinguishable from a first turn whose head was never written (a crash between the two).
    assert.equal((await verifyRecords(home)).ok, true);
  });
});

Deno.test("verify: chains written before the witness log, and a witness one record behind, verify", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    await Deno.remove(witnessPath(home)); // as an older writer left the box
    await writeChain(home, 3, TL2);
    assert.deepEqual([(await verifyRecords(home)).ok, (await verifyRecords(home)).records], [
      true,
      N + 3,
    ]);
    // A crash after the append and the head, before the witness line: the log lags by one.
    const log = (await Deno.readTextFile(witnessPath(home))).trim().split("\n");
    await Deno.writeTextFile(witnessPath(home), `${log.slice(0, -1).join("\n")}\n`);
    assert.equal((await verifyRecords(home)).ok, true);
  });
});

Deno.test("verify: a chain retired by moving its files aside, then started afresh, verifies", async () => {
  await withHome(async (home) => {
    await writeChain(home, N);
    await Deno.rename(chainPath(home, TL), `${home}/retired.jsonl`);
    await Deno.rename(headPath(home, TL), `${home}/retired.head`);
    const later = new Date(Date.now() + 60_000);
    await appendTurnRecord(home, turnInput(1), { now: () => later });
    assert.equal((await verifyRecords(home)).ok, true);
    // Even when the new chain's first witness line was lost to a crash.
    const log = (await Deno.readTextFile(witnessPath(home))).trim().split("\n");
    await Deno.writeTextFile(witnessPath(home), `${log.slice(0, -1).join("\n")}\n`);
    assert.equal((await verifyRecords(home)).ok, true);
  });
});

Deno.test("verify: CRLF line endings are `invalid` at the first line, naming the carriage return", async () => {
  await withHome(async (home) => {
    await writeChain(home, 3);
    const lines = await chainLines(home);
    await Deno.writeTextFile(chainPath(home, TL), lines.map((l) => `${l}\r\n`).join(""));
    const bad = await firstBad(home);
    assert.deepEqual([bad.line, bad.reason], [1, "invalid"]);
    assert.match(bad.detail, /carriage return \(CRLF line endings\)/);
  });
});

Deno.test("verify: a line re-spelled with its content intact is `invalid`, not canonical", async () => {
  const respellings: [string, (line: string) => string][] = [
    ["a space after the first key", (line) => line.replace('":', '": ')],
    ["keys in reverse order", (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(Object.fromEntries(Object.entries(parsed).reverse()));
    }],
    [
      "a letter escaped",
      (line) => line.replace('"provider":"openai"', '"provider":"\\u006fpenai"'),
    ],
  ];
  for (const [what, respell] of respellings) {
    await withHome(async (home) => {
      await writeChain(home, 3);
      const lines = await chainLines(home);
      lines[1] = respell(lines[1]);
      assert.deepEqual(JSON.parse(lines[1]), JSON.parse((await chainLines(home))[1]), what);
      await putLines(home, lines);
      const bad = await firstBad(home);
      assert.deepEqual([bad.line, bad.reason], [2, "invalid"], what);
      assert.match(bad.detail, /not in the canonical encoding the writer produces/, what);
    });
  }
});
