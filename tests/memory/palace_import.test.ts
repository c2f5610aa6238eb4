/**
 * The MemPalace drop-in: a palace's `chroma.sqlite3` (built here with ChromaDB's own table and
 * column names) is imported once into recall.db, its verbatim drawers then recalled like any
 * exchange; a palace that cannot be read is a WARNING naming it, and nothing else breaks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { loadMemoryProvider } from "../../lib/memory/loader.ts";
import { readPalace } from "../../lib/memory/palace_import.ts";
import type { RecallMemoryProvider } from "../../lib/memory/recall_provider.ts";
import { recordingJournal, tempHome } from "./helpers.ts";

const ADA = "11111111-1111-4111-8111-111111111111";

/** ChromaDB's persistent schema, as its sysdb and metadb migrations leave it (the parts read). */
const CHROMA_DDL = `
CREATE TABLE collections (id TEXT PRIMARY KEY, name TEXT NOT NULL, dimension INTEGER,
  database_id TEXT NOT NULL, config_json_str TEXT, UNIQUE (name, database_id));
CREATE TABLE segments (id TEXT PRIMARY KEY, type TEXT NOT NULL, scope TEXT NOT NULL,
  collection TEXT REFERENCES collections(id) NOT NULL);
CREATE TABLE embeddings (id INTEGER PRIMARY KEY, segment_id TEXT NOT NULL,
  embedding_id TEXT NOT NULL, seq_id BLOB NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, UNIQUE (segment_id, embedding_id));
CREATE TABLE embedding_metadata (id INTEGER REFERENCES embeddings(id) ON DELETE CASCADE NOT NULL,
  key TEXT NOT NULL, string_value TEXT, int_value INTEGER, float_value REAL, bool_value INTEGER,
  PRIMARY KEY (id, key));
CREATE VIRTUAL TABLE embedding_fulltext_search USING fts5(string_value, tokenize='trigram');
`;

interface Drawer {
  readonly collection: string;
  readonly document: string;
  readonly room?: string;
  readonly filedAt?: string;
}

/** Writes `<palace>/chroma.sqlite3` holding `drawers` the way ChromaDB stores records. */
function fabricatePalace(palace: string, drawers: readonly Drawer[]): void {
  Deno.mkdirSync(palace, { recursive: true });
  const db = new DatabaseSync(join(palace, "chroma.sqlite3"));
  db.exec(CHROMA_DDL);
  const collections = new Map<string, string>();
  let n = 0;
  for (const drawer of drawers) {
    let segment = collections.get(drawer.collection);
    if (!segment) {
      const collection = crypto.randomUUID();
      segment = crypto.randomUUID();
      db.prepare("INSERT INTO collections (id, name, dimension, database_id) VALUES (?, ?, 384, ?)")
        .run(collection, drawer.collection, "00000000-0000-0000-0000-000000000000");
      db.prepare("INSERT INTO segments VALUES (?, 'urn:chroma:segment/metadata/sqlite', ?, ?)")
        .run(segment, "METADATA", collection);
      collections.set(drawer.collection, segment);
    }
    n++;
    const id = db.prepare(
      "INSERT INTO embeddings (segment_id, embedding_id, seq_id) VALUES (?, ?, ?)",
    ).run(segment, `drawer_conversations_general_${n}`, new Uint8Array([n])).lastInsertRowid;
    const meta = db.prepare(
      "INSERT INTO embedding_metadata (id, key, string_value, int_value) VALUES (?, ?, ?, ?)",
    );
    meta.run(id, "chroma:document", drawer.document, null);
    meta.run(id, "wing", "conversations", null);
    meta.run(id, "room", drawer.room ?? "general", null);
    meta.run(id, "chunk_index", null, 0);
    if (drawer.filedAt) meta.run(id, "filed_at", drawer.filedAt, null);
    db.prepare("INSERT INTO embedding_fulltext_search (rowid, string_value) VALUES (?, ?)")
      .run(id, drawer.document);
  }
  db.close();
}

