/**
 * Request prefix stability, a short run of `bench/prefix_bench.ts`: six real wakes of one
 * conversation against a scripted model, each wake's first chat request compared with the
 * previous wake's as the bytes went over the wire (issue target: ≥ 85% common prefix from the
 * 5th wake on); and the same conversation on the Anthropic Messages wire, cut at its two cache
 * breakpoints (bench/prefix_anthropic.ts).
 */
import assert from "node:assert/strict";
import { FROM, measure, type Row, TARGET } from "../../bench/prefix_bench.ts";
import { measureAnthropic } from "../../bench/prefix_anthropic.ts";

let measured: Promise<Row[]> | undefined;
/** One six-wake conversation, shared by the tests below. */
const rows = () => measured ??= measure(6);

const table = (rs: Row[], pick: (r: Row) => { ratio: number }) =>
  rs.map((r) => `wake ${r.wake}: ${pick(r).ratio.toFixed(3)}`).join(", ");

Deno.test("prefix: the charter and the frozen transcript lead each wake's first request", async () => {
  const all = await rows();
  for (const r of all.slice(1)) {
    // The prefix runs through the previous wake's transcript up to where its volatile note sat:
    // it stops at the previous wake's user turn, never inside the charter or older turns.
    assert.match(r.diverges, /"role\\":\\"user\\",\\"content\\":\\"\[/, `wake ${r.wake}`);
    // …so it grows wake after wake with the frozen transcript.
    if (r.wake > 2) assert.ok(r.wire.prefix > all[r.wake - 2].wire.prefix, `wake ${r.wake}`);
  }
  // With `tools` serialised before `messages` the same bodies meet the target.
  const judged = all.filter((r) => r.wake >= FROM);
  assert.ok(judged.every((r) => r.toolsFirst.ratio >= TARGET), table(judged, (r) => r.toolsFirst));
});

Deno.test("prefix: from wake 5 on, ≥ 85% of the first request is the previous one's prefix, on the wire", async () => {
  const judged = (await rows()).filter((r) => r.wake >= FROM);
  const parts = judged[0].parts.map(([key, size]) => `${key}=${size}`).join(" ");
  assert.ok(
    judged.every((r) => r.wire.ratio >= TARGET),
    `${table(judged, (r) => r.wire)} (body keys in wire order, code points: ${parts})`,
  );
});

let measuredWithNotes: Promise<Row[]> | undefined;
/** The same conversation with the model keeping notes that change every wake. */
const rowsWithNotes = () => measuredWithNotes ??= measure(6, { notes: true });

Deno.test("prefix: notes changing every wake leave the prefix where it was; ≥ 85% from wake 5 on", async () => {
  const all = await rowsWithNotes();
  assert.deepEqual(all.map((r) => r.workingState), [false, true, true, true, true, true]);
  assert.ok((await rows()).every((r) => !r.workingState));
  for (const r of all.slice(1)) {
    // The notes block rides the volatile tail: the prefix still runs to the previous user turn.
    assert.match(r.diverges, /"role\\":\\"user\\",\\"content\\":\\"\[/, `wake ${r.wake}`);
    if (r.wake > 2) assert.ok(r.wire.prefix > all[r.wake - 2].wire.prefix, `wake ${r.wake}`);
  }
  const judged = all.filter((r) => r.wake >= FROM);
  assert.ok(judged.every((r) => r.wire.ratio >= TARGET), table(judged, (r) => r.wire));
});

Deno.test("prefix: with automatic memory recalled and notes kept every wake, only the volatile tail changes", async () => {
  const all = await measure(4, { notes: true, env: { HARNESS_MEMORY_PROVIDER: "recall" } });
  assert.deepEqual(all.map((r) => r.workingState), [false, true, true, true]);
  // Memory changes wake after wake (each wake observes one more exchange and recalls it) …
  assert.equal(all[0].recalled, "", "nothing to recall on the first wake");
  for (const r of all.slice(1)) assert.ok(r.recalled, `wake ${r.wake} recalled nothing`);
  assert.notEqual(all[2].recalled, all[1].recalled, "the recalled memory changed");
  for (const r of all.slice(1)) {
    // … and the request still agrees byte for byte with the previous one up to the previous
    // wake's user turn: the recall rides in the volatile note, never in the cached prefix.
    assert.match(r.diverges, /"role\\":\\"user\\",\\"content\\":\\"\[/, `wake ${r.wake}`);
    if (r.wake > 2) assert.ok(r.wire.prefix > all[r.wake - 2].wire.prefix, `wake ${r.wake}`);
  }
});

Deno.test("prefix (anthropic): breakpoint 1 is identical in every wake; each wake reads the previous wake's breakpoint-2 entry", async () => {
  const report = await measureAnthropic(6, { notes: true });
  const rows = report.rows;
  assert.deepEqual(rows.map((r) => r.breakpoints), [1, 2, 2, 2, 2, 2]);
  assert.ok(report.breakpoint1Identical, JSON.stringify(rows));
  // From wake 3 on the previous wake had a breakpoint 2; its entry starts this request.
  for (const r of rows.slice(2)) {
    assert.ok(r.hit2, `wake ${r.wake}: ${JSON.stringify(r)}`);
    assert.ok(r.upTo2 > rows[r.wake - 2].upTo2, `wake ${r.wake}: breakpoint 2 did not move on`);
  }
  assert.equal(report.breakpoint2Share, 1);
  assert.ok(report.pass);
});

Deno.test("prefix: with a knowledge pack on, it rides every request's cached prefix; ≥ 85% from wake 5 on", async () => {
  const all = await measure(6, { knowledge: true });
  assert.ok(all.every((r) => r.knowledge), "a request went without the pack");
  assert.ok((await rows()).every((r) => !r.knowledge));
  for (const r of all.slice(1)) {
    // The pack sits after the charter, so the prefix still runs to the previous user turn.
    assert.match(r.diverges, /"role\\":\\"user\\",\\"content\\":\\"\[/, `wake ${r.wake}`);
  }
  const judged = all.filter((r) => r.wake >= FROM);
  assert.ok(judged.every((r) => r.wire.ratio >= TARGET), table(judged, (r) => r.wire));
});
