/**
 * Where the client's bearer token comes from: a configured token, or one minted from email and
 * password on first use. A token the platform calls `unauthorized` is re-minted once when the
 * password is known. The password lives only in a closure, so neither logging the client nor
 * any error message can reveal it.
 */
import { ConfigurationError } from "./errors.ts";
import type { TokenSource } from "./http.ts";

/** How a client authenticates; give `token`, or `email` and `password`, or both. */
export interface Credentials {
  /** A pre-minted `bc_uat_…` token. */
  readonly token?: string;
  /** Account email, for minting a token via `POST /session`. */
  readonly email?: string;
  /** Account password; used only to mint, never logged. */
  readonly password?: string;
  /** Optional label for sessions this client mints. */
  readonly sessionName?: string;
  /** Called with each token this client mints, so the caller can persist it. */
  readonly onTokenMinted?: (token: string) => void | Promise<void>;
}

/** Mints a token; the client wires this to `POST /session`. */
export type MintToken = (
  email: string,
  password: string,
  sessionName: string | undefined,
) => Promise<string>;

/** Hands out the current token, minting at most once at a time and re-minting on request. */
export class Authenticator implements TokenSource {
  #token: string | undefined;
  #pending: Promise<string> | undefined;
  readonly #mint: (() => Promise<string>) | undefined;
  readonly #onMinted: ((token: string) => void | Promise<void>) | undefined;

  constructor(credentials: Credentials, mint: MintToken) {
    const { email, password, sessionName } = credentials;
    if ((email === undefined) !== (password === undefined)) {
      throw new ConfigurationError(
        "Minting a token needs both an email and a password; only one was given.",
      );
    }
    this.#token = credentials.token;
    this.#onMinted = credentials.onTokenMinted;
    if (email !== undefined && password !== undefined) {
      this.#mint = () => mint(email, password, sessionName);
    }
  }

  /** True when a rejected token can be replaced by minting a new one. */
  get canMint(): boolean {
    return this.#mint !== undefined;
  }

  /** True when some token is available or can be minted. */
  get configured(): boolean {
    return this.#token !== undefined || this.#mint !== undefined;
  }

  /** The token to send; mints on first use when only email and password were given. */
  token(): Promise<string> {
    if (this.#token !== undefined) return Promise.resolve(this.#token);
    if (this.#pending) return this.#pending;
    if (!this.#mint) {
      return Promise.reject(
        new ConfigurationError(
          "No platform token is configured and no email/password to mint one.",
        ),
      );
    }
    return this.#startMint();
  }

  /**
   * Replaces `stale` with a fresh token. Concurrent callers that saw the same dead token share
   * one mint; a caller whose token was already replaced just gets the newer one.
   */
  refresh(stale: string): Promise<string | undefined> {
    if (!this.#mint) return Promise.resolve(undefined);
    if (this.#token !== undefined && this.#token !== stale) return Promise.resolve(this.#token);
    if (this.#pending) return this.#pending;
    this.#token = undefined;
    return this.#startMint();
  }

  #startMint(): Promise<string> {
    const mint = this.#mint as () => Promise<string>;
    const pending = (async () => {
      try {
        const token = await mint();
        this.#token = token;
        await this.#onMinted?.(token);
        return token;
      } finally {
        this.#pending = undefined;
      }
    })();
    this.#pending = pending;
    return pending;
  }

  /** Redacted: a logged client shows whether it has credentials, never what they are. */
  [Symbol.for("Deno.customInspect")](): string {
    return `Authenticator { token: ${
      this.#token ? "[redacted]" : "none"
    }, canMint: ${this.canMint} }`;
  }
}
