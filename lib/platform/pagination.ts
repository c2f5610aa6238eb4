/**
 * Newest-first cursor pagination. Lists are read lazily: a page is fetched only when the
 * consumer asks for an item past the current one, and the walk ends at a high-water mark
 * (exclusive), at a limit, or when `next_cursor` is null, so nothing is fetched that is not
 * needed.
 */
import type { CallOptions } from "./http.ts";
import { MalformedResponseError } from "./errors.ts";

/** One page of a list: the rows, and the cursor for the next (older) page or null at the end. */
export interface Page<T> {
  /** The rows, newest first. */
  readonly items: readonly T[];
  /** Pass as `before` for the next (older) page; null when this is the last page. */
  readonly nextCursor: string | null;
}

/** Options common to every paginated list. */
export interface ListOptions extends CallOptions {
  /** Start below this record uuid (exclusive), as `?before=`. */
  readonly before?: string;
  /** Stop just before the record with this uuid (a high-water mark; it is not yielded). */
  readonly until?: string;
  /** Yield at most this many rows. */
  readonly limit?: number;
}

/** Fetches one page; `before` is undefined for the first. */
export type PageFetcher<T> = (before: string | undefined) => Promise<Page<T>>;

/** A lazily walked list. Iterate it with `for await`, or collect with `toArray()`. */
export class Paginator<T> implements AsyncIterable<T> {
  readonly #fetchPage: PageFetcher<T>;
  readonly #idOf: (row: T) => string;
  readonly #options: ListOptions;
  readonly #endpoint: string;

  /** `idOf` gives a row's cursor identity; `endpoint` names the list in errors. */
  constructor(
    fetchPage: PageFetcher<T>,
    idOf: (row: T) => string,
    options: ListOptions,
    endpoint: string,
  ) {
    this.#fetchPage = fetchPage;
    this.#idOf = idOf;
    this.#options = options;
    this.#endpoint = endpoint;
  }

  /** Yields rows newest first, fetching each page only when it is needed. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const { until, limit } = this.#options;
    if (limit !== undefined && limit <= 0) return;
    let cursor = this.#options.before;
    const seen = new Set<string>(cursor === undefined ? [] : [cursor]);
    let yielded = 0;
    while (true) {
      const page = await this.#fetchPage(cursor);
      for (const row of page.items) {
        if (until !== undefined && this.#idOf(row) === until) return;
        yield row;
        yielded++;
        if (limit !== undefined && yielded >= limit) return;
      }
      if (page.nextCursor === null) return;
      if (seen.has(page.nextCursor)) {
        // A server repeating a cursor would otherwise keep us fetching forever.
        throw new MalformedResponseError(
          `${this.#endpoint} returned a malformed response: next_cursor repeated an earlier cursor, so the list cannot advance.`,
          { endpoint: this.#endpoint, field: "next_cursor" },
        );
      }
      seen.add(page.nextCursor);
      cursor = page.nextCursor;
    }
  }

  /** Collects every row the walk yields (bounded by `until` and `limit`). */
  async toArray(): Promise<T[]> {
    const rows: T[] = [];
    for await (const row of this) rows.push(row);
    return rows;
  }
}
