/**
 * Memory: the pluggable {@link MemoryProvider} seam, the default SQLite store and the `memory`
 * tool. `loadMemoryProvider(Deno.env.get("HARNESS_MEMORY_PROVIDER"), { home })` binds the
 * backend; the hook helpers call a provider so that its failures never break a turn.
 *
 * @module
 */
export {
  closeMemoryProvider,
  CONTEXT_FAILED,
  memoryTools,
  OBSERVE_FAILED,
  observeMemory,
  recallMemory,
} from "./hooks.ts";
export {
  type BoundMemoryProvider,
  loadMemoryProvider,
  type LoadMemoryProviderOptions,
  MEMORY_PROVIDER_ENV,
  type MemoryProviderContext,
  MemoryProviderError,
} from "./loader.ts";
export {
  MEMORY_ACTIONS,
  type MemoryAction,
  MemoryTool,
  type MemoryToolOptions,
  SEARCH_LIMIT,
} from "./memory_tool.ts";
export {
  type MemoryExchange,
  type MemoryProvider,
  type MemoryScope,
  SqliteMemoryProvider,
  type SqliteMemoryProviderOptions,
} from "./provider.ts";
export { pyRepr } from "../pycompat/repr.ts";
export { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";
export {
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_MEMORY_DIRNAME,
  MEMORY_FILENAME,
  type MemoryLocation,
  resolveMemoryPath,
  SqliteMemoryStore,
  type SqliteMemoryStoreOptions,
} from "./sqlite_store.ts";
export type { MemoryEntry, MemoryHit, MemoryStore } from "./store.ts";
