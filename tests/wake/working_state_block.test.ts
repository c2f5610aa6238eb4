/**
 * The working-state block's exact text (docs/context.md#the-working-state-block): the full, the
 * reference and the omitted cases pinned byte for byte, a value never cut, no block when empty,
 * the byte bound held.
 */
import assert from "node:assert/strict";
import {
  BLOCK_HEADER,
  composeWorkingState,
  DEFAULT_BLOCK_LIMITS,
} from "../../lib/wake/engaged/working_state_block.ts";

const bytes = (text: string) => new TextEncoder().encode(text).length;

Deno.test("block: no notes and no tasks give no block at all", () => {
  assert.equal(composeWorkingState([], []), undefined);
});

Deno.test("block: the full case, notes first, then tasks, values escaped", () => {
  const block = composeWorkingState(
    [["a", "one"], ["b/c", "x < y & z > w"]],
    [{ uuid: "t-1", activateAt: "2099-01-01T00:00:00Z", instructions: "Ping <Bob>" }],
  );
  assert.equal(
    block,
    BLOCK_HEADER + "\n" +
      "<working-state>\n" +
      "<notes>\n" +
      '<note key="a">one</note>\n' +
      '<note key="b/c">x &lt; y &amp; z &gt; w</note>\n' +
      "</notes>\n" +
      "<tasks>\n" +
      '<task uuid="t-1" activate_at="2099-01-01T00:00:00Z">Ping &lt;Bob&gt;</task>\n' +
      "</tasks>\n" +
      "</working-state>",
  );
  assert.equal(
    BLOCK_HEADER,
    "Your working state on this timeline, as of this input. Notes are yours to keep current " +
      "(note_write, note_delete; note_get reads a <note-ref> or an omitted note); tasks are the " +
      "pending tasks scheduled here (the tasks tool).",
  );
});

Deno.test("block: a value that does not fit becomes a <note-ref> with its byte size, never a cut value", () => {
  const big = "é".repeat(600); // 1200 bytes
  const block = composeWorkingState(
    [["big", big], ["small", "fits"]],
    [],
    { ...DEFAULT_BLOCK_LIMITS, maxBytes: 900 },
  );
  assert.equal(
    block,
    BLOCK_HEADER + "\n<working-state>\n<notes>\n" +
      '<note-ref key="big" bytes="1200"/>\n' +
      '<note key="small">fits</note>\n' +
      "</notes>\n</working-state>",
  );
  assert.ok(bytes(block!) <= 900);
  assert.ok(!block!.includes("é"), "no part of the value is shown");
});

Deno.test("block: past the count bound the rest is counted in <notes-omitted>, tasks likewise", () => {
  const notes = Array.from({ length: 5 }, (_, i) => [`k${i}`, `v${i}`] as const);
  const tasks = Array.from({ length: 3 }, (_, i) => ({
    uuid: `t${i}`,
    activateAt: "2099-01-01T00:00:00Z",
    instructions: `do ${i}`,
  }));
  const block = composeWorkingState(notes, tasks, { maxNotes: 2, maxTasks: 1, maxBytes: 65536 });
  assert.equal(
    block,
    BLOCK_HEADER + "\n<working-state>\n<notes>\n" +
      '<note key="k0">v0</note>\n' +
      '<note key="k1">v1</note>\n' +
      '<notes-omitted count="3"/>\n' +
      "</notes>\n<tasks>\n" +
      '<task uuid="t0" activate_at="2099-01-01T00:00:00Z">do 0</task>\n' +
      '<tasks-omitted count="2"/>\n' +
      "</tasks>\n</working-state>",
  );
});

Deno.test("block: at the defaults, 300 notes of 1 KiB stay within 64 KiB and no value is cut", () => {
  const value = "v".repeat(1024);
  const notes = Array.from(
    { length: 300 },
    (_, i) => [`n${String(i).padStart(3, "0")}`, value] as const,
  );
  const block = composeWorkingState(notes, [])!;
  assert.ok(bytes(block) <= 64 * 1024, `${bytes(block)} bytes`);
  const whole = block.match(/<note key="[^"]+">v+<\/note>/g) ?? [];
  assert.ok(whole.every((entry) => entry.includes(`>${value}<`)), "every shown value is whole");
  const refs = (block.match(/<note-ref /g) ?? []).length;
  const omitted = Number(block.match(/<notes-omitted count="(\d+)"\/>/)?.[1] ?? 0);
  // 256 shown (whole or by reference), the other 44 counted.
  assert.equal(whole.length + refs, 256);
  assert.equal(omitted, 44);
  assert.ok(whole.length > 0 && refs > 0);
});

Deno.test("block: tasks alone give a block without a notes section", () => {
  assert.equal(
    composeWorkingState([], [{ uuid: "t", activateAt: "2099-01-01T00:00:00Z", instructions: "x" }]),
    BLOCK_HEADER + "\n<working-state>\n<tasks>\n" +
      '<task uuid="t" activate_at="2099-01-01T00:00:00Z">x</task>\n</tasks>\n</working-state>',
  );
});
