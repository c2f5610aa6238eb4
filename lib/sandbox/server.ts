/**
 * The sandbox platform: an HTTP server on loopback speaking the BaseCradle REST contract, with
 * its state in SQLite, a task clock, fault injection and (optionally) router emulation.
 */
import { namedError } from "../base/error_text.ts";
import type { DatabaseSync } from "node:sqlite";
import {
  activateTask,
  adminRoutes,
  type CreatedUser,
  createUser,
  type NewUser,
} from "./routes/admin.ts";
import { authenticate, createSession } from "./shared/auth.ts";
import { openDatabase } from "./shared/db.ts";
import { EventLog, type SandboxEvent } from "./shared/events.ts";
import { type Fault, faultResponse, type FaultSpec, FaultTable } from "./shared/faults.ts";
import { sleep } from "../base/sleep.ts";
import { bodyLimitOf, RouteTable, tooLarge } from "./shared/http.ts";
import { BodyTooLargeError, limitBody } from "./shared/body_limit.ts";
import { newAdminToken } from "./shared/admin_token.ts";
import { servedHosts } from "./shared/local_origin.ts";
import { guardRequest, type SandboxGuard } from "./guard.ts";
import { ANTHROPIC_MODEL_PATH, MODEL_PATH, modelRoutes } from "./model/routes.ts";
import { Problem, problemResponse } from "./shared/problem.ts";
import { findTimeline, viewersOf } from "./shared/access.ts";
import { type WakeDirectory, WakeRouter } from "./router.ts";
import type { RouterRules } from "./router_rules.ts";
import { type DeliveryRecord, IntegrationDeliveries } from "./integration_deliveries.ts";
import { integrationFields } from "./shared/integrations.ts";
import { join } from "node:path";
import { blobRoutes } from "./routes/blobs.ts";
import { contactRoutes } from "./routes/contact.ts";
import { contentRoutes } from "./routes/content.ts";
import { itemRoutes } from "./routes/items.ts";
import { sessionRoutes } from "./routes/session.ts";
import { timelineRoutes } from "./routes/timelines.ts";
import { userRoutes } from "./routes/users.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import {
  DEFAULT_LIMITS,
  row,
  type SandboxLimits,
  type SandboxState,
  type SessionRow,
} from "./shared/state.ts";
import { activateDueTasks } from "./shared/tasks.ts";

/** Options for {@link Sandbox.start}. */
export interface SandboxOptions {
  /** Interface to bind; loopback by default, since the admin surface has no auth. */
  readonly hostname?: string;
  /** Port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Directory for `sandbox.db` (and agents' homes); in memory when absent. */
  readonly dataDir?: string;
  /** Runs the router twin with this wake command (it gets `--timeline <uuid>` appended). */
  readonly wakeCommand?: string;
  /**
   * The twin's rules; the fleet router's by default, with the wake-lock files in
   * `<agents root>/wake-locks` (`wakeLockDir: null` switches that off).
   */
  readonly routerRules?: Partial<RouterRules>;
  /** The working directory of every wake; this process's when absent. */
  readonly wakeCwd?: string;
  /** Keep each wake attempt's output in the router's history (tests read it). */
  readonly keepWakeOutput?: boolean;
  /** Where agents' `HARNESS_HOME`s go (`<root>/agents/<handle>`); default `dataDir`. */
  readonly agentsRoot?: string;
  /** Request and wake log lines (no trailing newline). Silent by default. */
  readonly log?: (line: string) => void;
  /** Woken processes' output; default this process's stderr. */
  readonly wakeOutput?: (chunk: Uint8Array) => void;
  /** Extra environment for woken processes. */
  readonly wakeEnv?: Readonly<Record<string, string>>;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  readonly clock?: () => number;
  /** How often due tasks are checked, in ms (they are also checked on every request). */
  readonly taskPollMs?: number;
  /** Body-size ceilings. */
  readonly limits?: Partial<SandboxLimits>;
  /** `identity-only` serves the minimal dashboard older platforms return. */
  readonly dashboard?: "full" | "identity-only";
}

/** One served request, as kept for tests (never the token or the body). */
export interface RequestRecord {
  /** The HTTP method. */
  readonly method: string;
  /** The path, with ingest tokens and blob keys masked. */
  readonly path: string;
  /** The status it was answered with. */
  readonly status: number;
  /** How long serving it took, in milliseconds. */
  readonly ms: number;
  /** Arrival, ms on the monotonic clock (`performance.now()`): compare records, not wall time. */
  readonly startedAt: number;
  /** The `Idempotency-Key` header, when one was sent. */
  readonly idempotencyKey: string | null;
  /** The query string without its `?` (`""` when none), e.g. `timeline=…&status=pending`. */
  readonly query: string;
}

