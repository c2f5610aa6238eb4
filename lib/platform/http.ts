/**
 * The transport: builds each request (headers, body, timeout), sends it, reads the whole
 * answer under the same deadline, heals a dead token once, and turns every failure into a
 * typed error. Resource modules describe calls; only this file sends them, through the one fetch
 * path (lib/net/).
 */
import { HostNotAllowedError } from "../net/host_fence.ts";
import { handedFetch, outboundFetch } from "../net/outbound.ts";
import { UrlRefusedError } from "../net/refusal.ts";
import { sleep } from "../base/sleep.ts";
import type * as z from "../base/zod.ts";
import { USER_AGENT } from "../base/version.ts";
import {
  ConfigurationError,
  errorFromProblem,
  MalformedResponseError,
  oneLine,
  outcomeUnknown,
  OutcomeUnknownError,
  RefusedUrlError,
  TransportError,
  type TransportFailure,
} from "./errors.ts";
import { parseResponse } from "./validate.ts";
import { BlobTooLargeError, readBodyWithin } from "./capped_body.ts";

/** The HTTP methods the platform API uses. */
export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** The `fetch` signature the client needs; inject one to observe or reroute traffic. */
export type FetchLike = (input: URL | Request | string, init?: RequestInit) => Promise<Response>;

/** Per-call knobs every client method accepts. */
export interface CallOptions {
  /** Cancels the call (a TransportError with failure "aborted"). */
  readonly signal?: AbortSignal;
  /** Overrides the client's timeout for this call, in milliseconds. */
  readonly timeoutMs?: number;
}

/** Options of the four replay-protected creates (message, asset, task, webhook endpoint). */
export interface CreateOptions extends CallOptions {
  /** Sent as `Idempotency-Key`; a replay under the same key returns the original record. */
  readonly idempotencyKey?: string;
}

/** Where bearer tokens come from; `refresh` re-mints after a 401 and may decline. */
export interface TokenSource {
  /** The token to send now. */
  token(): Promise<string>;
  /** Replace `stale` with a fresh token, or return undefined when re-minting is impossible. */
  refresh(stale: string): Promise<string | undefined>;
}

/** One call, described independently of how it is sent. */
export interface Call extends CreateOptions {
  readonly method: Method;
  /** The path template, e.g. `/timelines/{uuid}`; `{name}` slots are filled from `params`. */
  readonly path: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** A JSON body (sent as application/json). */
  readonly json?: unknown;
  /** A multipart body; fetch sets the boundary. */
  readonly form?: FormData;
  /** A raw body with its content type (webhook ingest). */
  readonly raw?: { readonly body: string | Uint8Array; readonly contentType?: string };
  readonly headers?: Readonly<Record<string, string>>;
  /** Send the bearer token (default true). */
  readonly auth?: boolean;
  /** Send `Accept: application/json` (default true). */
  readonly accept?: boolean;
  /** An absolute URL to use instead of base URL + path (blob download, a full ingest URL). */
  readonly url?: URL;
  /**
   * The URL itself is a credential (a signed blob URL, an ingest token in the path): a failure
   * must not keep the runtime's error, which names the full URL. Implied by `url`.
   */
  readonly secretUrl?: boolean;
  /**
   * The most bytes the body may hold; past it the read stops and a `BlobTooLargeError` is thrown.
   * Unset reads the whole body (the platform's JSON answers).
   */
  readonly maxBytes?: number;
}

/** A fully read 2xx answer. */
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  /** The URL that finally answered (after redirects). */
  readonly url: string;
}

/** How the transport is set up. */
export interface TransportOptions {
  readonly baseUrl: URL;
  readonly timeoutMs: number;
  readonly userAgent?: string;
  readonly fetch?: FetchLike;
  /** The waits before each re-send of a keyed create whose outcome is unknown. */
  readonly createBackoffMs?: readonly number[];
}

/**
 * How long a keyed create whose outcome is unknown waits before each re-send under the same key:
 * three sends in all, over about two seconds plus the calls themselves.
 */
export const CREATE_BACKOFF_MS: readonly number[] = [500, 1500];

/** The client's default per-call deadline. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** `METHOD /path/{template}`: how errors name a call without leaking ids or secrets. */
export function endpointName(call: Pick<Call, "method" | "path">): string {
  return `${call.method} ${call.path}`;
}

/** Fills `{slot}`s; every value is percent-encoded so an id can never change the path. */
function fillPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new ConfigurationError(`Missing path parameter "${key}".`);
    return encodeURIComponent(value);
  });
}

const decoder = new TextDecoder();

function tryJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

