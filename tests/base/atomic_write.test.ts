/**
 * The atomic write (how a transcript is saved, docs/home-layout.md#transcripts): temp beside the
 * target, fsync, rename; on any failure the old file is intact and no temp is left behind. The
 * temp's name carries its writer's pid, so a stranded one can be told from a live one.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import {
  atomicWrite,
  type AtomicWriteOps,
  denoAtomicWriteOps,
  parseTempName,
  tempPathFor,
} from "../../lib/base/atomic_write.ts";

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const names = async (dir: string) =>
  (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();

/** Real ops that record the order of steps and the paths they touched. */
function spying(overrides: Partial<AtomicWriteOps> = {}): AtomicWriteOps & { steps: string[] } {
  const steps: string[] = [];
  const ops = { ...denoAtomicWriteOps, ...overrides };
  return {
    steps,
    mkdir: (dir) => (steps.push(`mkdir ${dir}`), ops.mkdir(dir)),
    writeSynced: (path, data) => (steps.push(`write ${path}`), ops.writeSynced(path, data)),
    rename: (from, to) => (steps.push(`rename ${from} ${to}`), ops.rename(from, to)),
    remove: (path) => (steps.push(`remove ${path}`), ops.remove(path)),
  };
}

Deno.test("the temp is <file>.<pid>-<8hex>.tmp beside the target", () => {
  const temp = tempPathFor("/h/sessions/timeline%3Aabc.json");
  assert.match(
    temp,
    new RegExp(`^/h/sessions/timeline%3Aabc\\.json\\.${Deno.pid}-[0-9a-f]{8}\\.tmp$`),
  );
  assert.notEqual(tempPathFor("/x.json"), tempPathFor("/x.json"));
});

Deno.test("writes through a synced temp renamed over the target, creating the parent", async () => {
  await withDir(async (dir) => {
    const target = join(dir, "deep", "sessions", "t.json");
    const ops = spying();
    await atomicWrite(target, "[]", ops);
    assert.equal(await Deno.readTextFile(target), "[]");
    assert.equal(ops.steps.length, 3);
    assert.equal(ops.steps[0], `mkdir ${join(dir, "deep", "sessions")}`);
    const temp = ops.steps[1].slice("write ".length);
    assert.match(temp, /t\.json\.\d+-[0-9a-f]{8}\.tmp$/);
    assert.equal(ops.steps[2], `rename ${temp} ${target}`);
    assert.deepEqual(await names(join(dir, "deep", "sessions")), ["t.json"]);
  });
});

Deno.test("a failed rename leaves the old file byte-identical and removes the temp", async () => {
  await withDir(async (dir) => {
    const target = join(dir, "t.json");
    await Deno.writeTextFile(target, "old bytes");
    const ops = spying({ rename: () => Promise.reject(new Deno.errors.PermissionDenied("no")) });
    await assert.rejects(atomicWrite(target, "new bytes", ops), Deno.errors.PermissionDenied);
    assert.equal(await Deno.readTextFile(target), "old bytes");
    assert.deepEqual(await names(dir), ["t.json"]);
    assert.match(ops.steps.at(-1) ?? "", /^remove .*\.tmp$/);
  });
});

Deno.test("a write that dies half-way leaves the old file intact and no temp", async () => {
  await withDir(async (dir) => {
    const target = join(dir, "t.json");
    await Deno.writeTextFile(target, "old bytes");
    const ops = spying({
      async writeSynced(path, data) {
        await Deno.writeFile(path, data.subarray(0, 3)); // a torn temp on disk…
        throw new Error("ENOSPC: no space left on device"); // …then the failure fsync reports
      },
    });
    await assert.rejects(atomicWrite(target, "new bytes", ops), /ENOSPC/);
    assert.equal(await Deno.readTextFile(target), "old bytes");
    assert.deepEqual(await names(dir), ["t.json"]);
  });
});

Deno.test("a real rename failure (target is a non-empty directory) cleans up its temp", async () => {
  await withDir(async (dir) => {
    const target = join(dir, "t.json");
    await Deno.mkdir(target);
    await Deno.writeTextFile(join(target, "keep"), "x");
    await assert.rejects(atomicWrite(target, "new bytes"));
    assert.deepEqual(await names(dir), ["t.json"]);
    assert.equal(await Deno.readTextFile(join(target, "keep")), "x");
  });
});

Deno.test("temp names carry the writer's pid and read back; other names do not parse", () => {
  const temp = tempPathFor("/h/sessions/timeline%3Aabc.json", 4242);
  assert.match(temp, /^\/h\/sessions\/timeline%3Aabc\.json\.4242-[0-9a-f]{8}\.tmp$/);
  assert.deepEqual(parseTempName(temp.slice("/h/sessions/".length)), {
    target: "timeline%3Aabc.json",
    pid: 4242,
  });
  assert.equal(parseTempName(basename(tempPathFor("/d/x.txt")))?.pid, Deno.pid);
  for (
    const name of [
      "timeline%3Aabc.json",
      "timeline%3Aabc.json.tmp",
      "timeline%3Aabc.json.4242.tmp", // a pid without the random part
      "timeline%3Aabc.json.0-1a2b3c4d.tmp", // pid 0 is no process
      "timeline%3Aabc.json.4242-XYZ.tmp",
      "timeline%3Aabc.json.4242-1a2b3c4d.tmp.bak",
    ]
  ) assert.equal(parseTempName(name), undefined, name);
});
