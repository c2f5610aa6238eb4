/** Managing your own sessions (credentials): list, revoke one, revoke all. */
import type { CallOptions, Transport } from "./http.ts";
import { fetchPage, type ListSpec, ownUuid, paginate } from "./lists.ts";
import type { ListOptions, Page, Paginator } from "./pagination.ts";
import { type Session, SessionSchema } from "./schemas.ts";

const LIST: ListSpec<typeof SessionSchema> = {
  path: "/users/sessions",
  key: "sessions",
  item: SessionSchema,
  idOf: ownUuid,
};

/** `/users/sessions`. */
export class SessionsApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Walks your sessions newest first. */
  list(options: ListOptions = {}): Paginator<Session> {
    return paginate(this.#t, LIST, options);
  }

  /** One page of your sessions. */
  page(options: ListOptions = {}): Promise<Page<Session>> {
    return fetchPage(this.#t, LIST, options.before, options);
  }

  /** Revokes one of your sessions (your current one included). */
  revoke(uuid: string, options: CallOptions = {}): Promise<void> {
    return this.#t.empty({
      method: "DELETE",
      path: "/users/sessions/{uuid}",
      params: { uuid },
      ...options,
    });
  }

  /** Revokes every session, including the one making this call. */
  revokeAll(options: CallOptions = {}): Promise<void> {
    return this.#t.empty({ method: "DELETE", path: "/users/sessions", ...options });
  }
}
