/**
 * `memory_search`: deliberate, read-only recall beside the automatic kind. Turn-0 recall runs once,
 * against the incoming text; a memory the agent needs mid-task is reached by a query it writes
 * itself, through the very search the automatic recall uses. There is no write surface: observing
 * exchanges stays the store's only writer.
 */
import { type JsonSchema, Tool, type ToolContext } from "../core/types/tool.ts";
import { pyRepr } from "../pycompat/repr.ts";

/** How many memories a search returns when the model names no count. */
export const DEFAULT_N_RESULTS = 5;
/** The most a search may return, so one call cannot bury the context it serves. */
export const MAX_N_RESULTS = 20;

/** The search the tool runs: the provider's own, rendered lines best first. */
export type MemorySearchFn = (query: string, limit: number) => Promise<string[]>;

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    query: {
      type: "string",
      description: "What to recall, in your own words. Specific words (a handle, a name, a " +
        "project, an error string) recall best.",
    },
    n_results: {
      type: "integer",
      description:
        `How many memories to return. Defaults to ${DEFAULT_N_RESULTS}; at most ${MAX_N_RESULTS}.`,
      minimum: 1,
      maximum: MAX_N_RESULTS,
    },
  },
  required: ["query"],
};

/** Validated arguments. */
export interface MemorySearchArgs {
  readonly query: string;
  readonly nResults: number;
}

/**
 * The arguments, or the sentence that tells the model what to fix: `query` a non-blank string,
 * `n_results` (optional, null allowed) an integer from 1 to {@link MAX_N_RESULTS}.
 */
export function parseMemorySearchArgs(args: unknown): MemorySearchArgs | string {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return "Error: memory_search arguments must be a JSON object with a 'query'.";
  }
  const { query, n_results: n } = args as Record<string, unknown>;
  if (typeof query !== "string" || !query.trim()) {
    return 'Error: \'query\' is required: say what to recall, e.g. {"query": "Bob\'s birthday"}.';
  }
  if (n === undefined || n === null) return { query: query.trim(), nResults: DEFAULT_N_RESULTS };
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_N_RESULTS) {
    return `Error: 'n_results' must be an integer from 1 to ${MAX_N_RESULTS}, got ${
      JSON.stringify(n) ?? String(n)
    }. Leave it out for ${DEFAULT_N_RESULTS}.`;
  }
  return { query: query.trim(), nResults: n };
}

/** The read-only `memory_search` tool over a provider's search. */
export class MemorySearchTool extends Tool {
  /** The name the model calls. */
  readonly name = "memory_search";
  /** What the model reads about it. */
  readonly description: string =
    "Search your long-term memory. Your memory is automatic: what was said on every timeline " +
    "is kept, and what looks relevant is recalled for you at the start of a turn. Use this for " +
    "what was not recalled: a detail from an older conversation, on any timeline, that you " +
    "need now. Search by what the memory was about; a specific query recalls better than a " +
    "vague one. Read-only.";
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = PARAMETERS;
  readonly #search: MemorySearchFn;

  /** A tool over `search` (the provider's). */
  constructor(search: MemorySearchFn) {
    super();
    this.#search = search;
  }

  /** Searches; a miss says so plainly so the model can refine its query. */
  async run(args: unknown, context?: ToolContext): Promise<string> {
    const parsed = parseMemorySearchArgs(args);
    if (typeof parsed === "string") {
      context?.reportOutcome?.("invalid");
      return parsed;
    }
    const lines = await this.#search(parsed.query, parsed.nResults);
    if (!lines.length) return `No memories match ${pyRepr(parsed.query)}.`;
    return `Memories matching ${pyRepr(parsed.query)}:\n${lines.join("\n")}`;
  }
}
