/**
 * The memory store contract: the durable engine behind the `memory` tool. It returns data,
 * not prose; `MemoryTool` owns the model-facing wording, so a provider's hooks can read and
 * write the same store without parsing strings.
 */

/** One stored fact. Timestamps are ISO 8601 UTC strings in Python's `isoformat()` shape. */
export interface MemoryEntry {
  /** The unique label. */
  readonly key: string;
  /** The stored fact. */
  readonly value: string;
  /** When the key was first written; an upsert never changes it. */
  readonly createdAt: string;
  /** When the value was last written. */
  readonly updatedAt: string;
}

/** One search result. */
export interface MemoryHit {
  /** The matching entry's key. */
  readonly key: string;
  /** The matching entry's value. */
  readonly value: string;
}

/** Key/value memory with keyword search. Implementations throw on storage failures. */
export interface MemoryStore {
  /** Upserts `value` under `key`; an existing key keeps its `createdAt`. */
  write(key: string, value: string): void;
  /** The value under `key`, or `null`. */
  read(key: string): string | null;
  /** The full entry under `key`, or `null`. */
  entry(key: string): MemoryEntry | null;
  /** Every key, sorted. */
  keys(): string[];
  /** Forgets `key`; `true` when something was deleted. */
  delete(key: string): boolean;
  /**
   * Up to `limit` entries matching any term of `query` in key or value, best first. A broken
   * index throws — it is never reported as "no results".
   */
  search(query: string, limit: number): MemoryHit[];
  /** Releases resources; safe to call repeatedly. */
  close?(): void;
}
