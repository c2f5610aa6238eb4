/**
 * Glue between the transport and pagination: every paginated endpoint is described once as a
 * ListSpec, and gets both a single-page call and a lazy walker from it.
 */
import type * as z from "../base/zod.ts";
import { type CallOptions, endpointName, type Transport } from "./http.ts";
import { type ListOptions, type Page, Paginator } from "./pagination.ts";
import { pageSchema } from "./schemas.ts";

/** How one paginated endpoint looks on the wire. */
export interface ListSpec<S extends z.ZodType> {
  /** The path, e.g. `/messages`. */
  readonly path: string;
  /** The envelope key, e.g. `messages`. */
  readonly key: string;
  /** Schema of one row. */
  readonly item: S;
  /** The row's cursor identity (`content.uuid` for items, `uuid` for flat records). */
  readonly idOf: (row: z.output<S>) => string;
  /** Filters; undefined values are left out. */
  readonly query?: Readonly<Record<string, string | undefined>>;
}

/** The record-id extractor for item kinds. */
export const contentUuid = (row: { content: { uuid: string } }): string => row.content.uuid;

/** The record-id extractor for flat records. */
export const ownUuid = (row: { uuid: string }): string => row.uuid;

/** Fetches one page, optionally below `before`. */
export async function fetchPage<S extends z.ZodType>(
  transport: Transport,
  spec: ListSpec<S>,
  before: string | undefined,
  options: CallOptions = {},
): Promise<Page<z.output<S>>> {
  const schema = pageSchema(spec.key, spec.item);
  const body = await transport.json({
    method: "GET",
    path: spec.path,
    query: { ...spec.query, before },
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  }, schema) as Record<string, unknown> & { next_cursor: string | null };
  return { items: body[spec.key] as z.output<S>[], nextCursor: body.next_cursor };
}

/** A lazy newest-first walk over the list. */
export function paginate<S extends z.ZodType>(
  transport: Transport,
  spec: ListSpec<S>,
  options: ListOptions = {},
): Paginator<z.output<S>> {
  return new Paginator(
    (before) => fetchPage(transport, spec, before, options),
    spec.idOf,
    options,
    endpointName({ method: "GET", path: spec.path }),
  );
}
