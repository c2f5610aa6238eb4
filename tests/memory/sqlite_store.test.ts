import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SCHEMA_VERSION } from "../../lib/memory/schema.ts";
import { resolveMemoryPath, SqliteMemoryStore } from "../../lib/memory/sqlite_store.ts";
import { MemoryTool } from "../../lib/memory/memory_tool.ts";
import { copyPythonFixture, PYTHON_FIXTURE, rawDb, tempHome } from "./helpers.ts";

/** sqlite_master rows with whitespace-insensitive SQL, so formatting differences don't count. */
function schemaOf(path: string): string[] {
  const db = rawDb(path);
  try {
    const rows = db.prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name",
    )
      .all() as Record<string, string | null>[];
    return rows.map((row) =>
      [row.type, row.name, row.tbl_name, normaliseSql(row.sql ?? "")].join(" | ")
    );
  } finally {
    db.close();
  }
}

function normaliseSql(sql: string): string {
  return sql.replace(/\s+/g, " ").replace(/\s*([(),;])\s*/g, "$1").trim();
}

function pragma(path: string, name: string): unknown {
  const db = rawDb(path);
  try {
    return Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0];
  } finally {
    db.close();
  }
}

Deno.test("construction touches no disk; the first operation creates the directory and file", () => {
  using dir = tempHome();
  const path = join(dir.home, "nested", "deeper", "memory.db");
  const store = new SqliteMemoryStore({ path });
  assert.equal(store.isOpen, false);
  assert.equal(existsSync(path), false);
  assert.deepEqual(store.keys(), []);
  assert.equal(store.isOpen, true);
  assert.equal(existsSync(path), true);
  store.close();
  store.close(); // idempotent
  assert.equal(store.isOpen, false);
  // Reopens transparently after close.
  store.write("k", "v");
  assert.equal(store.read("k"), "v");
  store.close();
});

