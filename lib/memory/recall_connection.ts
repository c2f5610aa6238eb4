/**
 * One connection to `recall.db`: the file opened in WAL mode and migrated, the per-connection
 * scratch tables that run the index's tokenizer over a query, and every statement the recall
 * store runs, prepared once. Apart from the store so its queries read without the SQL plumbing.
 */
import { errorMessage } from "../base/error_text.ts";
import { dirname } from "../base/paths.ts";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { ensureRecallSchema } from "./recall_schema.ts";

/** Prepared statements, made once per connection. */
export interface RecallStatements {
  readonly nameId: StatementSync;
  readonly addName: StatementSync;
  readonly addExchange: StatementSync;
  readonly addChunk: StatementSync;
  readonly addIndex: StatementSync;
  readonly search: StatementSync;
  readonly chunk: StatementSync;
  readonly meta: StatementSync;
  readonly setMeta: StatementSync;
  readonly clearTerms: StatementSync;
  readonly addTerm: StatementSync;
  readonly stems: StatementSync;
  readonly termDocs: StatementSync;
  readonly prefixDocs: StatementSync;
  readonly chunkTerms: StatementSync;
  readonly countTerm: StatementSync;
  readonly setVector: StatementSync;
  readonly vectors: StatementSync;
  readonly vector: StatementSync;
}

/**
 * Opens (creating its folder and migrating it) the file at `path`, waiting up to `busyTimeoutMs`
 * for another wake's write. A file that cannot be opened or migrated throws naming the path.
 */
export function openRecallFile(
  path: string,
  busyTimeoutMs: number,
): { db: DatabaseSync; statements: RecallStatements } {
  Deno.mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: busyTimeoutMs });
  try {
    try {
      db.exec("PRAGMA journal_mode = WAL");
    } catch {
      // Another process holds the file in rollback mode: slower, not wrong.
    }
    // WAL with synchronous=NORMAL never corrupts the file; a power cut may lose the last
    // exchanges, and an exchange costs no fsync of its own.
    db.exec("PRAGMA synchronous = NORMAL");
    ensureRecallSchema(db);
    // Scratch objects, per connection: the tokenizer the index uses, run over a query's terms
    // or a chunk's text, and its tokens read back in order or as distinct terms.
    db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query USING fts5(body, " +
        "tokenize='porter unicode61 remove_diacritics 2');" +
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query_terms USING " +
        "fts5vocab(temp, recall_query, 'instance');" +
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_query_rows USING " +
        "fts5vocab(temp, recall_query, 'row');",
    );
    return { db, statements: prepare(db) };
  } catch (error) {
    db.close();
    throw new Error(`Could not open automatic memory at ${path}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

/** Every statement the store runs, prepared on `db`. */
function prepare(db: DatabaseSync): RecallStatements {
  return {
    nameId: db.prepare("SELECT id FROM recall_names WHERE name = ?"),
    addName: db.prepare("INSERT INTO recall_names (name) VALUES (?)"),
    addExchange: db.prepare(
      "INSERT INTO recall_exchanges (agent, timeline, at, origin) VALUES (?, ?, ?, ?)",
    ),
    addChunk: db.prepare("INSERT INTO recall_chunks (exchange, text) VALUES (?, ?)"),
    addIndex: db.prepare("INSERT INTO recall_fts (rowid, body) VALUES (?, ?)"),
    // bm25() is negative, better matches more negative: ascending order is best first.
    search: db.prepare(
      "SELECT rowid AS id, bm25(recall_fts) AS score FROM recall_fts WHERE recall_fts MATCH ? " +
        "ORDER BY score LIMIT ?",
    ),
    chunk: db.prepare(
      `SELECT c.text AS text, e.at AS at, a.name AS agent, t.name AS timeline
       FROM recall_chunks c JOIN recall_exchanges e ON e.id = c.exchange
       JOIN recall_names a ON a.id = e.agent LEFT JOIN recall_names t ON t.id = e.timeline
       WHERE c.id = ?`,
    ),
    meta: db.prepare("SELECT value FROM recall_meta WHERE key = ?"),
    setMeta: db.prepare(
      "INSERT INTO recall_meta (key, value) VALUES (?, ?) " +
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ),
    clearTerms: db.prepare("DELETE FROM temp.recall_query"),
    addTerm: db.prepare("INSERT INTO temp.recall_query (rowid, body) VALUES (?, ?)"),
    stems: db.prepare("SELECT term, offset FROM temp.recall_query_terms ORDER BY offset"),
    termDocs: db.prepare("SELECT docs FROM recall_terms WHERE term = ?"),
    prefixDocs: db.prepare(
      "SELECT sum(docs) AS docs FROM recall_terms WHERE term >= ? AND term < ?",
    ),
    chunkTerms: db.prepare("SELECT term FROM temp.recall_query_rows"),
    setVector: db.prepare(
      "INSERT INTO recall_vectors (chunk, model, vector) VALUES (?, ?, ?) " +
        "ON CONFLICT(chunk) DO UPDATE SET model = excluded.model, vector = excluded.vector",
    ),
    vectors: db.prepare(
      "SELECT chunk, vector FROM recall_vectors WHERE model = ? ORDER BY chunk DESC LIMIT ?",
    ),
    vector: db.prepare("SELECT chunk, vector FROM recall_vectors WHERE chunk = ? AND model = ?"),
    countTerm: db.prepare(
      "INSERT INTO recall_terms (term, docs) VALUES (?, 1) " +
        "ON CONFLICT(term) DO UPDATE SET docs = docs + 1",
    ),
  };
}