const MAX_REQUEST_RECORDS = 10_000;

/** A request that has arrived and is not answered yet (held by a delay fault, or being served). */
export interface PendingRequest {
  /** The HTTP method. */
  readonly method: string;
  /** The path, masked as in {@link RequestRecord}. */
  readonly path: string;
}

/** A running sandbox platform. */
export class Sandbox {
  readonly #state: SandboxState;
  readonly #db: DatabaseSync;
  readonly #table = new RouteTable();
  readonly #faults = new FaultTable();
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #abort = new AbortController();
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #log: (line: string) => void;
  readonly #requests: RequestRecord[] = [];
  readonly #pending = new Set<PendingRequest>();
  #router: WakeRouter | null = null;
  readonly #deliveries: IntegrationDeliveries;
  #closing: Promise<void> | null = null;
  #guard: SandboxGuard;

  private constructor(options: SandboxOptions) {
    this.#log = options.log ?? (() => {});
    this.#db = openDatabase(options.dataDir);
    const events = new EventLog(
      this.#db,
      (error) => this.#log(`sandbox listener-error reason=${JSON.stringify(String(error))}`),
    );
    this.#state = {
      db: this.#db,
      now: options.clock ?? Date.now,
      baseUrl: "",
      events,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      dashboard: options.dashboard ?? "full",
    };
    sessionRoutes(this.#table);
    userRoutes(this.#table);
    timelineRoutes(this.#table);
    contentRoutes(this.#table);
    itemRoutes(this.#table);
    webhookRoutes(this.#table);
    contactRoutes(this.#table);
    blobRoutes(this.#table);
    adminRoutes(this.#table, this.#faults);
    modelRoutes(this.#table);

    try {
      this.#server = this.#listen(options);
    } catch (error) {
      this.#db.close();
      throw error;
    }
    const { hostname, port } = this.#server.addr;
    this.#state.baseUrl = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
    this.#guard = {
      hosts: servedHosts([options.hostname ?? hostname, hostname], port),
      adminToken: newAdminToken(),
    };

    this.#deliveries = new IntegrationDeliveries(this.#state, this.#log);
    events.subscribe((event) => this.#deliveries.handle(event));
    if (options.wakeCommand) this.#router = this.#startRouter(options);

    this.#timer = setInterval(() => this.#tick(), options.taskPollMs ?? 250);
  }

  /** Starts a sandbox and resolves once it is listening. */
  static start(options: SandboxOptions = {}): Promise<Sandbox> {
    try {
      return Promise.resolve(new Sandbox(options));
    } catch (error) {
      // e.g. the port is taken: reject rather than throw, like any other async failure.
      return Promise.reject(error);
    }
  }

  /** Where clients reach the API, e.g. `http://127.0.0.1:8123`. */
  get baseUrl(): string {
    return this.#state.baseUrl;
  }

  /** Where the admin surface lives: `<baseUrl>/_sandbox`. */
  get adminUrl(): string {
    return `${this.#state.baseUrl}/_sandbox`;
  }

  /**
   * This run's admin token: every `/_sandbox/*` admin request carries it in the
   * `Sandbox-Admin-Token` header (docs/sandbox.md#admin-routes). New on every start.
   */
  get adminToken(): string {
    return this.#guard.adminToken;
  }

  /** The body-size ceilings this sandbox enforces. */
  get limits(): SandboxLimits {
    return this.#state.limits;
  }

  /** The demo model's OpenAI-compatible base URL (`AI_BASE_URL`): `<baseUrl>/_sandbox/model/v1`. */
  get modelUrl(): string {
    return `${this.#state.baseUrl}${MODEL_PATH}`;
  }

  /**
   * The demo model's Anthropic Messages base URL (`AI_BASE_URL` with `AI_PROVIDER=anthropic`):
   * `<baseUrl>/_sandbox/model/anthropic`.
   */
  get anthropicModelUrl(): string {
    return `${this.#state.baseUrl}${ANTHROPIC_MODEL_PATH}`;
  }

  /** The port listened on. */
  get port(): number {
    return this.#server.addr.port;
  }

  /** The router emulation, when a wake command was given. */
  get router(): WakeRouter | null {
    return this.#router;
  }

  /**
   * Who views a timeline, and a live API token per user: what router emulation wakes agents
   * with (the built-in {@link router} and `harness playground`'s own).
   */
  get directory(): WakeDirectory {
    return {
      viewers: (timeline) => {
        const found = findTimeline(this.#state, timeline);
        return (found ? viewersOf(this.#state, found) : []).map((user) => ({
          uuid: user.uuid,
          handle: user.handle,
          kind: user.kind,
          integrated: integrationFields(this.#state, user.uuid).integration_enabled,
        }));
      },
      tokenFor: (user) => this.#tokenFor(user),
    };
  }

  /** Calls `listener` right after every recorded event; returns the function that stops it. */
  onEvent(listener: (event: SandboxEvent) => void): () => void {
    return this.#state.events.subscribe(listener);
  }

  /**
   * The platform's deliveries to integration URLs so far, in the order they finished (the newest
   * 10,000).
   */
  get deliveries(): readonly DeliveryRecord[] {
    return this.#deliveries.records;
  }

  /** Resolves once every queued integration delivery has been sent (or has failed). */
  deliveriesIdle(): Promise<void> {
    return this.#deliveries.idle();
  }

  /** Requests served so far, oldest first (the newest 10,000). */
  get requests(): readonly RequestRecord[] {
    return this.#requests;
  }

  /**
   * Requests that have arrived and are not answered yet, oldest first: a test can wait for a
   * client's request to be held by a delay fault, where {@link requests} only shows it once served.
   */
  get pending(): readonly PendingRequest[] {
    return [...this.#pending];
  }

  /** Same as `POST /_sandbox/users`. */
  createUser(input: NewUser): CreatedUser {
    return createUser(this.#state, input);
  }

  /** Same as `GET /_sandbox/events`. */
  events(): SandboxEvent[] {
    return this.#state.events.list();
  }

  /** Same as `POST /_sandbox/faults` (`count` defaults to 1). */
  addFault(spec: Omit<FaultSpec, "count"> & { count?: number }): Fault {
    return this.#faults.add({ ...spec, count: spec.count ?? 1 });
  }

  /**
   * Same as `POST /_sandbox/tasks/<uuid>/activate`: activates a pending task now and returns it
   * as the route does.
   * @throws {Problem} 404 `not_found` for an unknown task, 409 `task_not_pending` for one that is
   *   not pending.
   */
  activateTask(uuid: string): Record<string, unknown> {
    return activateTask(this.#state, uuid);
  }

  /** Activates every due task now; returns how many changed state. */
  activateDueTasks(): number {
    return activateDueTasks(this.#state);
  }

  /**
   * Stops the server (in-flight requests finish; injected delays end early), stops the task
   * clock, stops wakes, and closes the database. Safe to call twice.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearInterval(this.#timer);
      this.#abort.abort();
      await this.#server.finished;
      await this.#router?.close();
      await this.#deliveries.close();
      this.#db.close();
    })();
    return this.#closing;
  }

  #listen(options: SandboxOptions): Deno.HttpServer<Deno.NetAddr> {
    return Deno.serve({
      hostname: options.hostname ?? "127.0.0.1",
      port: options.port ?? 0,
      signal: this.#abort.signal,
      onListen: () => {},
      onError: () => problemResponse(new Problem(500, "internal_server_error", "Internal error.")),
    }, (req, info) => this.#handle(req, info.remoteAddr));
  }

  #tick(): void {
    try {
      activateDueTasks(this.#state);
    } catch (error) {
      this.#log(`sandbox task-clock-error reason=${JSON.stringify(String(error))}`);
    }
  }

  #startRouter(options: SandboxOptions): WakeRouter {
    const homeRoot = options.agentsRoot ?? options.dataDir ?? this.#scratchHome();
    const router = new WakeRouter({
      command: options.wakeCommand,
      baseUrl: this.#state.baseUrl,
      homeRoot,
      directory: this.directory,
      log: this.#log,
      output: options.wakeOutput,
      env: options.wakeEnv,
      cwd: options.wakeCwd,
      keepOutput: options.keepWakeOutput,
      clock: this.#state.now,
      rules: { wakeLockDir: join(homeRoot, "wake-locks"), ...options.routerRules },
    });
    this.#state.events.subscribe((event) => router.dispatch(event));
    return router;
  }

  /** Without a data dir, agents still need a home that outlives one wake: a temp dir. */
  #scratchHome(): string {
    const dir = Deno.makeTempDirSync({ prefix: "basecradle-sandbox-" });
    this.#log(`sandbox agents-home root=${dir}`);
    return dir;
  }

  #tokenFor(user: string): string {
    const live = row<SessionRow>(
      this.#db.prepare(
        `SELECT * FROM sessions WHERE user_uuid = ? AND revoked_at IS NULL AND kind = 'api'
       ORDER BY uuid DESC LIMIT 1`,
      ).get(user),
    );
    return live?.token ?? createSession(this.#state, user, { name: "router" }).token;
  }

  async #handle(req: Request, remote: Deno.NetAddr): Promise<Response> {
    const started = performance.now();
    const url = new URL(req.url);
    // `.json` format suffixes (as the dashboard advertises) address the same resources.
    const path = url.pathname.endsWith(".json") ? url.pathname.slice(0, -5) : url.pathname;
    const shown = maskPath(path);
    const arrival: PendingRequest = { method: req.method, path: shown };
    this.#pending.add(arrival);
    let response: Response;
    try {
      const refused = guardRequest(req, path, this.#guard);
      if (refused) throw refused;
      const fault = path.startsWith("/_sandbox") ? undefined : this.#faults.take(req.method, path);
      if (fault?.delay_ms) await sleep(fault.delay_ms, this.#abort.signal);
      if (fault?.status !== undefined && !fault.commit) {
        response = faultResponse(fault.status);
      } else {
        response = await this.#dispatch(req, url, path, remote);
        if (fault?.status !== undefined) {
          await response.body?.cancel();
          response = faultResponse(fault.status);
        } else if (fault?.body) {
          response = await spoiled(response, fault.body);
        }
      }
    } catch (error) {
      response = this.#failure(error);
    } finally {
      this.#pending.delete(arrival);
    }
    const ms = Math.round(performance.now() - started);
    this.#log(
      `sandbox request method=${req.method} path=${shown} status=${response.status} ms=${ms}`,
    );
    this.#requests.push({
      method: req.method,
      path: shown,
      status: response.status,
      ms,
      startedAt: started,
      idempotencyKey: req.headers.get("idempotency-key"),
      query: url.search.slice(1),
    });
    if (this.#requests.length > MAX_REQUEST_RECORDS) this.#requests.shift();
    return response;
  }

  async #dispatch(req: Request, url: URL, path: string, remote: Deno.NetAddr): Promise<Response> {
    // Lazily, so a due task is activated before anyone can observe it as pending.
    activateDueTasks(this.#state);
    const match = this.#table.match(req.method, path);
    if (match.kind === "none") {
      throw new Problem(404, "not_found", `No route matches ${req.method} ${maskPath(path)}.`);
    }
    if (match.kind === "wrong-method") {
      throw new Problem(
        405,
        "method_not_allowed",
        `${req.method} is not allowed here.`,
        undefined,
        {
          allow: [...new Set(match.allowed)].join(", "),
        },
      );
    }
    const base = {
      // Bounded before the handler runs: 413 for a declared length over the route's ceiling,
      // and a chunked body is cut off there however the handler reads it.
      req: limitBody(req, bodyLimitOf(match.route, this.#state.limits)),
      url,
      params: match.params,
      state: this.#state,
      remoteAddr: remote.hostname ?? null,
    };
    const { route } = match;
    if (!route.auth) return await route.handler(base);
    const { user, session } = authenticate(this.#state, req);
    return await route.handler({ ...base, user, session });
  }

  #failure(error: unknown): Response {
    if (error instanceof Problem) return problemResponse(error);
    if (error instanceof BodyTooLargeError) return problemResponse(tooLarge(error.limit));
    // Never a stack on the wire: the operator gets one line, the client a plain 500.
    const reason = namedError(error);
    this.#log(`sandbox internal-error reason=${JSON.stringify(reason)}`);
    return problemResponse(
      new Problem(500, "internal_server_error", "The sandbox failed to handle this request."),
    );
  }
}

/** Hides the capability parts of a path (ingest tokens, blob keys) from logs. */
function maskPath(path: string): string {
  return path.replace(/^\/webhooks\/[^/]+/, "/webhooks/[token]")
    .replace(/^\/blobs\/[^/]+/, "/blobs/[key]");
}

/** The real answer with its body spoiled: half of it as a whole answer, or a connection cut. */
async function spoiled(response: Response, how: "truncate" | "cut"): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  const init = { status: response.status, headers: response.headers };
  if (how === "truncate") {
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(half, { ...init, headers });
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(half);
      controller.error(new Error("the sandbox cut the connection mid-answer"));
    },
  });
  return new Response(stream, init);
}
