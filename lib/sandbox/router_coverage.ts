/**
 * The router's newest coalescing rule: a queued delivery is dropped as covered when a wake of
 * the same agent on the same timeline succeeded and that successful attempt started strictly
 * after the delivery's `occurred_at`, truncated to whole seconds. The router assumes a woken
 * agent spends seconds booting before it reads; a harness that reads sooner must itself make
 * sure an item created later in its launch second is still read.
 */

/** The successful wake that covers a stream. */
export interface Covering {
  readonly delivery: string;
  /** When the successful attempt started, ms since the epoch. */
  readonly startedAt: number;
}

/** The latest successful wake start per (agent, timeline). */
export class WakeCoverage {
  readonly #streams = new Map<string, Covering>();

  /** A wake for `delivery` succeeded; its successful attempt started at `startedAt`. */
  record(agent: string, timeline: string, delivery: string, startedAt: number): void {
    const key = `${agent} ${timeline}`;
    const known = this.#streams.get(key);
    if (!known || startedAt >= known.startedAt) this.#streams.set(key, { delivery, startedAt });
  }

  /**
   * The wake that covers an event of this stream that occurred at `occurredAt` (ISO-8601), or
   * null. An unreadable time is never covered.
   */
  covering(agent: string, timeline: string, occurredAt: string): Covering | null {
    const known = this.#streams.get(`${agent} ${timeline}`);
    const occurred = Date.parse(occurredAt);
    if (!known || Number.isNaN(occurred)) return null;
    const wholeSecond = Math.floor(occurred / 1000) * 1000;
    return wholeSecond < known.startedAt ? known : null;
  }
}
