/**
 * Working-state notes across real processes (docs/home-layout.md#working-state): two writers
 * started together on one timeline, 150 notes each, leave 300 notes — every change is made under
 * the file's lock, so neither save replaces the other's notes.
 */
import assert from "node:assert/strict";
import { WorkingStateStore } from "../../lib/home/working_state.ts";

const CHILD = new URL("./notes_child.ts", import.meta.url).pathname;
const TL = "01900000-0000-7000-8000-00000000005e";
const EACH = 150;

/** Starts a writer; resolves once it is ready to write. */
async function writer(home: string, prefix: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-write", CHILD, home, TL, prefix, `${EACH}`],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  const until = async (word: string) => {
    while (!said.includes(word)) {
      const { value, done } = await lines.read();
      assert.ok(!done, `writer ${prefix} exited before saying ${word}`);
      said += value;
    }
  };
  await until("ready");
  return {
    async go() {
      const stdin = child.stdin.getWriter();
      await stdin.write(new TextEncoder().encode("go\n"));
      await stdin.close();
    },
    async finish() {
      await until("done");
      await lines.cancel();
      assert.equal((await child.status).code, 0);
    },
  };
}

Deno.test("two processes writing 150 notes each to one timeline leave 300 notes", async () => {
  const home = await Deno.makeTempDir({ prefix: "notes-process-" });
  try {
    const writers = [await writer(home, "left"), await writer(home, "right")];
    await Promise.all(writers.map((w) => w.go()));
    await Promise.all(writers.map((w) => w.finish()));
    const notes = await new WorkingStateStore(home, TL).notes();
    assert.equal(notes.length, 2 * EACH);
    for (const prefix of ["left", "right"]) {
      for (let i = 0; i < EACH; i++) {
        assert.ok(notes.some(([k, v]) => k === `${prefix}/${i}` && v === `note ${i} of ${prefix}`));
      }
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
