/**
 * Where a session's transcript lives. The engine and Harness depend on this interface only;
 * `FileSessionStore` (session.ts) is the durable one, `InMemorySessionStore` keeps sessions for
 * the life of the process.
 */
import type { Message } from "../types/message.ts";

/** Loads and saves whole transcripts by source key (e.g. `timeline:<uuid>`). */
export interface SessionStore {
  /** The saved transcript for `source`, healed and ready to extend; `[]` when none exists. */
  load(source: string): Promise<Message[]>;
  /**
   * Persists `messages` for `source`. Durable stores write atomically and apply the
   * persistence caps to what they write; the live list is never modified.
   */
  save(source: string, messages: readonly Message[]): Promise<void>;
  /** Every source this store holds a transcript for. */
  sources(): Promise<string[]>;
}

/** Keeps transcripts in memory: readable across sessions of one process, gone at exit. */
export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Message[]>();

  load(source: string): Promise<Message[]> {
    return Promise.resolve(structuredClone(this.#sessions.get(source) ?? []));
  }

  save(source: string, messages: readonly Message[]): Promise<void> {
    this.#sessions.set(source, structuredClone([...messages]));
    return Promise.resolve();
  }

  sources(): Promise<string[]> {
    return Promise.resolve([...this.#sessions.keys()]);
  }
}
