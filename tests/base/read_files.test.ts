/** lib/base/read_files.ts: node:fs/promises' results and errors, without importing it up front. */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { readBytes, readDirNames, readText } from "../../lib/base/read_files.ts";

/** What a rejected call threw, as the fields a caller may read. */
async function failure(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return { name: e.name, message: e.message, code: e.code, errno: e.errno, syscall: e.syscall };
  }
  assert.fail("expected a rejection");
}

Deno.test("reads: the same bytes, text (BOM kept, bad bytes replaced) and names as node", async () => {
  const dir = await Deno.makeTempDir({ prefix: "read-files-" });
  try {
    const file = `${dir}/a.json`;
    await Deno.writeFile(file, new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x7d, 0x0a]));
    await Deno.writeTextFile(`${dir}/b.txt`, "b");
    assert.deepEqual(new Uint8Array(await readBytes(file)), new Uint8Array(await readFile(file)));
    assert.equal(await readText(file), await readFile(file, "utf8"));
    assert.ok((await readText(file)).startsWith("\uFEFF"));
    assert.deepEqual((await readDirNames(dir)).sort(), (await readdir(dir)).sort());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reads: a missing path, a directory and a file as a directory fail exactly as node", async () => {
  const dir = await Deno.makeTempDir({ prefix: "read-files-" });
  try {
    const missing = `${dir}/missing`;
    const file = `${dir}/f`;
    await Deno.writeTextFile(file, "x");
    assert.deepEqual(
      await failure(() => readBytes(missing)),
      await failure(() => readFile(missing)),
    );
    assert.deepEqual(
      await failure(() => readText(missing)),
      await failure(() => readFile(missing, "utf8")),
    );
    assert.deepEqual(
      await failure(() => readDirNames(missing)),
      await failure(() => readdir(missing)),
    );
    assert.deepEqual(
      await failure(() => readText(dir)),
      await failure(() => readFile(dir, "utf8")),
    );
    assert.deepEqual(await failure(() => readDirNames(file)), await failure(() => readdir(file)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
