/**
 * The automatic memory provider, `recall` (docs/memory.md#automatic-recall-the-recall-provider):
 * every engaged exchange is kept verbatim in `<home>/recall.db`, the most relevant chunks are
 * recalled into turn 0, and `memory_search` reaches the rest on demand. Local-first: no key, no
 * network. It also serves `HARNESS_MEMORY_PROVIDER=mempalace`, importing a MemPalace palace's
 * verbatim drawers once. Loaded lazily, only when one of those names is bound.
 */
import { errorMessage } from "../base/error_text.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { join } from "../base/paths.ts";
import type { Tool } from "../core/types/tool.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { MemorySearchTool } from "./memory_search.ts";
import { readPalace } from "./palace_import.ts";
import type { MemoryExchange, MemoryProvider, MemoryScope } from "./provider.ts";
import type { Embedder, EmbedderOptions } from "./recall_embeddings.ts";
import { type RecallHit, RecallStore, type SemanticQuery } from "./recall_store.ts";
import { oneLine, queryText } from "./recall_text.ts";

/** The heading above the memories recalled into a turn: recall the model did not ask for. */
export const RECALLED_HEADING =
  "Relevant memories from past conversations (across all your timelines):";

/** How many chunks turn 0 recalls by default (`HARNESS_MEMORY_RECALL_K`). */
export const DEFAULT_RECALL_K = 5;

/** The longest a recalled line gets, in UTF-16 units. */
export const RECALLED_LINE_CHARS = 600;

/** The `recall_meta` key that marks a palace import as done. */
export const PALACE_IMPORT_KEY = "mempalace_import";

/** The palace directory under the harness home (the Python harness's default). */
export const PALACE_DIRNAME = "mempalace";

/** Options for {@link RecallMemoryProvider}. */
export interface RecallMemoryProviderOptions {
  /** The harness home: `recall.db` and the default palace live under it. */
  readonly home?: string;
  /** The exact store file (tests). */
  readonly path?: string;
  /** Where import and bind lines go. */
  readonly journal?: Journal;
  /** Chunks recalled into turn 0; 0 turns automatic recall off (default 5). */
  readonly k?: number;
  /** A MemPalace palace to import from (default `<home>/mempalace`). */
  readonly palacePath?: string;
  /** An embeddings model to rank with as well (`HARNESS_MEMORY_EMBEDDINGS_MODEL`). */
  readonly embeddings?: EmbedderOptions;
  /** The embedder itself (tests); wins over `embeddings`. */
  readonly embedder?: Embedder;
}

/** The automatic memory provider. Constructing it touches no disk. */
export class RecallMemoryProvider implements MemoryProvider {
  /** The store every surface shares. */
  readonly recall: RecallStore;
  readonly #journal: Journal;
  readonly #k: number;
  readonly #palacePath: string | undefined;
  /** The agent the hooks last named: `memory_search` searches that agent's memory. */
  #agent: string | null = null;
  #imported = false;
  readonly #embeddings: EmbedderOptions | undefined;
  #embedder: Promise<Embedder> | undefined;

  /** A provider under `options.home`. */
  constructor(options: RecallMemoryProviderOptions = {}) {
    this.recall = new RecallStore({ home: options.home, path: options.path });
    this.#journal = options.journal ?? silentJournal;
    this.#k = options.k ?? DEFAULT_RECALL_K;
    this.#palacePath = options.palacePath ??
      (options.home ? join(options.home, PALACE_DIRNAME) : undefined);
    this.#embeddings = options.embeddings;
    if (options.embedder) this.#embedder = Promise.resolve(options.embedder);
  }

  /** The read-only `memory_search` tool. */
  tools(): Tool[] {
    return [new MemorySearchTool((query, limit) => this.search(query, limit))];
  }

  /**
   * Keeps the exchange verbatim: what the model read, its closing text, and what it posted. With
   * an embeddings model, its chunks are embedded too; a failed embedding is a WARNING and the
   * text is kept all the same.
   */
  async observe(exchange: MemoryExchange): Promise<void> {
    this.#begin(exchange.scope.agent);
    const text = exchangeText(exchange);
    if (!text.trim()) return;
    const chunks = this.recall.addChunks({
      agent: exchange.scope.agent,
      timeline: exchange.scope.timeline,
      text,
    });
    const embedder = this.#embedderOf();
    if (!embedder || !chunks.length) return;
    try {
      const e = await embedder;
      const vectors = await e.embed(chunks.map((chunk) => chunk.text));
      this.recall.setVectors(
        e.model,
        chunks.map((chunk, i) => ({ id: chunk.id, vector: vectors[i] })),
      );
    } catch (error) {
      this.#embedFailed("observe", error);
    }
  }