/** Sends calls to one platform. */
export class Transport {
  readonly baseUrl: URL;
  readonly timeoutMs: number;
  readonly #userAgent: string;
  readonly #fetch: FetchLike;
  readonly #handed: FetchLike;
  readonly #createBackoffMs: readonly number[];
  #auth: TokenSource | undefined;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl;
    this.timeoutMs = options.timeoutMs;
    this.#userAgent = options.userAgent ?? USER_AGENT;
    // The fetch path (docs/security.md#one-fetch-path): http(s) only, and the host rules on
    // every request and redirect hop.
    this.#fetch = outboundFetch("platform", options.fetch);
    // An absolute URL the platform handed us (a signed blob URL) is read as a handed URL: on
    // the platform's own origin like any call, anywhere else through the address fence.
    this.#handed = handedFetch("platform", { trusted: [this.baseUrl], fetch: options.fetch });
    this.#createBackoffMs = options.createBackoffMs ?? CREATE_BACKOFF_MS;
  }

  /** Installs the token source (set after construction because minting itself uses this transport). */
  useAuth(auth: TokenSource | undefined): void {
    this.#auth = auth;
  }

  /** The absolute URL of a call. */
  urlOf(call: Call): URL {
    if (call.url) return call.url;
    // Appended, not resolved, so a base URL with a path prefix keeps it.
    const base = this.baseUrl.href.replace(/\/+$/, "");
    const url = new URL(base + fillPath(call.path, call.params));
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url;
  }

  /** Sends a call and returns its 2xx reply; anything else throws a PlatformError subclass. */
  async send(call: Call): Promise<Reply> {
    const endpoint = endpointName(call);
    if (call.auth === false) return this.#finish(await this.#once(call, undefined), endpoint);
    if (!this.#auth) {
      throw new ConfigurationError(
        `${endpoint} needs credentials, but the client has neither a token nor an email and password.`,
        { endpoint },
      );
    }
    const token = await this.#auth.token();
    let reply = await this.#once(call, token);
    if (reply.status === 401 && codeOf(reply.bytes) === "unauthorized") {
      // Only a dead token heals; wrong credentials or signatures would just fail again.
      const fresh = await this.#auth.refresh(token);
      if (fresh !== undefined) reply = await this.#once(call, fresh);
    }
    return this.#finish(reply, endpoint);
  }

  /**
   * Sends a call and validates its JSON body against `schema`. A keyed create whose outcome is
   * unknown (see {@link outcomeUnknown}) is re-sent under the same key, with backoff, until a
   * definite answer; when none comes it throws {@link OutcomeUnknownError}, never the failure of
   * one attempt (that would read as "it failed", and a caller would post again).
   */
  async json<T extends z.ZodType>(call: Call, schema: T): Promise<z.output<T>> {
    if (call.idempotencyKey === undefined) return await this.#jsonOnce(call, schema);
    for (let attempt = 1;; attempt++) {
      try {
        return await this.#jsonOnce(call, schema);
      } catch (error) {
        if (!outcomeUnknown(error)) throw error;
        const aborted = error instanceof TransportError && error.failure === "aborted";
        if (aborted || attempt > this.#createBackoffMs.length || call.signal?.aborted) {
          throw error instanceof OutcomeUnknownError
            ? error
            : new OutcomeUnknownError(error, attempt);
        }
        await sleep(this.#createBackoffMs[attempt - 1], call.signal);
      }
    }
  }

  async #jsonOnce<T extends z.ZodType>(call: Call, schema: T): Promise<z.output<T>> {
    const reply = await this.send(call);
    const endpoint = endpointName(call);
    const text = decoder.decode(reply.bytes);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      const what = text.trim() === "" ? "an empty body" : "a body that is not valid JSON";
      throw new MalformedResponseError(
        `${endpoint} returned ${what} with HTTP ${reply.status}.`,
        { endpoint, status: reply.status },
      );
    }
    return parseResponse(schema, body, endpoint, reply.status);
  }

  /** Sends a call whose body does not matter (204s, and 200s we only acknowledge). */
  async empty(call: Call): Promise<void> {
    await this.send(call);
  }

  /** Sends a call and returns its body as text. */
  async text(call: Call): Promise<string> {
    return decoder.decode((await this.send(call)).bytes);
  }

  #finish(reply: Reply, endpoint: string): Reply {
    if (reply.status >= 200 && reply.status < 300) return reply;
    throw errorFromProblem({
      status: reply.status,
      body: tryJson(reply.bytes),
      retryAfter: reply.headers.get("retry-after"),
      endpoint,
    });
  }

  async #once(call: Call, token: string | undefined): Promise<Reply> {
    const endpoint = endpointName(call);
    const url = this.urlOf(call);
    const headers = new Headers(call.headers);
    // Only the four content creates are given a key; it rides only when one was.
    if (call.idempotencyKey !== undefined) headers.set("Idempotency-Key", call.idempotencyKey);
    headers.set("User-Agent", this.#userAgent);
    if (call.accept !== false) headers.set("Accept", "application/json");
    if (token !== undefined) headers.set("Authorization", `Bearer ${token}`);
    let body: BodyInit | undefined;
    if (call.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(call.json);
    } else if (call.form) {
      body = call.form;
    } else if (call.raw) {
      if (call.raw.contentType) headers.set("Content-Type", call.raw.contentType);
      body = typeof call.raw.body === "string" ? call.raw.body : call.raw.body.slice();
    }

    const timeoutMs = call.timeoutMs ?? this.timeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([deadline, call.signal]) : deadline;
    try {
      // A blob read of a handed URL; a full ingest URL (a POST the library's caller names) is
      // a destination they chose, like the base URL.
      const send = call.url && call.method === "GET" ? this.#handed : this.#fetch;
      const res = await send(url, { method: call.method, headers, body, signal });
      // The deadline covers the body too: a server that stalls mid-body is a timeout.
      const bytes = call.maxBytes === undefined
        ? new Uint8Array(await res.arrayBuffer())
        : await readBodyWithin(res, call.maxBytes, endpoint);
      return { status: res.status, headers: res.headers, bytes, url: res.url || url.href };
    } catch (err) {
      // Refused before it was sent: a definite answer, never an unknown outcome to re-send.
      if (err instanceof HostNotAllowedError) throw err;
      if (err instanceof UrlRefusedError) {
        throw new RefusedUrlError(
          `${endpoint}: ${err.message}`,
          { endpoint, detail: err.message },
          {
            cause: err,
          },
        );
      }
      // Over the caller's cap: an answer about the blob, not a transport failure to retry.
      if (err instanceof BlobTooLargeError) throw err;
      throw transportError(err, {
        endpoint,
        origin: url.origin,
        timeoutMs,
        timedOut: deadline.aborted,
        cancelled: call.signal?.aborted === true,
        // The runtime's own error names the full URL; for ingest and blob URLs that is a secret.
        keepCause: !call.url && !call.secretUrl,
      });
    }
  }
}

