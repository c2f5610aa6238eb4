/**
 * The caller's own credential: mint a token from email and password, or sign the current
 * token out.
 */
import type { CallOptions, Transport } from "./http.ts";
import { type MintedSession, MintedSessionSchema } from "./schemas.ts";

/** What `session.mint` needs. */
export interface MintInput {
  /** The account's email address. */
  readonly emailAddress: string;
  /** The account's password (sent once, never logged). */
  readonly password: string;
  /** A label for the new session; omitted from the request when not given. */
  readonly name?: string;
}

/** `POST /session` and `DELETE /session`. */
export class SessionApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Mints a new token (unauthenticated). The token is shown only in this response. */
  mint(input: MintInput, options: CallOptions = {}): Promise<MintedSession> {
    const json: Record<string, string> = {
      email_address: input.emailAddress,
      password: input.password,
    };
    if (input.name !== undefined) json.name = input.name;
    return this.#t.json(
      { method: "POST", path: "/session", json, auth: false, ...options },
      MintedSessionSchema,
    );
  }

  /** Revokes the token making the call; afterwards it answers 401. */
  signOut(options: CallOptions = {}): Promise<void> {
    return this.#t.empty({ method: "DELETE", path: "/session", ...options });
  }
}
