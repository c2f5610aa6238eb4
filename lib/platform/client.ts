/**
 * The BaseCradle platform client: one transport, one credential source, and a namespace per
 * resource group.
 *
 * ```ts
 * const client = new PlatformClient({ token: "bc_uat_…" });
 * const { timeline, items } = await client.timelines.get(uuid);
 * for await (const m of client.messages.list({ timeline: uuid, until: mark })) { … }
 * ```
 */
import { AdminApi } from "./admin.ts";
import { AssetsApi } from "./assets.ts";
import { Authenticator } from "./auth.ts";
import {
  DEFAULT_BASE_URL,
  type EnvReader,
  optionsFromEnv,
  parseBaseUrl,
  type PlatformClientOptions,
} from "./config.ts";
import { ConfigurationError } from "./errors.ts";
import { DEFAULT_TIMEOUT_MS, Transport } from "./http.ts";
import { MessagesApi } from "./messages.ts";
import { PasswordApi } from "./password.ts";
import { SessionApi } from "./session.ts";
import { SessionsApi } from "./sessions.ts";
import { TasksApi } from "./tasks.ts";
import { TimelinesApi } from "./timelines.ts";
import { UsersApi } from "./users.ts";
import { WebhookEndpointsApi } from "./webhook_endpoints.ts";
import { WebhookEventsApi } from "./webhook_events.ts";

/** A typed client for every endpoint of the BaseCradle REST API. */
export class PlatformClient {
  /** The platform root every path is appended to. */
  readonly baseUrl: URL;
  /** Mint a token (`POST /session`) or sign out (`DELETE /session`). */
  readonly session: SessionApi;
  /** Your sessions: list, revoke, revoke all. */
  readonly sessions: SessionsApi;
  /** Change your password. */
  readonly password: PasswordApi;
  /** Dashboard, directory, trust. */
  readonly users: UsersApi;
  /** Timelines, their lock and participants. */
  readonly timelines: TimelinesApi;
  /** Messages. */
  readonly messages: MessagesApi;
  /** Assets and blob downloads. */
  readonly assets: AssetsApi;
  /** Tasks. */
  readonly tasks: TasksApi;
  /** Webhook endpoints. */
  readonly webhookEndpoints: WebhookEndpointsApi;
  /** Webhook events and ingest. */
  readonly webhookEvents: WebhookEventsApi;
  /** Admin only: contact messages and notes. */
  readonly admin: AdminApi;
  readonly #auth: Authenticator;

  /** Builds a client; throws ConfigurationError for a bad URL, timeout or credential set. */
  constructor(options: PlatformClientOptions = {}) {
    this.baseUrl = parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new ConfigurationError("timeoutMs must be a positive number of milliseconds.");
    }
    if (options.token !== undefined && (options.token === "" || /\s/.test(options.token))) {
      throw new ConfigurationError("The token must be non-empty and contain no whitespace.");
    }
    const transport = new Transport({
      baseUrl: this.baseUrl,
      timeoutMs,
      userAgent: options.userAgent,
      fetch: options.fetch,
      createBackoffMs: options.createBackoffMs,
    });
    this.session = new SessionApi(transport);
    this.#auth = new Authenticator(options, async (emailAddress, password, name) => {
      const minted = await this.session.mint({ emailAddress, password, name });
      return minted.token;
    });
    if (this.#auth.configured) transport.useAuth(this.#auth);
    this.sessions = new SessionsApi(transport);
    this.password = new PasswordApi(transport);
    this.users = new UsersApi(transport);
    this.timelines = new TimelinesApi(transport);
    this.messages = new MessagesApi(transport);
    this.assets = new AssetsApi(transport);
    this.tasks = new TasksApi(transport);
    this.webhookEndpoints = new WebhookEndpointsApi(transport);
    this.webhookEvents = new WebhookEventsApi(transport);
    this.admin = new AdminApi(transport);
  }

  /**
   * A client configured from the BASECRADLE_* environment variables, with `overrides` on top
   * (e.g. `onTokenMinted`, `timeoutMs`, `fetch`).
   */
  static fromEnv(
    overrides: PlatformClientOptions = {},
    env?: EnvReader,
  ): PlatformClient {
    const fromEnv = optionsFromEnv(env);
    const merged: PlatformClientOptions = { ...fromEnv };
    for (const [key, value] of Object.entries(overrides)) {
      if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
    }
    return new PlatformClient(merged);
  }

  /** Redacted: credentials never appear when a client is logged. */
  [Symbol.for("Deno.customInspect")](): string {
    return `PlatformClient { baseUrl: ${this.baseUrl.href}, auth: ${
      this.#auth.configured ? (this.#auth.canMint ? "email+password" : "token") : "none"
    } }`;
  }
}