  /** The top-K chunks for the turn's text, under {@link RECALLED_HEADING}; `null` for none. */
  async context(scope: MemoryScope): Promise<string | null> {
    this.#begin(scope.agent);
    const query = queryText(scope.query ?? "").trim();
    if (!query || this.#k <= 0) return null;
    const hits = this.recall.search(
      scope.agent,
      query,
      this.#k,
      new Date(),
      await this.#semantic(query),
    );
    if (!hits.length) return null;
    return [RECALLED_HEADING, ...hits.map((hit) => renderHit(hit, scope.timeline))].join("\n");
  }

  /** The rendered lines `memory_search` shows, best first. */
  async search(query: string, limit: number): Promise<string[]> {
    if (this.#agent) this.#importOnce(this.#agent);
    const semantic = await this.#semantic(query);
    return this.recall.search(this.#agent, query, limit, new Date(), semantic)
      .map((hit) => renderHit(hit, null));
  }

  /** The query's embedding, or `undefined` without a model or when embedding it failed. */
  async #semantic(query: string): Promise<SemanticQuery | undefined> {
    const embedder = this.#embedderOf();
    if (!embedder) return undefined;
    try {
      const e = await embedder;
      const [vector] = await e.embed([query]);
      return { model: e.model, vector };
    } catch (error) {
      this.#embedFailed("recall", error);
      return undefined;
    }
  }

  /** The embedder, its module (and the SDK) loaded on first use; `undefined` when none is set. */
  #embedderOf(): Promise<Embedder> | undefined {
    if (this.#embedder || !this.#embeddings) return this.#embedder;
    const options = this.#embeddings;
    this.#embedder = lazyImport<typeof import("./recall_embeddings.ts")>(
      "lib/memory/recall_embeddings.ts",
    ).then(({ openaiEmbedder }) => openaiEmbedder(options));
    return this.#embedder;
  }

  #embedFailed(op: "observe" | "recall", error: unknown): void {
    this.#journal.event("WARNING", "memory", {
      op: "embed",
      during: op,
      result: "failed",
      reason: errorMessage(error),
    });
  }

  /** Closes the store. */
  close(): void {
    this.recall.close();
  }

  #begin(agent: string): void {
    this.#agent = agent;
    this.#importOnce(agent);
  }

  /**
   * Imports the palace's drawers into `agent`'s memory, once per file: the check and the writes
   * are one transaction, so two wakes never import twice. A palace that cannot be read is a
   * WARNING naming what was not imported, and memory works on without it.
   */
  #importOnce(agent: string): void {
    if (this.#imported || !this.#palacePath) return;
    this.#imported = true;
    const palace = this.#palacePath;
    if (this.recall.meta(PALACE_IMPORT_KEY) !== null) return;
    const read = readPalace(palace);
    if (read.status === "absent") return;
    if (read.status === "unreadable") {
      this.#journal.event("WARNING", "memory", {
        op: "import",
        source: "mempalace",
        result: "skipped",
        palace: read.path,
        reason: read.reason,
      });
      return;
    }
    let drawers = 0;
    try {
      drawers = this.recall.transaction(() => {
        if (this.recall.meta(PALACE_IMPORT_KEY) !== null) return -1; // another wake did it
        let count = 0;
        for (const drawer of read.drawers) {
          count += this.recall.addInTransaction({
              agent,
              text: drawer.text,
              at: drawer.at,
              origin: "mempalace",
            }) > 0
            ? 1
            : 0;
        }
        this.recall.setMeta(
          PALACE_IMPORT_KEY,
          JSON.stringify({
            at: new Date().toISOString(),
            palace: read.path,
            drawers: count,
            skipped: read.skipped,
          }),
        );
        return count;
      });
    } catch (error) {
      this.#journal.event("WARNING", "memory", {
        op: "import",
        source: "mempalace",
        result: "failed",
        palace: read.path,
        reason: errorMessage(error),
      });
      return;
    }
    if (drawers < 0) return;
    this.#journal.event("INFO", "memory", {
      op: "import",
      source: "mempalace",
      drawers,
      skipped: read.skipped,
      palace: read.path,
    });
  }
}

/** The verbatim text kept for an exchange: the user text, `you:` its close, `you posted:` posts. */
export function exchangeText(exchange: MemoryExchange): string {
  const parts = [exchange.user.trim()];
  if (exchange.assistant.trim()) parts.push(`you: ${exchange.assistant.trim()}`);
  for (const post of exchange.posts ?? []) {
    if (post.trim()) parts.push(`you posted: ${post.trim()}`);
  }
  return parts.filter(Boolean).join("\n");
}

/** `- [YYYY-MM-DD, this timeline|timeline <8>] <text on one line>`. */
function renderHit(hit: RecallHit, current: string | null | undefined): string {
  const day = hit.at.toISOString().slice(0, 10);
  const where = !hit.timeline
    ? "imported"
    : hit.timeline === current
    ? "this timeline"
    : `timeline ${hit.timeline.slice(0, 8)}`;
  return `- [${day}, ${where}] ${oneLine(hit.text, RECALLED_LINE_CHARS)}`;
}
