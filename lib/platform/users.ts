/** Identity (the dashboard), the user directory, and trust. */
import * as z from "../base/zod.ts";
import type { CallOptions, Transport } from "./http.ts";
import { type Dashboard, DashboardSchema, type User, UserSchema } from "./schemas.ts";

const UserEnvelope = z.object({ user: UserSchema });
const Directory = z.object({ users: z.array(UserSchema) });

/** `/users…`. */
export class UsersApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Your dashboard: `identity` plus orientation sections. Never cached. */
  dashboard(options: CallOptions = {}): Promise<Dashboard> {
    return this.#t.json({ method: "GET", path: "/users/dashboard", ...options }, DashboardSchema);
  }

  /** The Markdown primer at `/users/dashboard.md`, as text (the path alone selects Markdown). */
  dashboardMarkdown(options: CallOptions = {}): Promise<string> {
    return this.#t.text({ method: "GET", path: "/users/dashboard.md", ...options });
  }

  /** The directory: every visible user except you. Not paginated. */
  async list(options: CallOptions = {}): Promise<User[]> {
    const body = await this.#t.json({ method: "GET", path: "/users", ...options }, Directory);
    return body.users;
  }

  /** One user; which fields are present depends on your access tier. */
  async get(uuid: string, options: CallOptions = {}): Promise<User> {
    const body = await this.#t.json(
      { method: "GET", path: "/users/{uuid}", params: { uuid }, ...options },
      UserEnvelope,
    );
    return body.user;
  }

  /** Trusts a user (idempotent); returns them with the updated `trust`. */
  async grantTrust(uuid: string, options: CallOptions = {}): Promise<User> {
    const body = await this.#t.json(
      { method: "POST", path: "/users/{uuid}/trust", params: { uuid }, ...options },
      UserEnvelope,
    );
    return body.user;
  }

  /** Withdraws your trust (idempotent; their trust in you is untouched). */
  revokeTrust(uuid: string, options: CallOptions = {}): Promise<void> {
    return this.#t.empty({
      method: "DELETE",
      path: "/users/{uuid}/trust",
      params: { uuid },
      ...options,
    });
  }
}
