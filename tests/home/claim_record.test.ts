/**
 * Claim record bytes (docs/home-layout.md#claims): identical to Python's `json.dumps(record)`. The
 * expected strings below were produced once with python3 (`json.dumps({...})`) and are committed
 * as-is.
 */
import assert from "node:assert/strict";
import { encodeClaimRecord, isSettled, parseClaimRecord } from "../../lib/home/claim_record.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";

Deno.test("an in-flight record is Python's compact json.dumps, byte for byte", () => {
  assert.equal(
    encodeClaimRecord({
      phase: "in-flight",
      pid: 4242,
      wake: "0123456789abcdef0123456789abcdef",
      at: 1755500000.123456,
    }),
    '{"phase": "in-flight", "pid": 4242, "wake": "0123456789abcdef0123456789abcdef", ' +
      '"at": 1755500000.123456}',
  );
});

Deno.test("a whole-second `at` stays a float (1755500000.0), nulls are null", () => {
  assert.equal(
    encodeClaimRecord({ phase: "done", pid: null, wake: null, at: 1755500000 }),
    '{"phase": "done", "pid": null, "wake": null, "at": 1755500000.0}',
  );
});

Deno.test("an abandoned record carries its reason last, escaped as ensure_ascii does", () => {
  assert.equal(
    encodeClaimRecord({
      phase: "abandoned",
      pid: null,
      wake: null,
      at: 1e-5,
      reason: 'tool ran \u2014 "shell" caf\u00e9 \u{1F600}\n\u007f',
    }),
    '{"phase": "abandoned", "pid": null, "wake": null, "at": 1e-05, "reason": ' +
      '"tool ran \\u2014 \\"shell\\" caf\\u00e9 \\ud83d\\ude00\\n\\u007f"}',
  );
});

Deno.test("parsing round-trips what encoding wrote", () => {
  const journal = new MemoryJournal();
  const record = { phase: "abandoned", pid: null, wake: null, at: 17.5, reason: "é" };
  assert.deepEqual(parseClaimRecord(encodeClaimRecord(record), "p", journal), record);
  assert.deepEqual(journal.lines, []);
});

Deno.test("empty (legacy) reads as done without a warning; whitespace counts as empty", () => {
  const journal = new MemoryJournal();
  for (const text of ["", "  \n"]) {
    const record = parseClaimRecord(text, "p", journal);
    assert.equal(record.phase, "done");
    assert.ok(isSettled(record));
  }
  assert.deepEqual(journal.lines, []);
});

Deno.test("unparseable or phase-less records read as done, each with the WARNING", () => {
  const journal = new MemoryJournal();
  for (const text of ["{not json", "[1]", '"x"', '{"pid": 1}', '{"phase": 3}', "null"]) {
    assert.equal(parseClaimRecord(text, "/h/claims/x.claim", journal).phase, "done", text);
  }
  assert.equal(journal.lines.length, 6);
  assert.equal(
    journal.lines[0],
    "WARNING Unreadable claim record at /h/claims/x.claim; treating it as done rather than " +
      "re-driving an item we cannot reason about.",
  );
});

Deno.test("settled means done or abandoned; in-flight and foreign phases are not", () => {
  const base = { pid: null, wake: null, at: null };
  assert.ok(isSettled({ ...base, phase: "done" }));
  assert.ok(isSettled({ ...base, phase: "abandoned" }));
  assert.ok(!isSettled({ ...base, phase: "in-flight" }));
  assert.ok(!isSettled({ ...base, phase: "paused" }));
});
