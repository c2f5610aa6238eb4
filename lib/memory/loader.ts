/**
 * Binding the memory backend named by `HARNESS_MEMORY_PROVIDER`.
 *
 * | value | binds | reported name |
 * |---|---|---|
 * | unset, empty, `sqlite` (any case) | {@link SqliteMemoryProvider} under the harness home | `sqlite` |
 * | `recall` (any case) | the built-in automatic provider, loaded lazily | `recall` |
 * | `mempalace` (any case) | the same automatic provider, importing the palace's drawers once | `mempalace` |
 * | a module path, optionally `#Export` | that module's export (default: `default`) | `module:<value>` |
 *
 * A module path is a TypeScript/JavaScript module Deno can import: `./my_memory.ts`,
 * `../x/mem.ts#MyMemory`, `/abs/mem.ts#MyMemory`, `file:///abs/mem.ts#MyMemory`, or an
 * `npm:`/`jsr:`/`https:` specifier. Relative paths resolve against the working directory. The
 * export is a class (instantiated with one {@link MemoryProviderContext} argument) or a ready
 * provider object. Dynamic import of code from disk works only when running from source
 * (`deno run`); a compiled binary cannot import it.
 */
import { errorMessage } from "../base/error_text.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { VERSION } from "../base/version.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { type MemoryProvider, SqliteMemoryProvider } from "./provider.ts";
import { MEMORY_PROVIDER_WORDS, RECALL_NAMES } from "./provider_words.ts";

/** The environment variable that selects the backend. */
export const MEMORY_PROVIDER_ENV = "HARNESS_MEMORY_PROVIDER";

/** What a custom provider class receives from the loader. */
export interface MemoryProviderContext {
  /** The harness home, when known; a host-local backend keeps its files under it. */
  readonly home?: string;
  /** Where the provider may log. */
  readonly journal: Journal;
}

/** Options for {@link loadMemoryProvider}. */
export interface LoadMemoryProviderOptions {
  /** The harness home; the sqlite backend's file is `<home>/memory.db`. */
  readonly home?: string;
  /** Passed on to custom providers. */
  readonly journal?: Journal;
  /** Base for relative module paths (default: the working directory). */
  readonly cwd?: string;
  /** Chunks the automatic provider recalls into turn 0 (`HARNESS_MEMORY_RECALL_K`). */
  readonly recallK?: number;
  /** A MemPalace palace to import (`MEMPALACE_PALACE_PATH`; default `<home>/mempalace`). */
  readonly palacePath?: string;
  /** An embeddings model for the automatic provider's hybrid rank, and where to reach it. */
  readonly embeddings?: {
    readonly model: string;
    readonly apiKey?: string;
    readonly baseURL?: string;
  };
}

/** A bound provider and the name `resolved-config` reports for it. */
export interface BoundMemoryProvider {
  /** The provider to take tools from and call hooks on. */
  readonly provider: MemoryProvider;
  /** `sqlite`, `recall`, `mempalace` or `module:<spec>`. */
  readonly name: string;
  /**
   * The version of the code serving it: the harness's for the built-in automatic provider,
   * `null` for the sqlite store (it has no separate pin) and for a custom module (unknowable).
   */
  readonly version: string | null;
  /** The built-in engine behind the name (`sqlite` or `recall`); `null` for a custom module. */
  readonly backend: "sqlite" | "recall" | null;
}