const DRAWERS: Drawer[] = [
  {
    collection: "mempalace_drawers",
    document: "> where does the team keep the release checklist?\nIn the ops wiki under /release.",
    filedAt: "2026-09-14T08:30:00.123456",
  },
  {
    collection: "mempalace_drawers",
    document: "> my cat is named Pixel\nA fine name for a cat.",
  },
  { collection: "mempalace_drawers", document: "[registry] /x/y.md", room: "_registry" },
  { collection: "mempalace_closets", document: "a closet index line that is not a drawer" },
];

async function bindPalace(home: string, palacePath?: string) {
  const journal = recordingJournal();
  const bound = await loadMemoryProvider("mempalace", { home, journal, palacePath });
  return { provider: bound.provider as RecallMemoryProvider, journal };
}

Deno.test("palace: the drawers of a chroma.sqlite3 are read verbatim, sentinels and other collections left out", () => {
  using dir = tempHome();
  const palace = join(dir.home, "mempalace");
  fabricatePalace(palace, DRAWERS);
  const read = readPalace(palace);
  assert.equal(read.status, "read");
  if (read.status !== "read") return;
  assert.deepEqual(read.drawers.map((d) => d.text), [DRAWERS[0].document, DRAWERS[1].document]);
  assert.equal(read.skipped, 1);
  assert.equal(read.drawers[0].at?.toISOString().slice(0, 10), "2026-09-14");
  assert.equal(read.drawers[0].wing, "conversations");
  assert.deepEqual(readPalace(join(dir.home, "nowhere")).status, "absent");
});

Deno.test("palace: mempalace imports the palace once, with a journal line, and recalls from it", async () => {
  using dir = tempHome();
  fabricatePalace(join(dir.home, "mempalace"), DRAWERS);
  const first = await bindPalace(dir.home);
  const recalled = await first.provider.context({ agent: ADA, query: "what is my cat called?" });
  assert.ok(recalled?.includes("> my cat is named Pixel · A fine name for a cat."), recalled ?? "");
  assert.match(recalled ?? "", /- \[\d{4}-\d{2}-\d{2}, imported\] > my cat/);
  const lines = first.journal.lines.map((l) => `${l.level} ${l.text}`);
  assert.equal(lines.length, 2, lines.join("\n"));
  assert.match(lines[0], /^INFO memory op=bind provider=mempalace backend=recall /);
  assert.match(
    lines[1],
    /^INFO memory op=import source=mempalace drawers=2 skipped=1 palace=\S+chroma\.sqlite3$/,
  );
  first.provider.close();
  // The next wake finds the import done: no second copy, no second line.
  const second = await bindPalace(dir.home);
  const hits = second.provider.recall.search(ADA, "cat Pixel", 10);
  assert.equal(hits.length, 1);
  assert.equal(second.journal.lines.filter((l) => /op=import/.test(l.text)).length, 0);
  second.provider.close();
});

Deno.test("palace: MEMPALACE_PALACE_PATH points the import elsewhere", async () => {
  using dir = tempHome();
  const elsewhere = join(dir.home, "palaces", "ada");
  fabricatePalace(elsewhere, DRAWERS);
  const { provider, journal } = await bindPalace(dir.home, elsewhere);
  await provider.observe({ user: "hello", assistant: "hi", scope: { agent: ADA } });
  assert.ok(
    journal.lines.some((l) => l.text.includes(`palace=${join(elsewhere, "chroma.sqlite3")}`)),
  );
  provider.close();
});

Deno.test("palace: an unreadable palace is a WARNING saying what was not imported; memory works on", async () => {
  using dir = tempHome();
  const palace = join(dir.home, "mempalace");
  Deno.mkdirSync(palace);
  Deno.writeTextFileSync(join(palace, "chroma.sqlite3"), "not sqlite at all ".repeat(100));
  const { provider, journal } = await bindPalace(dir.home);
  await provider.observe({ user: "the door code is 4711", assistant: "ok", scope: { agent: ADA } });
  const warnings = journal.lines.filter((l) => l.level === "WARNING").map((l) => l.text);
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0],
    /^memory op=import source=mempalace result=skipped palace=\S+chroma\.sqlite3 reason=/,
  );
  assert.ok(
    (await provider.context({ agent: ADA, query: "what is the door code" }))?.includes("4711"),
  );
  provider.close();
});