Deno.test("the file lives at path, else <home>/memory.db, else $HARNESS_HOME, else ~/.basecradle_harness", () => {
  assert.equal(resolveMemoryPath({ path: "/x/y.db", home: "/h" }), "/x/y.db");
  assert.equal(resolveMemoryPath({ home: "/h" }), "/h/memory.db");
  const saved = { harness: Deno.env.get("HARNESS_HOME"), home: Deno.env.get("HOME") };
  try {
    Deno.env.set("HARNESS_HOME", "/agents/ada");
    assert.equal(resolveMemoryPath(), "/agents/ada/memory.db");
    assert.equal(new SqliteMemoryStore().path, "/agents/ada/memory.db");
    Deno.env.set("HARNESS_HOME", ""); // empty counts as unset, as in the reference
    Deno.env.set("HOME", "/home/ada");
    assert.equal(resolveMemoryPath(), "/home/ada/.basecradle_harness/memory.db");
    Deno.env.delete("HARNESS_HOME");
    assert.equal(resolveMemoryPath(), "/home/ada/.basecradle_harness/memory.db");
    // Neither set: a clear refusal naming both variables, not a guess.
    Deno.env.set("HOME", "");
    assert.throws(() => resolveMemoryPath(), /HARNESS_HOME and HOME are both unset/);
    assert.throws(() => new SqliteMemoryStore(), /HARNESS_HOME and HOME are both unset/);
    assert.equal(resolveMemoryPath({ home: "/h" }), "/h/memory.db");
  } finally {
    for (const [name, value] of [["HARNESS_HOME", saved.harness], ["HOME", saved.home]] as const) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
});

Deno.test("a fresh DB is WAL, at the schema version, with exactly the Python reference's schema", () => {
  using dir = tempHome();
  const store = new SqliteMemoryStore({ home: dir.home });
  store.write("k", "v");
  store.close();
  assert.equal(pragma(dir.path, "journal_mode"), "wal");
  assert.equal(pragma(dir.path, "user_version"), SCHEMA_VERSION);
  const ours = schemaOf(dir.path);
  const python = schemaOf(PYTHON_FIXTURE.pathname);
  assert.deepEqual(ours, python);
  // Sanity: the comparison covers the objects that matter.
  for (const name of ["memories", "memories_fts", "memories_ai", "memories_ad", "memories_au"]) {
    assert.ok(ours.some((row) => row.split(" | ")[1] === name), name);
  }
});

Deno.test("a memory.db written by the Python harness opens, reads, writes and searches", async () => {
  using dir = tempHome();
  const path = copyPythonFixture(dir.home);
  const store = new SqliteMemoryStore({ path });
  const tool = new MemoryTool({ store });
  assert.equal(await tool.run({ action: "list" }), "favorite_editor, home_city, project_deadline");
  assert.equal(await tool.run({ action: "read", key: "home_city" }), "Dallas, Texas");
  assert.deepEqual(store.entry("home_city"), {
    key: "home_city",
    value: "Dallas, Texas",
    createdAt: "2026-08-18T12:00:00.123456+00:00",
    updatedAt: "2026-08-19T08:30:00+00:00",
  });
  assert.equal(
    await tool.run({ action: "search", query: "texas" }),
    "Memories matching 'texas':\nhome_city: Dallas, Texas",
  );
  assert.equal(
    await tool.run({ action: "search", query: "friday" }),
    "Memories matching 'friday':\nproject_deadline: The launch review is on Friday",
  );
  // An upsert of a Python row keeps Python's created_at.
  await tool.run({ action: "write", key: "home_city", value: "Austin, Texas" });
  assert.equal(store.entry("home_city")?.createdAt, "2026-08-18T12:00:00.123456+00:00");
  await tool.run({ action: "write", key: "new_fact", value: "written from Deno" });
  assert.equal((await tool.run({ action: "search", query: "deno austin" })).split("\n").length, 3);
  assert.equal(
    await tool.run({ action: "delete", key: "favorite_editor" }),
    "Forgot 'favorite_editor'.",
  );
  assert.equal(await tool.run({ action: "search", query: "helix" }), "No memories match 'helix'.");
  store.close();
  assert.equal(pragma(path, "user_version"), 1);
  // The index is consistent with the table after mixed-runtime writes.
  const db = rawDb(path);
  db.exec("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')");
  db.close();
});

Deno.test("migrations are idempotent: reopening changes nothing and keeps the data", () => {
  using dir = tempHome();
  for (let i = 0; i < 3; i++) {
    const store = new SqliteMemoryStore({ home: dir.home });
    store.write(`k${i}`, `v${i}`);
    store.close();
  }
  const first = schemaOf(dir.path);
  const store = new SqliteMemoryStore({ home: dir.home });
  assert.deepEqual(store.keys(), ["k0", "k1", "k2"]);
  assert.deepEqual(store.search("v1", 10), [{ key: "k1", value: "v1" }]);
  store.close();
  assert.deepEqual(schemaOf(dir.path), first);
  assert.equal(pragma(dir.path, "user_version"), SCHEMA_VERSION);
});

Deno.test("a DB whose table predates its FTS index gets the index created and backfilled", () => {
  using dir = tempHome();
  // A store written where FTS5 was absent: the table and version exist, the index does not.
  const db = rawDb(dir.path);
  db.exec(`CREATE TABLE memories (key TEXT NOT NULL UNIQUE, value TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL); PRAGMA user_version = 1;`);
  db.prepare("INSERT INTO memories VALUES (?, ?, ?, ?)").run("old", "legacy row", "t", "t");
  db.close();
  const store = new SqliteMemoryStore({ path: dir.path });
  assert.deepEqual(store.search("legacy", 5), [{ key: "old", value: "legacy row" }]);
  store.close();
});

Deno.test("a DB at a newer user_version (additive changes we do not know) opens and works", async () => {
  using dir = tempHome();
  const path = copyPythonFixture(dir.home);
  const db = rawDb(path);
  // What a future migration might add: a column with a default, a new table, a bumped version.
  db.exec(`ALTER TABLE memories ADD COLUMN source TEXT DEFAULT 'unknown';
    CREATE TABLE memory_links (a TEXT, b TEXT);
    PRAGMA user_version = 7;`);
  db.close();
  const store = new SqliteMemoryStore({ path });
  const tool = new MemoryTool({ store });
  assert.equal(await tool.run({ action: "read", key: "home_city" }), "Dallas, Texas");
  assert.equal(
    await tool.run({ action: "write", key: "fresh", value: "from older code" }),
    "Remembered 'fresh'.",
  );
  assert.equal(
    await tool.run({ action: "search", query: "older" }),
    "Memories matching 'older':\nfresh: from older code",
  );
  assert.equal(await tool.run({ action: "delete", key: "fresh" }), "Forgot 'fresh'.");
  store.close();
  assert.equal(pragma(path, "user_version"), 7, "never downgraded");
  const check = rawDb(path);
  const columns = (check.prepare("PRAGMA table_info(memories)").all() as { name: string }[]).map((
    c,
  ) => c.name);
  assert.ok(columns.includes("source"));
  assert.ok(check.prepare("SELECT name FROM sqlite_master WHERE name = 'memory_links'").get());
  check.close();
});

Deno.test("a write waits for another process's lock instead of failing (busy timeout)", async () => {
  using dir = tempHome();
  const store = new SqliteMemoryStore({ home: dir.home });
  store.write("warm", "up");
  // A second process takes the write lock, and keeps it until a while after this one says it is
  // about to write: the write starts while the lock is held, however slow the machine.
  const go = join(dir.home, "go");
  const holder = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `
      import { DatabaseSync } from "node:sqlite";
      const db = new DatabaseSync(${JSON.stringify(dir.path)});
      db.exec("BEGIN IMMEDIATE");
      db.exec("INSERT INTO memories VALUES ('held', 'by the other process', 't', 't')");
      console.log("locked");
      while (!(await Deno.stat(${JSON.stringify(go)}).then(() => true, () => false))) {
        await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setTimeout(r, 1_000));
      const released = Date.now();
      db.exec("COMMIT");
      console.log(released);
    `,
    ],
    stdout: "piped",
  }).spawn();
  const lines = holder.stdout.pipeThrough(new TextDecoderStream()).values();
  assert.match((await lines.next()).value ?? "", /locked/);
  Deno.writeTextFileSync(go, "");
  const started = Date.now();
  store.write("mine", "after the wait"); // would be "database is locked" with node:sqlite's 0
  const ended = Date.now();
  let rest = "";
  for await (const chunk of lines) rest += chunk;
  assert.ok((await holder.status).success);
  const released = Number(rest.trim().split("\n").at(-1));
  assert.ok(started < released, "the write started while the other process held the lock");
  assert.ok(ended >= released, "and finished only once it was released");
  assert.deepEqual(store.keys(), ["held", "mine", "warm"]);
  store.close();
});

Deno.test("a store that cannot open says where and why", () => {
  using dir = tempHome();
  Deno.writeTextFileSync(
    dir.path,
    "this is not a database, just text long enough to matter ".repeat(20),
  );
  const store = new SqliteMemoryStore({ path: dir.path });
  assert.throws(() => store.keys(), (error: Error) => {
    assert.match(
      error.message,
      new RegExp(`^Could not open memory at ${dir.path}: .*not a database`),
    );
    return true;
  });
  assert.equal(store.isOpen, false);
});
