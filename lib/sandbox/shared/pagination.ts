/**
 * Cursor pagination as the platform does it: newest first (uuid descending, which UUIDv7 makes
 * commit order), 50 per page, `next_cursor` = the last row's uuid, `before` exclusive.
 */
import { Problem } from "./problem.ts";
import { isUuid } from "./uuid7.ts";

/** The fixed page size. */
export const PAGE_SIZE = 50;

/** How many rows a list query fetches: one more than a page, to know whether another follows. */
export const FETCH_SIZE = PAGE_SIZE + 1;

/**
 * The `before` cursor, if any.
 * @param exists whether a record with that uuid exists in the listed collection.
 * @throws {Problem} `400 invalid_cursor` when it is not a uuid of such a record.
 */
export function cursor(url: URL, exists: (uuid: string) => boolean): string | undefined {
  const before = url.searchParams.get("before");
  if (before === null || before === "") return undefined;
  if (!isUuid(before) || !exists(before.toLowerCase())) {
    throw new Problem(400, "invalid_cursor", `'${before}' is not a valid cursor.`);
  }
  return before.toLowerCase();
}

/**
 * A uuid-valued filter such as `timeline=` or `endpoint=`.
 * @throws {Problem} `400 invalid_filter` for a malformed value.
 */
export function uuidFilter(url: URL, name: string): string | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === "") return undefined;
  if (!isUuid(value)) {
    throw new Problem(400, "invalid_filter", `'${value}' is not a valid ${name} filter.`);
  }
  return value.toLowerCase();
}

/**
 * An enumerated filter such as `status=`.
 * @throws {Problem} `400 invalid_filter` for a value outside `allowed`.
 */
export function enumFilter(
  url: URL,
  name: string,
  allowed: readonly string[],
): string | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === "") return undefined;
  if (!allowed.includes(value)) {
    throw new Problem(
      400,
      "invalid_filter",
      `'${value}' is not a valid ${name}; expected one of ${allowed.join(", ")}.`,
    );
  }
  return value;
}

/** Cuts a fetched run of `FETCH_SIZE` rows into one page and its `next_cursor`. */
export function paginate<T extends { uuid: string }>(
  fetched: T[],
): { page: T[]; nextCursor: string | null } {
  if (fetched.length <= PAGE_SIZE) return { page: fetched, nextCursor: null };
  const page = fetched.slice(0, PAGE_SIZE);
  return { page, nextCursor: page[page.length - 1].uuid };
}

/** Sorts after every uuid, so `uuid < UPPER_BOUND` is "no cursor" in one query shape. */
export const UPPER_BOUND = "~";
