/**
 * The automatic memory's store: every observed exchange, verbatim, in `<home>/recall.db`
 * (`node:sqlite`, WAL, a busy timeout, opened lazily), and its ranked recall: BM25 over the
 * porter-stemmed full-text index, nudged by recency (docs/memory.md#automatic-recall-the-recall-provider).
 */
import { errorMessage } from "../base/error_text.ts";
import { join } from "../base/paths.ts";
import type { DatabaseSync } from "node:sqlite";
import { openRecallFile, type RecallStatements } from "./recall_connection.ts";
import { cosine } from "./recall_vector.ts";
import {
  chunkText,
  indexText,
  matchExpression,
  PREFIX_CHARS,
  prefixPhrase,
  queryTerms,
  termPhrase,
} from "./recall_text.ts";
import { DEFAULT_BUSY_TIMEOUT_MS } from "./sqlite_store.ts";

/** The file name under the agent's home. */
export const RECALL_FILENAME = "recall.db";

/** How many BM25 candidates are re-ranked with recency before the top K are taken. */
export const CANDIDATE_POOL = 40;

/**
 * How many postings (rows per searched term, summed) one recall may score. Terms are taken
 * rarest first until the budget is spent, so a word half the memory contains is not searched
 * when rarer words of the query already pick the candidates (the rarest is always searched).
 * Scoring is what a recall costs, so this bounds its time on a large store; a store smaller
 * than the budget searches every term.
 */
export const POSTINGS_BUDGET = 2500;

/** Recency's share of the score: a brand-new chunk ranks up to this much above an old twin. */
export const RECENCY_WEIGHT = 0.25;

/** Recency's half-life: a chunk this old gets half of {@link RECENCY_WEIGHT}. */
export const RECENCY_HALF_LIFE_MS = 30 * 86_400_000;

/** What one exchange writes. */
export interface RecallRecord {
  /** Whose memory (the agent's uuid). */
  readonly agent: string;
  /** The timeline it happened on, as provenance. */
  readonly timeline?: string | null;
  /** The verbatim text to keep. */
  readonly text: string;
  /** When it happened (default: now). */
  readonly at?: Date;
  /** `wake`, `compaction` or `mempalace` (default `wake`). */
  readonly origin?: string;
}

/** A query's embedding, for the hybrid rank. */
export interface SemanticQuery {
  /** The model the vector came from: only its vectors are compared. */
  readonly model: string;
  /** The query's unit vector. */
  readonly vector: Float32Array;
}

/** How many of the newest stored vectors a hybrid recall compares (beside the lexical ones). */
export const VECTOR_SCAN = 5000;

/**
 * The lexical share of a hybrid score: `LEXICAL_WEIGHT × score / best score + (1 −
 * LEXICAL_WEIGHT) × cosine similarity`, so a strong exact match and a close meaning count alike.
 */
export const LEXICAL_WEIGHT = 0.5;

/** One recalled chunk. */
export interface RecallHit {
  /** The chunk's id. */
  readonly id: number;
  /** The chunk's verbatim text. */
  readonly text: string;
  /** When its exchange happened. */
  readonly at: Date;
  /** Its exchange's timeline, if it had one. */
  readonly timeline: string | null;
  /** The final score (higher is better). */
  readonly score: number;
}

/** Options for {@link RecallStore}. */
export interface RecallStoreOptions {
  /** The exact file (default `<home>/recall.db`). */
  readonly path?: string;
  /** The harness home. */
  readonly home?: string;
  /** Busy timeout in milliseconds (default 5 s, as `memory.db`). */
  readonly busyTimeoutMs?: number;
}

/** Where the file lives: `path`, else `<home>/recall.db`, else `$HARNESS_HOME`, else `$HOME`. */
export function recallPath(options: RecallStoreOptions): string {
  if (options.path) return options.path;
  const home = options.home || Deno.env.get("HARNESS_HOME");
  if (home) return join(home, RECALL_FILENAME);
  const user = Deno.env.get("HOME");
  if (!user) {
    throw new Error(
      "Automatic memory has no place to live: HARNESS_HOME and HOME are both unset. Set " +
        "HARNESS_HOME to the agent's directory (recall.db goes there).",
    );
  }
  return join(user, ".basecradle_harness", RECALL_FILENAME);
}

/** A stored vector row. */
interface VectorRow {
  readonly chunk: number | bigint;
  readonly vector: Uint8Array;
}

/** A stored vector's float32 bytes as an array (copied: the blob's offset may be unaligned). */
function floats(bytes: Uint8Array): Float32Array {
  return new Float32Array(bytes.slice().buffer);
}

/**
 * The recall store. Constructing it touches no disk; the first call opens (and migrates) the
 * file. Every write is one `BEGIN IMMEDIATE` transaction, so overlapping wakes serialise on the
 * busy timeout instead of failing.
 */
export class RecallStore {
  readonly #options: RecallStoreOptions;
  #path: string | undefined;
  #db: DatabaseSync | null = null;
  #statements: RecallStatements | null = null;

  /** A store at `options.path` or under `options.home`. */
  constructor(options: RecallStoreOptions = {}) {
    this.#options = options;
  }

