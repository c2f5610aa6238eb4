/**
 * Binding the memory backend named by `HARNESS_MEMORY_PROVIDER`.
 *
 * | value | binds | reported name |
 * |---|---|---|
 * | unset, empty, `sqlite` (any case) | {@link SqliteMemoryProvider} under the harness home | `sqlite` |
 * | a module path, optionally `#Export` | that module's export (default: `default`) | `module:<value>` |
 * | `mempalace` | nothing: an error, it is a Python-only backend | — |
 *
 * A module path is a TypeScript/JavaScript module Deno can import: `./my_memory.ts`,
 * `../x/mem.ts#MyMemory`, `/abs/mem.ts#MyMemory`, `file:///abs/mem.ts#MyMemory`, or an
 * `npm:`/`jsr:`/`https:` specifier. Relative paths resolve against the working directory. The
 * export is a class (instantiated with one {@link MemoryProviderContext} argument) or a ready
 * provider object. Dynamic import of code from disk works only when running from source
 * (`deno run`); a compiled binary cannot import it.
 */
import { errorMessage } from "../base/error_text.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { type MemoryProvider, SqliteMemoryProvider } from "./provider.ts";

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
}

/** A bound provider and the name `resolved-config` reports for it. */
export interface BoundMemoryProvider {
  /** The provider to take tools from and call hooks on. */
  readonly provider: MemoryProvider;
  /** `sqlite` or `module:<spec>`. */
  readonly name: string;
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
    return { provider: new SqliteMemoryProvider({ home: options.home }), name: "sqlite" };
  }
  if (alias === "mempalace") {
    throw new MemoryProviderError(
      `${MEMORY_PROVIDER_ENV}=mempalace is a Python-only backend (the MemPalace adapter of the ` +
        "Python basecradle-harness) and does not exist in this runtime. Use 'sqlite' (the " +
        "default) or a TypeScript module path such as ./my_memory.ts#MyMemory.",
    );
  }
  if (!MODULE_PREFIX.test(raw)) {
    const hint = PYTHON_PATH.test(raw)
      ? " It looks like a Python import path; this runtime imports TypeScript modules."
      : "";
    throw new MemoryProviderError(
      `${MEMORY_PROVIDER_ENV}='${raw}' is neither 'sqlite' nor a module path.${hint} Use ` +
        "'sqlite' (the default) or a module path such as ./my_memory.ts#MyMemory.",
    );
  }
  const provider = await importProvider(raw, options);
  return { provider, name: `module:${raw}` };
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
