import assert from "node:assert/strict";
import { SqliteMemoryStore } from "../../lib/memory/sqlite_store.ts";
import { rawDb, tempHome } from "./helpers.ts";

const CHILD = new URL("./writer_child.ts", import.meta.url).pathname;
const PER_PROCESS = 150;

function writer(path: string, prefix: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, path, prefix, String(PER_PROCESS)],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("two processes writing one fresh memory.db at once lose nothing", async () => {
  using dir = tempHome();
  // Both start before the file exists, so they also race to create and migrate it.
  const children = [writer(dir.path, "alpha"), writer(dir.path, "beta")];
  const outputs = await Promise.all(children.map((child) => child.output()));
  for (const output of outputs) {
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
  }
  const store = new SqliteMemoryStore({ path: dir.path });
  const keys = store.keys();
  assert.equal(keys.length, 2 * PER_PROCESS + 1);
  for (const prefix of ["alpha", "beta"]) {
    for (let i = 0; i < PER_PROCESS; i++) {
      assert.equal(store.read(`${prefix}_${i}`), `${prefix} value ${i} shared`);
    }
  }
  // The index saw every write and every overwrite: a word only in final values finds all rows.
  assert.equal(store.search("shared", 1000).length, 2 * PER_PROCESS);
  assert.equal(store.search("first", 1000).length, 0);
  store.close();
  const db = rawDb(dir.path);
  db.exec("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')");
  const version = db.prepare("PRAGMA user_version").get() as { user_version: number };
  assert.equal(version.user_version, 1);
  db.close();
});
