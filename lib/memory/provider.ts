/**
 * The pluggable memory seam. A provider has four surfaces, each optional: `tools()` (the
 * model-facing ops), a `store` (the durable engine), `observe(exchange)` after each exchange
 * and `context(scope)` at turn 0. The default binds the `memory` tool over one SQLite file and
 * leaves both hooks out, which is exactly explicit, write-it-yourself memory.
 */
import type { Tool } from "../core/types/tool.ts";
import { MemoryTool } from "./memory_tool.ts";
import { SqliteMemoryStore, type SqliteMemoryStoreOptions } from "./sqlite_store.ts";
import type { MemoryStore } from "./store.ts";

/**
 * Whose memory this is. Memory is the agent's one private mind across every timeline, so
 * `agent` is the partition key; `timeline` is provenance a provider may record but must not
 * partition on, or cross-timeline recall breaks.
 */
export interface MemoryScope {
  /** The agent's durable identity (its user uuid in a wake). */
  readonly agent: string;
  /** The timeline of this turn, as metadata. */
  readonly timeline?: string | null;
  /** The incoming turn's text, for relevance-ranked recall in `context`. Unset in `observe`. */
  readonly query?: string | null;
}

/** One completed exchange, handed to `observe` after the agent answered. */
export interface MemoryExchange {
  /** What the model read this turn (the rendered messages, task, asset or event). */
  readonly user: string;
  /** The agent's narration for the turn. */
  readonly assistant: string;
  /** The bodies the agent posted with its `messages` tool during the turn, oldest first. */
  readonly posts?: readonly string[];
  /** Whose memory it belongs to. */
  readonly scope: MemoryScope;
}

/**
 * A memory backend. Implement only the surfaces you want; the wake calls hooks through
 * `observeMemory`/`recallMemory`, so a hook that throws is logged and never breaks a turn.
 */
export interface MemoryProvider {
  /** Model-facing memory tools to register; absent ⇒ none (automatic-only memory). */
  tools?(): Tool[];
  /** The durable engine, when the provider has a host-local one. */
  readonly store?: MemoryStore;
  /** Captures a completed exchange (after every engaged turn). */
  observe?(exchange: MemoryExchange): void | Promise<void>;
  /** Text to inject into the turn-0 brief, or `null` for nothing. */
  context?(scope: MemoryScope): string | null | undefined | Promise<string | null | undefined>;
  /** Releases resources (e.g. closes the store). */
  close?(): void | Promise<void>;
}

/** Options for {@link SqliteMemoryProvider}: where its file lives. */
export type SqliteMemoryProviderOptions = SqliteMemoryStoreOptions;

/**
 * The default provider: the `memory` tool over one private {@link SqliteMemoryStore}. No hooks —
 * memory is written and recalled only when the model calls the tool.
 */
export class SqliteMemoryProvider implements MemoryProvider {
  /** The store the tool and any hook share. */
  readonly store: SqliteMemoryStore;

  /** A provider over `options.path`, `<options.home>/memory.db`, or the default location. */
  constructor(options: SqliteMemoryProviderOptions = {}) {
    this.store = new SqliteMemoryStore(options);
  }

  /** One `memory` tool sharing this provider's store. */
  tools(): Tool[] {
    return [new MemoryTool({ store: this.store })];
  }

  /** Closes the store. */
  close(): void {
    this.store.close();
  }
}
