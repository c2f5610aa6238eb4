/**
 * The router's delivery dedup: a delivery id whose wake succeeded is remembered for a while, and
 * the same id delivered again meanwhile is dropped. Only success is remembered, so a delivery
 * whose wake failed runs again when it is delivered again.
 */

/** Remembers successfully woken delivery ids for `ttlMs` (0 remembers nothing). */
export class DeliveryDedup {
  readonly #ttlMs: number;
  readonly #clock: () => number;
  readonly #seen = new Map<string, number>();

  constructor(ttlMs: number, clock: () => number) {
    this.#ttlMs = ttlMs;
    this.#clock = clock;
  }

  /** Whether `id` woke successfully less than the ttl ago. */
  seen(id: string): boolean {
    if (this.#ttlMs <= 0) return false;
    const marked = this.#seen.get(id);
    if (marked === undefined) return false;
    if (this.#clock() - marked >= this.#ttlMs) {
      this.#seen.delete(id);
      return false;
    }
    return true;
  }

  /** Remembers that `id` just woke successfully. */
  mark(id: string): void {
    if (this.#ttlMs <= 0) return;
    const now = this.#clock();
    this.#seen.set(id, now);
    // Expired ids would read as unseen anyway; dropping them keeps a long run bounded.
    if (this.#seen.size > 4096) {
      for (const [key, at] of this.#seen) if (now - at >= this.#ttlMs) this.#seen.delete(key);
    }
  }
}