function codeOf(bytes: Uint8Array): string | undefined {
  const body = tryJson(bytes);
  if (typeof body !== "object" || body === null) return undefined;
  const code = (body as Record<string, unknown>).code;
  return typeof code === "string" ? code : undefined;
}

interface FailureContext {
  readonly endpoint: string;
  readonly origin: string;
  readonly timeoutMs: number;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly keepCause?: boolean;
}

/** Error text from the runtime can embed the full URL (an ingest token, a signed blob URL). */
function scrubUrls(text: string): string {
  return text.replace(/\(?\b[a-z][a-z0-9+.-]*:\/\/[^\s)]*\)?/gi, "").replace(/\s+/g, " ").trim();
}

function messageChain(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    parts.push(current.message);
    current = current.cause;
  }
  if (parts.length === 0) parts.push(String(err));
  return parts.join(" ");
}

/** Classifies a fetch failure; the sentence says which failure it was. */
function transportError(err: unknown, ctx: FailureContext): TransportError {
  const chain = messageChain(err);
  const name = err instanceof Error ? err.name : "";
  let failure: TransportFailure;
  if (ctx.timedOut || name === "TimeoutError") failure = "timeout";
  else if (ctx.cancelled || name === "AbortError") failure = "aborted";
  else if (/connection refused|ECONNREFUSED/i.test(chain)) failure = "refused";
  else if (/dns error|lookup address|name or service not known|ENOTFOUND/i.test(chain)) {
    failure = "dns";
  } else if (
    /reset|closed before message completed|broken pipe|error reading a body|unexpected eof|ECONNRESET/i
      .test(chain)
  ) {
    failure = "reset";
  } else failure = "other";

  const where = `${ctx.endpoint} to ${ctx.origin}`;
  const sentences: Record<TransportFailure, string> = {
    timeout: `${where} timed out after ${formatSeconds(ctx.timeoutMs)}.`,
    aborted: `${where} was cancelled before it completed.`,
    refused: `${where} failed: the connection was refused.`,
    dns: `${where} failed: the host name could not be resolved.`,
    reset: `${where} failed: the connection was reset or closed before the response completed.`,
    other: `${where} failed at the network level (${oneLine(scrubUrls(chain)) || "no detail"}).`,
  };
  const options = ctx.keepCause === false ? undefined : { cause: err };
  return new TransportError(sentences[failure], { endpoint: ctx.endpoint, failure }, options);
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
