/**
 * The schema of `recall.db`, the automatic memory's own file (docs/home-layout.md#recalldb). It
 * is a separate file from `memory.db`, so the explicit memory tool's file stays exactly the one
 * the Python harness shares. Versioned by `PRAGMA user_version`, migrated forward-only and
 * additively, under `BEGIN IMMEDIATE` so two wakes opening a fresh file agree.
 */
import type { DatabaseSync } from "node:sqlite";

/** The schema version this code targets; a file above it is used as it is. */
export const RECALL_SCHEMA_VERSION = 2;

/**
 * Forward-only, additive migrations: entry `n` takes the file from version `n - 1` to `n`.
 *
 * - `recall_names`: agent and timeline uuids, interned, so a chunk row carries two integers.
 * - `recall_exchanges`: one row per observed exchange: whose, which timeline, when (epoch ms),
 *   and where it came from (`wake`, `compaction`, `mempalace`).
 * - `recall_chunks`: the exchange's verbatim text, cut into chunks.
 * - `recall_fts`: a contentless FTS5 index over each chunk's cleaned text (porter stemming), whose
 *   rowid is the chunk's id; contentless because the verbatim text already lives in
 *   `recall_chunks`, so the index adds its postings and nothing more.
 * - `recall_terms`: how many chunks hold each indexed (stemmed) term, kept on every write, so a
 *   recall prices its terms with one b-tree lookup each instead of walking the index's postings.
 * - `recall_meta`: one-off facts about the file, such as a finished palace import.
 *
 * Version 2 adds `recall_vectors`: a chunk's embedding (float32 bytes) and the model it came
 * from, written only when an embeddings model is configured.
 */
export const RECALL_MIGRATIONS: Readonly<Record<number, string>> = {
  1: `
CREATE TABLE recall_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE recall_exchanges (
  id       INTEGER PRIMARY KEY,
  agent    INTEGER NOT NULL,
  timeline INTEGER,
  at       INTEGER NOT NULL,
  origin   TEXT NOT NULL
);
CREATE TABLE recall_chunks (
  id       INTEGER PRIMARY KEY,
  exchange INTEGER NOT NULL,
  text     TEXT NOT NULL
);
CREATE VIRTUAL TABLE recall_fts USING fts5(
  body, content='', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TABLE recall_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE recall_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`,
  2: `
CREATE TABLE recall_vectors (chunk INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL);
CREATE INDEX recall_vectors_model ON recall_vectors (model, chunk);
`,
};

function version(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/** Brings the file up to {@link RECALL_SCHEMA_VERSION}; a warm open takes no write lock. */
export function ensureRecallSchema(db: DatabaseSync): void {
  if (version(db) >= RECALL_SCHEMA_VERSION) return;
  db.exec("BEGIN IMMEDIATE");
  try {
    for (let target = version(db) + 1; target <= RECALL_SCHEMA_VERSION; target++) {
      db.exec(RECALL_MIGRATIONS[target]);
      // PRAGMA takes no bound parameters; `target` is our own integer.
      db.exec(`PRAGMA user_version = ${target}`);
    }
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
