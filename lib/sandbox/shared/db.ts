/**
 * The sandbox's state: one SQLite database (node:sqlite), in a data directory or in memory.
 * Records that are filtered or mutated get real columns; everything else about an item rides in
 * its `content` JSON, so adding an item kind is a serializer change, not a migration.
 */
import { DatabaseSync } from "node:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  uuid TEXT PRIMARY KEY,
  handle TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
  email TEXT UNIQUE COLLATE NOCASE,
  password_hash TEXT,
  roles TEXT NOT NULL DEFAULT '[]',
  suspended INTEGER NOT NULL DEFAULT 0,
  visible INTEGER NOT NULL DEFAULT 1,
  max_timelines INTEGER NOT NULL,
  max_participants INTEGER NOT NULL,
  max_pending_tasks INTEGER NOT NULL,
  about TEXT,
  time_zone TEXT NOT NULL DEFAULT 'UTC',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
  uuid TEXT PRIMARY KEY,
  user_uuid TEXT NOT NULL,
  token TEXT NOT NULL UNIQUE,
  name TEXT,
  ip_address TEXT,
  user_agent TEXT,
  kind TEXT NOT NULL DEFAULT 'api',
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_uuid, uuid);
CREATE TABLE IF NOT EXISTS trusts (
  truster TEXT NOT NULL,
  trustee TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (truster, trustee)
);
CREATE TABLE IF NOT EXISTS timelines (
  uuid TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  owner_uuid TEXT NOT NULL,
  locked INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS participations (
  timeline_uuid TEXT NOT NULL,
  user_uuid TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (timeline_uuid, user_uuid)
);
CREATE TABLE IF NOT EXISTS items (
  uuid TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  timeline_uuid TEXT NOT NULL,
  user_uuid TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  content TEXT NOT NULL,
  status TEXT,
  activate_at TEXT,
  endpoint_uuid TEXT,
  ingest_token TEXT UNIQUE,
  enabled INTEGER
);
CREATE INDEX IF NOT EXISTS items_kind_timeline ON items (kind, timeline_uuid, uuid);
CREATE INDEX IF NOT EXISTS items_due ON items (kind, status, activate_at);
CREATE TABLE IF NOT EXISTS blobs (
  key TEXT PRIMARY KEY,
  timeline_uuid TEXT NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  bytes BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  kind TEXT NOT NULL,
  timeline_uuid TEXT NOT NULL,
  user_uuid TEXT NOT NULL,
  key TEXT NOT NULL,
  item_uuid TEXT NOT NULL,
  PRIMARY KEY (kind, timeline_uuid, user_uuid, key)
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  event TEXT NOT NULL,
  timeline TEXT NOT NULL,
  item TEXT,
  actor TEXT,
  at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS contact_messages (
  uuid TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email_address TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'received',
  user_uuid TEXT,
  ip_address TEXT,
  user_agent TEXT,
  headers TEXT NOT NULL DEFAULT '{}',
  data TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS integrations (
  user_uuid TEXT PRIMARY KEY,
  url TEXT,
  enabled INTEGER NOT NULL DEFAULT 0,
  secret TEXT NOT NULL,
  failure_count INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS notes (
  uuid TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  user_uuid TEXT NOT NULL,
  contact_message_uuid TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

/**
 * Opens (creating if needed) the sandbox database.
 * @param dataDir directory for `sandbox.db`; `undefined` keeps everything in memory.
 */
export function openDatabase(dataDir?: string): DatabaseSync {
  let db: DatabaseSync;
  if (dataDir === undefined) {
    db = new DatabaseSync(":memory:");
  } else {
    mkdirSync(dataDir, { recursive: true });
    // A busy timeout, because a second process (e.g. an inspector) may hold the file briefly.
    db = new DatabaseSync(join(dataDir, "sandbox.db"), { timeout: 5000 });
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  }
  db.exec(SCHEMA);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  return db;
}

/**
 * Runs `work` in one `BEGIN IMMEDIATE` transaction (read-then-write safe against another
 * writer), committing on return and rolling back on throw.
 */
export function transaction<T>(db: DatabaseSync, work: () => T): T {
  if (db.isTransaction) return work();
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