  /** The file this store reads and writes (resolved on first use). */
  get path(): string {
    return this.#path ??= recallPath(this.#options);
  }

  /** Whether the file is open. */
  get isOpen(): boolean {
    return this.#db !== null;
  }

  /** Stores one exchange, chunked; returns the number of chunks written (0 for blank text). */
  add(record: RecallRecord): number {
    return this.addChunks(record).length;
  }

  /** Stores one exchange, chunked; returns each chunk's id and text (none for blank text). */
  addChunks(record: RecallRecord): { id: number; text: string }[] {
    if (!record.text.trim()) return [];
    return this.transaction(() => this.#addInTransaction(record));
  }

  /** Stores chunks' embeddings from `model` (replacing any earlier vector of the chunk). */
  setVectors(model: string, rows: readonly { id: number; vector: Float32Array }[]): void {
    const s = this.#open().statements;
    this.transaction(() => {
      for (const row of rows) {
        s.setVector.run(row.id, model, new Uint8Array(row.vector.buffer.slice(0)));
      }
    });
  }

  /** Stores many records in one transaction (an import); returns the chunks written. */
  addMany(records: Iterable<RecallRecord>): number {
    return this.transaction(() => {
      let written = 0;
      for (const record of records) written += this.#addInTransaction(record).length;
      return written;
    });
  }

  /**
   * The `limit` best chunks of `agent`'s memory (`null`: anyone's in the file) for `text`: BM25 over the stemmed index (the
   * best {@link CANDIDATE_POOL}), each multiplied by `1 + RECENCY_WEIGHT · 2^(−age / half-life)`.
   * Chunks saying the same words (numbers and timestamps aside) count once, the best of them.
   * Empty for text with no searchable term. A damaged index throws.
   */
  search(
    agent: string | null,
    text: string,
    limit: number,
    now: Date = new Date(),
    semantic?: SemanticQuery,
  ): RecallHit[] {
    if (limit <= 0) return [];
    const lexical = this.#lexical(agent, text, now);
    const ranked = semantic ? this.#fused(agent, lexical, semantic) : lexical;
    // The same words said again (a daily greeting, a repeated reminder) fill one slot, not K.
    const seen = new Set<string>();
    const distinct: RecallHit[] = [];
    for (const hit of ranked) {
      const key = sameWordsKey(hit.text);
      if (seen.has(key)) continue;
      seen.add(key);
      distinct.push(hit);
      if (distinct.length >= limit) break;
    }
    return distinct;
  }

  /** The lexical candidates, best first: BM25 × recency. */
  #lexical(agent: string | null, text: string, now: Date): RecallHit[] {
    const terms = queryTerms(text);
    if (!terms.length) return [];
    const { statements: s } = this.#open();
    const match = this.#plan(terms);
    if (!match) return [];
    let candidates: { id: number | bigint; score: number }[];
    try {
      candidates = s.search.all(match, CANDIDATE_POOL) as typeof candidates;
    } catch (error) {
      throw new Error(`Memory recall failed: ${errorMessage(error)}`, { cause: error });
    }
    const hits: RecallHit[] = [];
    for (const candidate of candidates) {
      const hit = this.#hit(Number(candidate.id), agent, -candidate.score, now);
      if (hit) hits.push(hit);
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  /**
   * The lexical ranking fused with vector similarity ({@link LEXICAL_WEIGHT}): the query vector
   * is compared with the lexical candidates' vectors and the {@link VECTOR_SCAN} newest ones, so a
   * memory sharing no word with the query can still be found by meaning.
   */
  #fused(agent: string | null, lexical: RecallHit[], semantic: SemanticQuery): RecallHit[] {
    const s = this.#open().statements;
    const vectors = new Map<number, Float32Array>();
    for (const row of s.vectors.all(semantic.model, VECTOR_SCAN) as unknown as VectorRow[]) {
      vectors.set(Number(row.chunk), floats(row.vector));
    }
    for (const hit of lexical) {
      if (vectors.has(hit.id)) continue;
      const row = s.vector.get(hit.id, semantic.model) as unknown as VectorRow | undefined;
      if (row) vectors.set(hit.id, floats(row.vector));
    }
    const similar = [...vectors].map(([id, vector]) => ({
      id,
      sim: cosine(semantic.vector, vector),
    }))
      .sort((a, b) => b.sim - a.sim).slice(0, CANDIDATE_POOL);
    const best = lexical[0]?.score ?? 0;
    const fused = new Map<number, number>();
    for (const hit of lexical) {
      fused.set(hit.id, best > 0 ? LEXICAL_WEIGHT * (hit.score / best) : 0);
    }
    for (const { id, sim } of similar) {
      fused.set(id, (fused.get(id) ?? 0) + (1 - LEXICAL_WEIGHT) * Math.max(0, sim));
    }
    const byId = new Map(lexical.map((hit) => [hit.id, hit]));
    const hits: RecallHit[] = [];
    for (const [id, score] of fused) {
      const hit = byId.get(id) ?? this.#hit(id, agent, 0, new Date());
      if (hit) hits.push({ ...hit, score });
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  /** Chunk `id` as a hit scored `relevance` × recency, or `undefined` if not `agent`'s. */
  #hit(id: number, agent: string | null, relevance: number, now: Date): RecallHit | undefined {
    const row = this.#open().statements.chunk.get(id) as
      | { text: string; at: number; agent: string; timeline: string | null }
      | undefined;
    if (!row || (agent !== null && row.agent !== agent)) return undefined;
    const age = Math.max(0, now.getTime() - row.at);
    const recency = RECENCY_WEIGHT * Math.pow(2, -age / RECENCY_HALF_LIFE_MS);
    return {
      id,
      text: row.text,
      at: new Date(row.at),
      timeline: row.timeline,
      score: relevance * (1 + recency),
    };
  }

  /** A value kept in `recall_meta`, or `null`. */
  meta(key: string): string | null {
    const row = this.#open().statements.meta.get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  /** Sets a `recall_meta` value. */
  setMeta(key: string, value: string): void {
    this.#open().statements.setMeta.run(key, value);
  }

  /**
   * Runs `fn` inside one write transaction (so a check-then-write, like a one-off import, is
   * atomic against another process).
   */
  transaction<T>(fn: () => T): T {
    const { db } = this.#open();
    db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
  }

  /** Adds a record; the caller holds the transaction. Returns the chunks written. */
  addInTransaction(record: RecallRecord): number {
    return this.#addInTransaction(record).length;
  }

  /** Closes the file; the next call reopens it. */
  close(): void {
    this.#db?.close();
    this.#db = null;
    this.#statements = null;
  }

  #addInTransaction(record: RecallRecord): { id: number; text: string }[] {
    const chunks = chunkText(record.text);
    if (!chunks.length) return [];
    const s = this.#open().statements;
    const agent = this.#nameId(record.agent);
    const timeline = record.timeline ? this.#nameId(record.timeline) : null;
    const at = (record.at ?? new Date()).getTime();
    const exchange = s.addExchange.run(agent, timeline, at, record.origin ?? "wake")
      .lastInsertRowid;
    const written: { id: number; text: string }[] = [];
    for (const chunk of chunks) {
      const id = s.addChunk.run(exchange, chunk).lastInsertRowid;
      written.push({ id: Number(id), text: chunk });
      const body = indexText(chunk);
      s.addIndex.run(id, body);
      s.clearTerms.run();
      s.addTerm.run(1, body);
      for (const row of s.chunkTerms.all() as { term: string }[]) s.countTerm.run(row.term);
    }
    return written;
  }

  /**
   * The MATCH expression for `terms` within {@link POSTINGS_BUDGET}: each term (and, for a long
   * word, its five-letter prefix) is looked up in the index's vocabulary by the stem the index
   * holds (the stem comes from the same tokenizer, run over the term in a scratch table), then
   * taken rarest first. A term the index does not hold costs nothing and matches nothing.
   */
  #plan(terms: readonly string[]): string {
    const s = this.#open().statements;
    // Each term is one token, so the n-th token of the one scratch row is the n-th term's stem.
    s.clearTerms.run();
    s.addTerm.run(1, terms.join(" "));
    const stems = (s.stems.all() as { term: string }[]).map((token) => token.term);
    // A word the tokenizer splits differently than the query's words: search them all, unpriced.
    if (stems.length !== terms.length) return matchExpression(terms);
    const priced: { part: string; docs: number }[] = [];
    terms.forEach((term, i) => {
      const stem = stems[i];
      const docs = (s.termDocs.get(stem) as { docs: number } | undefined)?.docs ?? 0;
      if (docs > 0) priced.push({ part: termPhrase(term), docs });
      const prefix = prefixPhrase(term);
      if (prefix) {
        const head = term.slice(0, PREFIX_CHARS);
        const sum = (s.prefixDocs.get(head, `${head}\u{10ffff}`) as { docs: number | null })
          .docs ?? 0;
        if (sum > 0) priced.push({ part: prefix, docs: sum });
      }
    });
    priced.sort((a, b) => a.docs - b.docs);
    const parts: string[] = [];
    let spent = 0;
    for (const { part, docs } of priced) {
      if (parts.length && spent + docs > POSTINGS_BUDGET) break;
      if (!parts.includes(part)) parts.push(part);
      spent += docs;
    }
    return parts.join(" OR ");
  }

  #nameId(name: string): number | bigint {
    const s = this.#open().statements;
    const row = s.nameId.get(name) as { id: number } | undefined;
    if (row) return row.id;
    return s.addName.run(name).lastInsertRowid;
  }

  #open(): { db: DatabaseSync; statements: RecallStatements } {
    if (this.#db && this.#statements) return { db: this.#db, statements: this.#statements };
    const { db, statements } = openRecallFile(
      this.path,
      this.#options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    );
    this.#db = db;
    this.#statements = statements;
    return { db, statements };
  }
}

/** What two chunks share when they say the same words: letters only, lower-cased. */
function sameWordsKey(text: string): string {
  return indexText(text).toLowerCase().replace(/[^\p{L}]+/gu, " ").trim();
}
