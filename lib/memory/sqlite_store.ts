/**
 * The default memory store: one private SQLite file (`node:sqlite`), opened lazily, in WAL mode
 * with a busy timeout, schema versioned and migrated forward-only on open. The file is the same
 * one the Python reference writes, so an agent keeps its memory across the switch.
 */
import { errorMessage } from "../base/error_text.ts";
import { dirname, join } from "../base/paths.ts";
import { DatabaseSync } from "node:sqlite";
import { ftsMatchExpression } from "./fts_query.ts";
import { ensureSchema } from "./schema.ts";
import type { MemoryEntry, MemoryHit, MemoryStore } from "./store.ts";
import { pythonIsoUtc } from "./timestamp.ts";

/** The file name under the agent's home. */
export const MEMORY_FILENAME = "memory.db";
/** The fallback directory under the user's home when `HARNESS_HOME` is unset (library use). */
export const DEFAULT_MEMORY_DIRNAME = ".basecradle_harness";
/**
 * How long a statement waits for another process's lock. node:sqlite defaults to 0, which turns
 * two overlapping wakes into "database is locked" instead of a short wait.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Where a store's file lives. `path` wins, then `home`, then the environment. */
export interface MemoryLocation {
  /** The exact file. */
  readonly path?: string;
  /** A harness home; the file is `<home>/memory.db`. */
  readonly home?: string;
}

/** Options for {@link SqliteMemoryStore}. */
export interface SqliteMemoryStoreOptions extends MemoryLocation {
  /** Busy timeout in milliseconds (default {@link DEFAULT_BUSY_TIMEOUT_MS}). */
  readonly busyTimeoutMs?: number;
}

/**
 * The memory file for a location: `path`, else `<home>/memory.db`, else
 * `$HARNESS_HOME/memory.db`, else `$HOME/.basecradle_harness/memory.db`. An empty `HARNESS_HOME`
 * or `HOME` counts as unset, as in the reference.
 * @throws {Error} when none of them is set (config refuses a missing HOME the same way).
 */
export function resolveMemoryPath(location: MemoryLocation = {}): string {
  if (location.path) return location.path;
  if (location.home) return join(location.home, MEMORY_FILENAME);
  const harnessHome = Deno.env.get("HARNESS_HOME");
  if (harnessHome) return join(harnessHome, MEMORY_FILENAME);
  // HOME only, not the passwd entry: node:os would boot Deno's Node layer for every wake.
  const userHome = Deno.env.get("HOME");
  if (!userHome) {
    throw new Error(
      "Memory has no place to live: HARNESS_HOME and HOME are both unset. Set HARNESS_HOME " +
        "to the agent's directory (memory.db goes there), or pass `home` or `path`.",
    );
  }
  return join(userHome, DEFAULT_MEMORY_DIRNAME, MEMORY_FILENAME);
}

/**
 * Memory in one SQLite file. Constructing it touches no disk; the first operation creates the
 * parent directory, opens the file, switches it to WAL and migrates the schema.
 */
export class SqliteMemoryStore implements MemoryStore {
  /** The file this store reads and writes. Resolved at construction, like the reference. */
  readonly path: string;
  readonly #busyTimeoutMs: number;
  #db: DatabaseSync | null = null;

  /** A store at `options.path`, `<options.home>/memory.db`, or the default location. */
  constructor(options: SqliteMemoryStoreOptions = {}) {
    this.path = resolveMemoryPath(options);
    this.#busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  }

  /** Whether the file has been opened (the lazy open has happened and not been closed). */
  get isOpen(): boolean {
    return this.#db !== null;
  }

  /** Upserts `value` under `key`; an existing key keeps `created_at` and refreshes the rest. */
  write(key: string, value: string): void {
    const now = pythonIsoUtc();
    // One statement is atomic on its own, so no explicit transaction is needed; the FTS
    // index follows through the triggers.
    this.#open().prepare(
      `INSERT INTO memories (key, value, created_at, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ).run(key, value, now, now);
  }

  /** The value under `key`, or `null`. */
  read(key: string): string | null {
    const row = this.#open().prepare("SELECT value FROM memories WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row ? row.value : null;
  }

  /** The full row under `key`, or `null`. */
  entry(key: string): MemoryEntry | null {
    const row = this.#open().prepare(
      "SELECT key, value, created_at, updated_at FROM memories WHERE key = ?",
    ).get(key) as Record<"key" | "value" | "created_at" | "updated_at", string> | undefined;
    if (!row) return null;
    return { key: row.key, value: row.value, createdAt: row.created_at, updatedAt: row.updated_at };
  }

  /** Every key, sorted by SQLite's binary collation (the reference's `ORDER BY key`). */
  keys(): string[] {
    const rows = this.#open().prepare("SELECT key FROM memories ORDER BY key").all() as {
      key: string;
    }[];
    return rows.map((row) => row.key);
  }

  /** Forgets `key`; `true` when a row was deleted. */
  delete(key: string): boolean {
    const result = this.#open().prepare("DELETE FROM memories WHERE key = ?").run(key);
    return Number(result.changes) > 0;
  }

  /**
   * Up to `limit` rows matching any whitespace-separated term of `query` in key or value, by
   * FTS5 rank. The query is sanitised (every term a quoted phrase), so operator characters
   * are plain text. A failing index throws an Error naming the cause.
   */
  search(query: string, limit: number): MemoryHit[] {
    const match = ftsMatchExpression(query);
    if (!match) return [];
    const db = this.#open();
    try {
      const rows = db.prepare(
        `SELECT key, value FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?`,
      ).all(match, limit) as { key: string; value: string }[];
      return rows.map((row) => ({ key: row.key, value: row.value }));
    } catch (error) {
      // A damaged index must read as a failure, never as "nothing matched".
      throw new Error(`Memory search failed: ${errorMessage(error)}`, { cause: error });
    }
  }

  /** Closes the connection; the next operation reopens it. Safe to call repeatedly. */
  close(): void {
    this.#db?.close();
    this.#db = null;
  }

  #open(): DatabaseSync {
    if (this.#db) return this.#db;
    // Deno's own mkdir: importing node:fs would cost every process that imports the library
    // ~25 ms at start-up, for this one call.
    Deno.mkdirSync(dirname(this.path), { recursive: true });
    const db = new DatabaseSync(this.path, { timeout: this.#busyTimeoutMs });
    try {
      enableWal(db);
      ensureSchema(db);
    } catch (error) {
      db.close();
      throw new Error(`Could not open memory at ${this.path}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    this.#db = db;
    return db;
  }
}

/**
 * Switches the file to WAL so readers never block the writer. WAL is persistent and the Python
 * reference opens a WAL file transparently. If another process holds the file in rollback mode
 * the switch can fail; the store then works on in rollback mode, which is slower, not wrong.
 */
function enableWal(db: DatabaseSync): void {
  try {
    db.exec("PRAGMA journal_mode = WAL");
  } catch {
    // Keep the rollback journal; the busy timeout still serialises writers.
  }
}
