/**
 * The memory.db schema, shared byte-for-byte in meaning with the Python reference so both
 * runtimes open one file: a `memories` table versioned by `PRAGMA user_version`, plus an
 * external-content FTS5 index kept in sync by triggers. The index is derived data, so it lives
 * outside the versioned migrations and is (re)created idempotently on every open.
 */
import type { DatabaseSync } from "node:sqlite";

/** The schema version this code targets; a DB above it is opened untouched and still works. */
export const SCHEMA_VERSION = 1;

/**
 * Forward-only, additive migrations: entry `n` takes a DB from version `n - 1` to `n`. Never
 * drop or rename — older code must keep working on a DB a newer migration touched.
 */
export const MIGRATIONS: Readonly<Record<number, string>> = {
  1: `CREATE TABLE memories (
  key        TEXT NOT NULL UNIQUE,
  value      TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);`,
};

/** The FTS5 index and its sync triggers; every statement is `IF NOT EXISTS`. */
export const FTS_DDL = `
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts
  USING fts5(key, value, content='memories', content_rowid='rowid');
CREATE TRIGGER IF NOT EXISTS memories_ai AFTER INSERT ON memories BEGIN
  INSERT INTO memories_fts (rowid, key, value) VALUES (new.rowid, new.key, new.value);
END;
CREATE TRIGGER IF NOT EXISTS memories_ad AFTER DELETE ON memories BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, key, value)
    VALUES ('delete', old.rowid, old.key, old.value);
END;
CREATE TRIGGER IF NOT EXISTS memories_au AFTER UPDATE ON memories BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, key, value)
    VALUES ('delete', old.rowid, old.key, old.value);
  INSERT INTO memories_fts (rowid, key, value) VALUES (new.rowid, new.key, new.value);
END;
`;

/** Schema objects the FTS side needs; if any is missing the setup transaction runs. */
const FTS_OBJECTS = ["memories_fts", "memories_ai", "memories_ad", "memories_au"];

/** The DB's `PRAGMA user_version`. */
export function userVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/** Names of the FTS objects already present. */
function presentFtsObjects(db: DatabaseSync): Set<string> {
  const rows = db.prepare(
    `SELECT name FROM sqlite_master WHERE name IN (${FTS_OBJECTS.map(() => "?").join(", ")})`,
  ).all(...FTS_OBJECTS) as { name: string }[];
  return new Set(rows.map((row) => row.name));
}

/** Whether anything is left to do; lets a warm open skip taking the write lock entirely. */
function needsSetup(db: DatabaseSync): boolean {
  return userVersion(db) < SCHEMA_VERSION || presentFtsObjects(db).size < FTS_OBJECTS.length;
}

/**
 * Brings the DB up to {@link SCHEMA_VERSION} and ensures the FTS index, atomically.
 *
 * Runs under `BEGIN IMMEDIATE` and re-reads the version inside the transaction, because two
 * wakes may open a fresh file at the same moment: the second waits on the busy timeout, then
 * finds the work done. Idempotent; a DB at a higher version keeps its version and schema.
 */
export function ensureSchema(db: DatabaseSync): void {
  if (!needsSetup(db)) return;
  db.exec("BEGIN IMMEDIATE");
  try {
    const version = userVersion(db);
    for (let target = version + 1; target <= SCHEMA_VERSION; target++) {
      db.exec(MIGRATIONS[target]);
      // PRAGMA takes no bound parameters; `target` is our own integer.
      db.exec(`PRAGMA user_version = ${target}`);
    }
    const indexExisted = presentFtsObjects(db).has("memories_fts");
    db.exec(FTS_DDL);
    // A new index over an existing table (e.g. rows written while FTS was absent) starts empty;
    // 'rebuild' backfills it from the content table. A no-op cost on a fresh DB.
    if (!indexExisted) db.exec("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')");
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
