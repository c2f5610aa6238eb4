/**
 * How much of a long session the page is sent (docs/playground.md#a-long-session): the state and
 * each stream's first event carry the newest {@link WAKE_WINDOW} wakes and the count of the older
 * ones; the page asks for older ones a page at a time (`GET /api/wakes?before=N&limit=K`), so a
 * session that runs all afternoon costs the first render what a short one does. A timeline's older
 * items (`GET /api/items`) are paged by the same `limit` rule.
 */
import * as z from "../base/zod.ts";

/** How many of the newest wakes the state carries. */
export const WAKE_WINDOW = 50;

/** The most wakes one `GET /api/wakes` answers with. */
export const MAX_WAKE_PAGE = 200;

/** A run of wakes, oldest first, and how many wakes are older than the first of them. */
export interface WakeSlice<T> {
  readonly wakes: T[];
  readonly older: number;
}

/** The newest `size` of `all` (oldest first, wake number `n` at index `n - 1`). */
export function newestWakes<T>(all: readonly T[], size = WAKE_WINDOW): WakeSlice<T> {
  const start = Math.max(0, all.length - size);
  return { wakes: all.slice(start), older: start };
}

/** The newest `limit` wakes numbered below `before`. */
export function wakesBefore<T>(all: readonly T[], before: number, limit: number): WakeSlice<T> {
  const end = Math.min(all.length, before - 1);
  const start = Math.max(0, end - limit);
  return { wakes: all.slice(start, end), older: start };
}

const Count = z.string().regex(/^[0-9]{1,9}$/).transform(Number);

/**
 * Reads `before` (a wake number, 1 to one past the newest; required) and `limit` (1 to
 * {@link MAX_WAKE_PAGE}, default {@link WAKE_WINDOW}) from a query, or says in one line what is
 * wrong with them.
 */
export function olderQuery(
  params: URLSearchParams,
  total: number,
): { before: number; limit: number } | { problem: string } {
  const before = Count.safeParse(params.get("before") ?? "");
  if (!before.success || before.data < 1 || before.data > total + 1) {
    return {
      problem: `before must be a wake number from 1 to ${total + 1} (the oldest wake shown): ` +
        `got ${JSON.stringify(params.get("before"))}.`,
    };
  }
  const limit = pageLimit(params.get("limit"));
  return typeof limit === "string" ? { problem: limit } : { before: before.data, limit };
}

/**
 * A page's `limit` query value: 1 to {@link MAX_WAKE_PAGE}, {@link WAKE_WINDOW} when absent; or
 * one line on what is wrong with it.
 */
export function pageLimit(raw: string | null): number | string {
  if (raw === null) return WAKE_WINDOW;
  const limit = Count.safeParse(raw);
  if (!limit.success || limit.data < 1 || limit.data > MAX_WAKE_PAGE) {
    return `limit must be a whole number from 1 to ${MAX_WAKE_PAGE}: got ${JSON.stringify(raw)}.`;
  }
  return limit.data;
}
