/**
 * The model-facing `memory` tool: write, read, list, delete and search over a store. It turns
 * the store's data into the reference's exact replies; bad arguments throw an Error whose text
 * the model reads (the engine reports it as `Error running 'memory': …`).
 */
import { type JsonSchema, Tool } from "../core/types/tool.ts";
import { pyRepr } from "../pycompat/repr.ts";
import { SqliteMemoryStore, type SqliteMemoryStoreOptions } from "./sqlite_store.ts";
import type { MemoryStore } from "./store.ts";

/** How many matches `search` shows, so a broad query cannot flood the context. */
export const SEARCH_LIMIT = 20;

/** The actions the tool understands, in the order its error message lists them. */
export const MEMORY_ACTIONS = ["write", "read", "list", "delete", "search"] as const;

/** One of {@link MEMORY_ACTIONS}. */
export type MemoryAction = typeof MEMORY_ACTIONS[number];

/** Options for {@link MemoryTool}. */
export interface MemoryToolOptions extends SqliteMemoryStoreOptions {
  /**
   * A store to dispatch onto, shared with a provider. When given, `path`/`home` are ignored
   * and {@link MemoryTool.close} leaves the store to its owner.
   */
  readonly store?: MemoryStore;
}

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    action: { type: "string", enum: [...MEMORY_ACTIONS], description: "What to do." },
    key: {
      type: "string",
      description: "The label to store or recall under (write, read, delete).",
    },
    value: { type: "string", description: "The fact to store (write only)." },
    query: {
      type: "string",
      description: "Keywords to recall by, matched over keys and values (search only).",
    },
  },
  required: ["action"],
};

/**
 * Long-term memory for the model. Owns a {@link SqliteMemoryStore} by default
 * (`new MemoryTool({ home })`), or dispatches onto a store a provider hands it.
 */
export class MemoryTool extends Tool {
  /** The name the model calls. */
  readonly name = "memory";
  /** What the model reads about it. */
  readonly description: string =
    "Your long-term memory. Use it to remember facts across the conversation and across " +
    "restarts. action='write' stores value under key (overwrites if the key exists); " +
    "action='read' returns the value for key; action='list' returns every key you have " +
    "stored; action='delete' forgets a key; action='search' finds memories by keyword across " +
    "both keys and values — use it when you remember roughly what a fact was about but not " +
    "the exact key you filed it under.";
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = PARAMETERS;
  /** The store the actions run against. */
  readonly store: MemoryStore;
  readonly #ownsStore: boolean;

  /** A tool over `options.store`, or over its own SQLite store at the given location. */
  constructor(options: MemoryToolOptions = {}) {
    super();
    this.store = options.store ?? new SqliteMemoryStore(options);
    this.#ownsStore = options.store === undefined;
  }

  /**
   * Runs one action; resolves to the reference's reply text or rejects with a readable Error.
   * The argument schema loads on first use, so importing the library does not pay for zod.
   */
  async run(args: unknown): Promise<string> {
    const { parseMemoryArgs } = await import("./memory_args.ts");
    const { action, key, value, query } = parseMemoryArgs(args);
    switch (action) {
      case "write":
        if (!key || value == null) throw new Error("'write' needs both a key and a value.");
        this.store.write(key, value);
        return `Remembered ${pyRepr(key)}.`;
      case "read":
        if (!key) throw new Error("'read' needs a key.");
        return this.#read(key);
      case "list": {
        const keys = this.store.keys();
        return keys.length ? keys.join(", ") : "No memories stored yet.";
      }
      case "delete":
        if (!key) throw new Error("'delete' needs a key.");
        return this.store.delete(key)
          ? `Forgot ${pyRepr(key)}.`
          : `No memory stored under ${pyRepr(key)}; nothing to delete.`;
      case "search":
        if (!query || !query.trim()) throw new Error("'search' needs a query.");
        return this.#search(query);
      default:
        throw new Error(
          `unknown action ${pyRepr(action)}. Use 'write', 'read', 'list', 'delete', or 'search'.`,
        );
    }
  }

  /** Closes the store if this tool built it; a shared store is its provider's to close. */
  close(): void {
    if (this.#ownsStore) this.store.close?.();
  }

  #read(key: string): string {
    const value = this.store.read(key);
    if (value !== null) return value;
    // Listing the keys that do exist lets a wrong guess self-correct on the next call.
    const keys = this.store.keys();
    return keys.length
      ? `No memory stored under ${pyRepr(key)}. Stored keys: ${keys.join(", ")}.`
      : `No memory stored under ${pyRepr(key)}. You have no memories yet.`;
  }

  #search(query: string): string {
    // One extra row tells us whether to say there may be more.
    const hits = this.store.search(query, SEARCH_LIMIT + 1);
    if (!hits.length) return `No memories match ${pyRepr(query)}.`;
    const lines = hits.slice(0, SEARCH_LIMIT).map((hit) => `${hit.key}: ${hit.value}`);
    if (hits.length > SEARCH_LIMIT) {
      lines.push(`(showing the first ${SEARCH_LIMIT}; there may be more — refine the query)`);
    }
    return `Memories matching ${pyRepr(query)}:\n${lines.join("\n")}`;
  }
}
