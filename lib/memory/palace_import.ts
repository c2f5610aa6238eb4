/**
 * Reading a MemPalace palace's verbatim drawers so an agent switched from the Python harness keeps
 * what it remembered (docs/memory.md#the-mempalace-drop-in). A palace is a ChromaDB persistent
 * store: `<palace>/chroma.sqlite3` holds each record in `embeddings` and its fields in
 * `embedding_metadata` rows (`key`, `string_value`, `int_value`, …), the drawer's text under the
 * key `chroma:document`; the vectors live in binary segment files beside it and are not read.
 * MemPalace files its drawers in the collection `mempalace_drawers`.
 */
import { errorMessage } from "../base/error_text.ts";
import { join } from "../base/paths.ts";
import { DatabaseSync } from "node:sqlite";

/** The palace's SQLite file. */
export const CHROMA_FILENAME = "chroma.sqlite3";
/** The collection MemPalace files drawers in. */
export const DRAWERS_COLLECTION = "mempalace_drawers";
/** The metadata key ChromaDB keeps a record's document text under. */
export const DOCUMENT_KEY = "chroma:document";

/** One drawer as read from the palace. */
export interface PalaceDrawer {
  /** The verbatim drawer text. */
  readonly text: string;
  /** When it was filed (`filed_at`, else the record's `created_at`), if readable. */
  readonly at?: Date;
  /** The drawer's wing (`conversations` for the harness's mined exchanges). */
  readonly wing?: string;
}

/** What reading a palace found. */
export type PalaceRead =
  | { readonly status: "absent"; readonly path: string }
  | { readonly status: "unreadable"; readonly path: string; readonly reason: string }
  | {
    readonly status: "read";
    readonly path: string;
    readonly drawers: PalaceDrawer[];
    readonly skipped: number;
  };

/**
 * Reads every drawer of the palace at `palaceDir`, read-only. `absent` when there is no
 * `chroma.sqlite3`; `unreadable` (with the reason) when it cannot be opened or lacks the ChromaDB
 * tables; otherwise the drawers with text, and how many records were skipped (MemPalace's
 * `_registry` sentinels and records without a document).
 */
export function readPalace(palaceDir: string): PalaceRead {
  const path = join(palaceDir, CHROMA_FILENAME);
  try {
    Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { status: "absent", path };
    return { status: "unreadable", path, reason: errorMessage(error) };
  }
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
  } catch (error) {
    return { status: "unreadable", path, reason: errorMessage(error) };
  }
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
      }[]).map((row) => row.name),
    );
    for (const needed of ["embeddings", "embedding_metadata"]) {
      if (!tables.has(needed)) {
        return {
          status: "unreadable",
          path,
          reason: `no '${needed}' table (not a ChromaDB store)`,
        };
      }
    }
    // With the collection tables present, only the drawers collection is read (MemPalace keeps
    // other collections, such as its closet index, beside it).
    const scoped = tables.has("segments") && tables.has("collections");
    const rows = db.prepare(
      `SELECT e.id AS id, e.created_at AS created_at, m.key AS key,
              m.string_value AS text, m.int_value AS int_value
       FROM embeddings e JOIN embedding_metadata m ON m.id = e.id
       ${
        scoped
          ? `JOIN segments s ON s.id = e.segment_id JOIN collections c ON c.id = s.collection
             WHERE c.name = ? AND`
          : "WHERE"
      } m.key IN (?, 'filed_at', 'wing', 'room', 'ingest_mode')
       ORDER BY e.id`,
    ).all(...(scoped ? [DRAWERS_COLLECTION, DOCUMENT_KEY] : [DOCUMENT_KEY])) as {
      id: number;
      created_at: string | null;
      key: string;
      text: string | null;
    }[];
    const records = new Map<number, Record<string, string | null>>();
    for (const row of rows) {
      const record = records.get(row.id) ?? { created_at: row.created_at };
      record[row.key] = row.text;
      records.set(row.id, record);
    }
    const drawers: PalaceDrawer[] = [];
    let skipped = 0;
    for (const record of records.values()) {
      const text = record[DOCUMENT_KEY];
      if (!text?.trim() || record.room === "_registry" || record.ingest_mode === "registry") {
        skipped++;
        continue;
      }
      drawers.push({
        text,
        at: parseDate(record.filed_at) ?? parseDate(record.created_at),
        wing: record.wing ?? undefined,
      });
    }
    return { status: "read", path, drawers, skipped };
  } catch (error) {
    return { status: "unreadable", path, reason: errorMessage(error) };
  } finally {
    db.close();
  }
}

/** An ISO-ish date (`filed_at` is Python's local `isoformat()`; `created_at` SQLite's UTC). */
function parseDate(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)
    ? `${value.replace(" ", "T")}Z`
    : value;
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
