/**
 * The working-state tools over the real store in a temporary HARNESS_HOME
 * (docs/tools.md#working-state-notes-and-summarize): each report word, the listing, the
 * model-readable refusals, per-timeline isolation and persistence across store instances (a
 * later wake opens a fresh one).
 */
import assert from "node:assert/strict";
import { workingStatePath, WorkingStateStore } from "../../lib/home/working_state.ts";
import {
  MAX_VALUE_BYTES,
  NoteDeleteTool,
  NoteGetTool,
  NoteWriteTool,
  SummarizeTool,
} from "../../lib/tools/working_state.ts";
import type { ToolVerdict } from "../../lib/core/types/tool.ts";

const A = "0190a0a0-0000-7000-8000-00000000000a";
const B = "0190a0a0-0000-7000-8000-00000000000b";

async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "notes-" });
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Runs `tool` and returns its text and the verdict it reported, if any. */
async function call(
  tool: { run(args: unknown, context?: unknown): Promise<string> },
  args: unknown,
): Promise<{ text: string; verdict?: ToolVerdict }> {
  let verdict: ToolVerdict | undefined;
  const text = await tool.run(args, {
    callId: "c",
    reportOutcome: (v: ToolVerdict) => verdict = v,
  });
  return verdict === undefined ? { text } : { text, verdict };
}

Deno.test("note_write reports created then updated; note_get reads the complete value", async () => {
  await withHome(async (home) => {
    const store = new WorkingStateStore(home, A);
    const write = new NoteWriteTool(store);
    const get = new NoteGetTool(store);
    assert.deepEqual(await call(write, { key: "plan", value: "ship v1" }), { text: "created" });
    assert.deepEqual(await call(write, { key: "plan", value: "ship v2" }), { text: "updated" });
    assert.deepEqual(await call(write, { key: "plan", value: "ship v2" }), { text: "updated" });
    const big = "é".repeat(MAX_VALUE_BYTES / 2);
    assert.equal((await call(write, { key: "big", value: big })).text, "created");
    assert.equal((await call(get, { key: "big" })).text, big);
    assert.equal((await call(get, { key: "plan" })).text, "ship v2");
  });
});

Deno.test("note_delete is idempotent: deleted, then already_absent", async () => {
  await withHome(async (home) => {
    const store = new WorkingStateStore(home, A);
    await store.write("k", "v");
    const del = new NoteDeleteTool(store);
    assert.deepEqual(await call(del, { key: "k" }), { text: "deleted" });
    assert.deepEqual(await call(del, { key: "k" }), { text: "already_absent" });
    assert.deepEqual(await call(del, { key: "never" }), { text: "already_absent" });
  });
});

Deno.test("note_get without a key lists the sorted keys with a count", async () => {
  await withHome(async (home) => {
    const store = new WorkingStateStore(home, A);
    const get = new NoteGetTool(store);
    assert.equal((await call(get, {})).text, "0 notes.");
    for (const key of ["zeta", "alpha", "mid/one"]) await store.write(key, `v-${key}`);
    assert.equal((await call(get, {})).text, "3 notes:\nalpha\nmid/one\nzeta");
    assert.equal((await call(get, { key: null })).text, "3 notes:\nalpha\nmid/one\nzeta");
    await store.delete("alpha");
    await store.delete("mid/one");
    assert.equal((await call(get, {})).text, "1 note:\nzeta");
    assert.deepEqual(await call(get, { key: "gone" }), {
      text: "Error: there is no note 'gone' (note_get without a key lists them).",
      verdict: "invalid",
    });
  });
});

Deno.test("bad keys and values are refused with a text the model can read, and nothing is written", async () => {
  await withHome(async (home) => {
    const store = new WorkingStateStore(home, A);
    const write = new NoteWriteTool(store);
    const cases: [unknown, RegExp][] = [
      [{ key: "", value: "v" }, /'key' must not be empty/],
      [{ key: "has space", value: "v" }, /'key' must start with a letter or digit/],
      [{ key: '"quote', value: "v" }, /'key' must start with a letter or digit/],
      [{ key: "k".repeat(129), value: "v" }, /at most 128 characters/],
      [{ key: 7, value: "v" }, /'key' must be a string/],
      [{ key: "k", value: "   " }, /'value' must not be blank/],
      [{ key: "k", value: "x".repeat(MAX_VALUE_BYTES + 1) }, /at most 16384 bytes/],
      [{ key: "k" }, /'value' must be a string/],
    ];
    for (const [args, pattern] of cases) {
      const { text, verdict } = await call(write, args);
      assert.match(text, /^Error: /, JSON.stringify(args));
      assert.match(text, pattern, JSON.stringify(args));
      assert.equal(verdict, "invalid");
    }
    await assert.rejects(Deno.stat(workingStatePath(home, A)), Deno.errors.NotFound);
  });
});

Deno.test("notes are per timeline and persist for a later store (a later wake)", async () => {
  await withHome(async (home) => {
    await new NoteWriteTool(new WorkingStateStore(home, A)).run({ key: "k", value: "for A" });
    const later = new WorkingStateStore(home, A);
    assert.deepEqual(await later.notes(), [["k", "for A"]]);
    const other = new WorkingStateStore(home, B);
    assert.deepEqual(await other.notes(), []);
    assert.equal(
      await new NoteGetTool(other).run({ key: "k" }).then((t) => t.startsWith("Error")),
      true,
    );
    // The file is the documented one, with no temp left behind.
    const names = [...Deno.readDirSync(`${home}/working_state`)].map((e) => e.name);
    assert.deepEqual(names, [`${A}.json`]);
  });
});

Deno.test("a damaged working-state file is an error naming the file, never silently reset", async () => {
  await withHome(async (home) => {
    const path = workingStatePath(home, A);
    await Deno.mkdir(`${home}/working_state`, { recursive: true });
    await Deno.writeTextFile(path, "{not json");
    const store = new WorkingStateStore(home, A);
    await assert.rejects(store.notes(), (e: Error) => e.message.includes(path));
    assert.equal(await Deno.readTextFile(path), "{not json");
  });
});

Deno.test("summarize files the handoff: narrative and next step required, reconciled keys optional", async () => {
  const filed: unknown[] = [];
  const tool = new SummarizeTool({
    accept: (handoff) => {
      filed.push(handoff);
      return "Handoff accepted.";
    },
  });
  assert.deepEqual(await call(tool, { narrative: "  I did X.  ", next_step: "Do Y." }), {
    text: "Handoff accepted.",
  });
  assert.deepEqual(filed, [{ narrative: "I did X.", nextStep: "Do Y.", reconciled: [] }]);
  const refused = await call(tool, { narrative: "I did X." });
  assert.equal(refused.verdict, "invalid");
  assert.match(refused.text, /^Error: 'next_step' must be a string/);
  assert.match(
    (await call(tool, { narrative: " ", next_step: "y" })).text,
    /'narrative' must not be blank/,
  );
  assert.equal(filed.length, 1);
  assert.match(tool.description, /reconcile them first/);
  assert.match(tool.description, /do not copy them into the summary/);
});