/** A `HARNESS_MEMORY_PROVIDER` value that cannot be bound; the message says why and what to do. */
export class MemoryProviderError extends Error {
  /** An error naming the offending spec. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "MemoryProviderError";
  }
}

const MODULE_PREFIX = /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/]|file:|https?:|npm:|jsr:)/;
const EXPORT_SUFFIX = /#([A-Za-z_$][\w$]*)$/;
const PYTHON_PATH = /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*[:.][A-Za-z_][\w]*$/;
const SURFACES = ["tools", "observe", "context", "close"] as const;

/**
 * Binds the backend `spec` names (the value of `HARNESS_MEMORY_PROVIDER`). Constructing the
 * sqlite backend touches no disk. Throws {@link MemoryProviderError} for an unknown value,
 * `mempalace`, a module that fails to import, a missing export, or an export that is not a
 * provider.
 */
export async function loadMemoryProvider(
  spec: string | undefined,
  options: LoadMemoryProviderOptions = {},
): Promise<BoundMemoryProvider> {
  const raw = (spec ?? "").trim();
  const alias = raw.toLowerCase();
  if (alias === "" || alias === "sqlite") {
    return {
      provider: new SqliteMemoryProvider({ home: options.home }),
      name: "sqlite",
      version: null,
      backend: "sqlite",
    };
  }
  const recall = RECALL_NAMES.find((name) => name === alias);
  if (recall) return await bindRecall(recall, options);
  if (!MODULE_PREFIX.test(raw)) {
    const hint = PYTHON_PATH.test(raw)
      ? " It looks like a Python import path; this runtime imports TypeScript modules."
      : "";
    throw new MemoryProviderError(
      `${MEMORY_PROVIDER_ENV}='${raw}' is neither ${
        MEMORY_PROVIDER_WORDS.map((word) => `'${word}'`).join(", ")
      } nor a module path.${hint} Use 'sqlite' (the default), 'recall' (automatic memory) or a module path ` +
        "such as ./my_memory.ts#MyMemory.",
    );
  }
  const provider = await importProvider(raw, options);
  return { provider, name: `module:${raw}`, version: null, backend: null };
}

/**
 * The built-in automatic provider, imported only now: a wake bound to `sqlite` never loads it.
 * `mempalace` is served by it (the Python palace itself cannot be opened here), which the
 * journal says once, at bind.
 */
async function bindRecall(
  name: typeof RECALL_NAMES[number],
  options: LoadMemoryProviderOptions,
): Promise<BoundMemoryProvider> {
  const { RecallMemoryProvider } = await lazyImport<typeof import("./recall_provider.ts")>(
    "lib/memory/recall_provider.ts",
  );
  const journal = options.journal ?? silentJournal;
  const provider = new RecallMemoryProvider({
    home: options.home,
    journal,
    k: options.recallK,
    palacePath: options.palacePath,
    embeddings: options.embeddings,
  });
  if (name === "mempalace") {
    journal.event("INFO", "memory", {
      op: "bind",
      provider: "mempalace",
      backend: "recall",
      note: "the Python MemPalace palace is not opened by this runtime; its verbatim drawers " +
        "are imported once into recall.db",
    });
  }
  return { provider, name, version: VERSION, backend: "recall" };
}

/** Imports the module `spec` names and turns its export into a provider. */
async function importProvider(
  spec: string,
  options: LoadMemoryProviderOptions,
): Promise<MemoryProvider> {
  const exportMatch = EXPORT_SUFFIX.exec(spec);
  const exportName = exportMatch?.[1] ?? "default";
  const specifier = await toSpecifier(
    exportMatch ? spec.slice(0, exportMatch.index) : spec,
    options,
  );
  let module: Record<string, unknown>;
  try {
    module = await import(specifier);
  } catch (error) {
    throw new MemoryProviderError(
      `${MEMORY_PROVIDER_ENV}='${spec}': could not import ${specifier}: ${errorMessage(error)} ` +
        "(custom memory providers load only when running from source with deno run).",
      { cause: error },
    );
  }
  if (!(exportName in module)) {
    const names = Object.keys(module).sort().join(", ") || "none";
    throw new MemoryProviderError(
      `${MEMORY_PROVIDER_ENV}='${spec}': the module has no export '${exportName}' ` +
        `(exports: ${names}).`,
    );
  }
  const provider = instantiate(module[exportName], spec, {
    home: options.home,
    journal: options.journal ?? silentJournal,
  });
  checkShape(provider, spec);
  return provider;
}

/**
 * A path or URL as an import specifier; relative paths are resolved against `cwd`. node:path and
 * node:url load only here, for a custom provider: the default sqlite binding never needs them.
 */
async function toSpecifier(path: string, options: LoadMemoryProviderOptions): Promise<string> {
  if (/^(file|https?|npm|jsr):/.test(path)) return path;
  const [{ isAbsolute, resolve }, { pathToFileURL }] = await Promise.all([
    import("node:path"),
    import("node:url"),
  ]);
  const absolute = isAbsolute(path) ? path : resolve(options.cwd ?? Deno.cwd(), path);
  return pathToFileURL(absolute).href;
}

/** A class export is constructed with the context; an object export is used as it is. */
function instantiate(value: unknown, spec: string, context: MemoryProviderContext): unknown {
  if (typeof value !== "function") return value;
  try {
    return Reflect.construct(value, [context]);
  } catch (error) {
    throw new MemoryProviderError(
      `${MEMORY_PROVIDER_ENV}='${spec}': constructing the provider failed: ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

/** Refuses an export that is not a provider, so a typo fails at bind time, not mid-wake. */
function checkShape(value: unknown, spec: string): asserts value is MemoryProvider {
  if (typeof value !== "object" || value === null) {
    throw new MemoryProviderError(
      `${MEMORY_PROVIDER_ENV}='${spec}': the export is not a class or an object ` +
        `implementing MemoryProvider (got ${value === null ? "null" : typeof value}).`,
    );
  }
  const record = value as Record<string, unknown>;
  for (const surface of SURFACES) {
    const member = record[surface];
    if (member !== undefined && typeof member !== "function") {
      throw new MemoryProviderError(
        `${MEMORY_PROVIDER_ENV}='${spec}': '${surface}' must be a method, got ${typeof member}.`,
      );
    }
  }
}
