/**
 * The platform client's failure classes. Every way a call can fail ends in one of these, so a
 * caller decides by class (retry next wake, skip, report) and never by parsing text.
 *
 * PlatformError                 status, code, title, detail, endpoint
 * ├── InvalidRequestError       400 (invalid_cursor, invalid_filter)
 * ├── UnauthorizedError         401 (unauthorized, invalid_credentials, invalid_signature)
 * ├── ForbiddenError            403 (not_a_viewer, timeline_locked, not_timeline_owner, …)
 * ├── NotFoundError             404
 * ├── ConflictError             409 (task_not_pending)
 * ├── GoneError                 410 (endpoint_disabled)
 * ├── PayloadTooLargeError      413
 * ├── UnprocessableError        422, with fieldErrors
 * ├── RateLimitedError          429, with retryAfter
 * ├── ServerError               5xx (also the proxy's HTML 502)
 * ├── TransportError            never got an answer: refused, reset, DNS, timeout, aborted
 * ├── MalformedResponseError    a 2xx we could not read: not JSON, or a schema mismatch
 * ├── OutcomeUnknownError       a keyed create that got no definite answer, even re-sent
 * ├── RefusedUrlError           a URL the fetch path would not fetch (a file: URL, an inward address)
 * └── ConfigurationError        the client was set up wrongly (bad URL, no credentials)
 *
 * Any other 4xx with a problem body becomes a plain PlatformError carrying its code.
 */

/** Longest server-supplied text we copy into a message; a hostile body must not flood logs. */
const MAX_TEXT = 300;

/** Collapses whitespace and caps length so server text stays one readable line. */
export function oneLine(text: string, max = MAX_TEXT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The fields every platform failure carries; absent ones are `undefined`. */
export interface PlatformErrorInit {
  /** HTTP status, when the platform answered. */
  readonly status?: number;
  /** The problem's machine-readable `code`, when the body had one. */
  readonly code?: string;
  /** The problem's `title`. */
  readonly title?: string;
  /** The problem's human `detail` sentence. */
  readonly detail?: string;
  /** The call that failed, as `METHOD /path/{template}` (never the concrete, maybe secret, path). */
  readonly endpoint?: string;
  /** The problem's `instance` id, useful when reporting to the platform's operators. */
  readonly instance?: string;
}

/** Any failure of a platform call. Catch this to handle them all. */
export class PlatformError extends Error {
  /** Always "PlatformError". */
  override name = "PlatformError";
  /** HTTP status, when the platform answered. */
  readonly status: number | undefined;
  /** The problem's machine-readable `code`, when the body had one. */
  readonly code: string | undefined;
  /** The problem's `title`. */
  readonly title: string | undefined;
  /** The problem's human `detail` sentence. */
  readonly detail: string | undefined;
  /** The call that failed, as `METHOD /path/{template}`. */
  readonly endpoint: string | undefined;
  /** The problem's `instance` id. */
  readonly instance: string | undefined;

  /** `message` is one readable sentence; `init` carries the problem's fields. */
  constructor(message: string, init: PlatformErrorInit = {}, options?: ErrorOptions) {
    super(message, options);
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.endpoint = init.endpoint;
    this.instance = init.instance;
  }
}

/** 400: the request itself was malformed (`invalid_cursor`, `invalid_filter`). */
export class InvalidRequestError extends PlatformError {
  /** Always "InvalidRequestError". */
  override name = "InvalidRequestError";
}

/** 401: the token is missing, revoked or unknown, or the credentials/signature were wrong. */
export class UnauthorizedError extends PlatformError {
  /** Always "UnauthorizedError". */
  override name = "UnauthorizedError";
}

/** 403: not allowed; `code` says why (`not_a_viewer`, `timeline_locked`, `not_timeline_owner`…). */
export class ForbiddenError extends PlatformError {
  /** Always "ForbiddenError". */
  override name = "ForbiddenError";
}

/** 404: unknown, deleted, or hidden from you. */
export class NotFoundError extends PlatformError {
  /** Always "NotFoundError". */
  override name = "NotFoundError";
}

/** 409: the record is not in a state that allows this (`task_not_pending`). */
export class ConflictError extends PlatformError {
  /** Always "ConflictError". */
  override name = "ConflictError";
}

/** 410: the target is switched off (`endpoint_disabled` on webhook ingest). */
export class GoneError extends PlatformError {
  /** Always "GoneError". */
  override name = "GoneError";
}

/** 413: the body was too large for the platform. */
export class PayloadTooLargeError extends PlatformError {
  /** Always "PayloadTooLargeError". */
  override name = "PayloadTooLargeError";
}

/** 422: validation failed; `fieldErrors` maps attribute → messages (may be empty). */
export class UnprocessableError extends PlatformError {
  /** Always "UnprocessableError". */
  override name = "UnprocessableError";
  /** Attribute → messages, e.g. `{ body: ["can't be blank"] }`. */
  readonly fieldErrors: Record<string, string[]>;

  /** `message` is one readable sentence; `init` carries the problem's fields. */
  constructor(
    message: string,
    init: PlatformErrorInit & { fieldErrors?: Record<string, string[]> },
    options?: ErrorOptions,
  ) {
    super(message, init, options);
    this.fieldErrors = init.fieldErrors ?? {};
  }
}

/** 429: slow down. `retryAfter` is the server's Retry-After in seconds, when it sent one. */
export class RateLimitedError extends PlatformError {
  /** Always "RateLimitedError". */
  override name = "RateLimitedError";
  /** Seconds to wait before trying again, from the Retry-After header. */
  readonly retryAfter: number | undefined;

  /** `message` is one readable sentence; `init` carries the problem's fields. */
  constructor(
    message: string,
    init: PlatformErrorInit & { retryAfter?: number },
    options?: ErrorOptions,
  ) {
    super(message, init, options);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the platform (or a proxy in front of it) failed on its side. Transient. */
export class ServerError extends PlatformError {
  /** Always "ServerError". */
  override name = "ServerError";
}

/** Why no answer arrived. */
export type TransportFailure = "refused" | "reset" | "dns" | "timeout" | "aborted" | "other";

/** The platform could not be reached or stopped answering; `failure` says how. Transient. */
export class TransportError extends PlatformError {
  /** Always "TransportError". */
  override name = "TransportError";
  /** How the connection failed. */
  readonly failure: TransportFailure;

  /** `message` is one readable sentence; `init` carries the problem's fields. */
  constructor(
    message: string,
    init: PlatformErrorInit & { failure: TransportFailure },
    options?: ErrorOptions,
  ) {
    super(message, init, options);
    this.failure = init.failure;
  }
}

/** A 2xx whose body we could not read: not JSON, or a required field missing or mistyped. */
export class MalformedResponseError extends PlatformError {
  /** Always "MalformedResponseError". */
  override name = "MalformedResponseError";
  /** The offending field, e.g. `timeline.owner.uuid`; undefined when the body was not JSON. */
  readonly field: string | undefined;

  /** `message` is one readable sentence; `init` carries the problem's fields. */
  constructor(
    message: string,
    init: PlatformErrorInit & { field?: string },
    options?: ErrorOptions,
  ) {
    super(message, init, options);
    this.field = init.field;
  }
}

/** The client was configured wrongly; raised before any request is sent. */
export class ConfigurationError extends PlatformError {
  /** Always "ConfigurationError". */
  override name = "ConfigurationError";
}

/**
 * A URL the harness's fetch path refused before any connection (docs/security.md#one-fetch-path):
 * a signed blob URL that is not http(s), carries credentials, or leaves the platform for an
 * address that is not public. A definite answer: nothing was sent, and asking again is no use.
 */
export class RefusedUrlError extends PlatformError {
  /** Always "RefusedUrlError". */
  override name = "RefusedUrlError";
}

/** What the transport knows about a non-2xx answer. */
export interface ProblemResponse {
  readonly status: number;
  /** The parsed body, or undefined when it was not JSON. */
  readonly body: unknown;
  /** The raw Retry-After header value. */
  readonly retryAfter: string | null;
  /** `METHOD /path/{template}`. */
  readonly endpoint: string;
}

function stringField(body: unknown, key: string): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** Only well-formed `errors` entries survive; a hostile body cannot smuggle non-strings in. */
function fieldErrorsOf(body: unknown): Record<string, string[]> {
  if (typeof body !== "object" || body === null) return {};
  const raw = (body as Record<string, unknown>).errors;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(raw)) {
    const list = Array.isArray(messages) ? messages : [messages];
    const strings = list.filter((m): m is string => typeof m === "string");
    if (strings.length > 0) out[field] = strings;
  }
  return out;
}

/** Retry-After is integer seconds on this platform; an HTTP-date is converted, junk ignored. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const when = Date.parse(trimmed);
  if (Number.isNaN(when)) return undefined;
  return Math.max(0, Math.ceil((when - now) / 1000));
}

function describeFieldErrors(fieldErrors: Record<string, string[]>): string {
  const parts = Object.entries(fieldErrors).map(([f, ms]) => `${f} ${ms.join(", ")}`);
  return parts.length > 0 ? ` (${oneLine(parts.join("; "))})` : "";
}

/**
 * Turns a non-2xx answer into the matching error class. Bodies that are not problem+json (a
 * proxy's HTML page, JSON without `code`) still map by status, carrying only the status.
 */
export function errorFromProblem(res: ProblemResponse): PlatformError {
  const code = stringField(res.body, "code");
  const title = stringField(res.body, "title");
  const detail = stringField(res.body, "detail");
  const instance = stringField(res.body, "instance");
  const init: PlatformErrorInit = {
    status: res.status,
    code,
    title,
    detail,
    instance,
    endpoint: res.endpoint,
  };
  const what = code ? `${res.status} ${code}` : `HTTP ${res.status}`;
  const said = detail ?? title;
  const base = `${res.endpoint} failed with ${what}${said ? `: ${oneLine(said)}` : ""}`;
  const sentence = (extra = "") => `${base.replace(/[.!?]$/, "")}${extra}.`;

  const s = res.status;
  if (s === 400) return new InvalidRequestError(sentence(), init);
  if (s === 401) return new UnauthorizedError(sentence(), init);
  if (s === 403) return new ForbiddenError(sentence(), init);
  if (s === 404) return new NotFoundError(sentence(), init);
  if (s === 409) return new ConflictError(sentence(), init);
  if (s === 410) return new GoneError(sentence(), init);
  if (s === 413) return new PayloadTooLargeError(sentence(), init);
  if (s === 422) {
    const fieldErrors = fieldErrorsOf(res.body);
    return new UnprocessableError(sentence(describeFieldErrors(fieldErrors)), {
      ...init,
      fieldErrors,
    });
  }
  if (s === 429) {
    const retryAfter = parseRetryAfter(res.retryAfter);
    const hint = retryAfter === undefined ? "" : ` (retry after ${retryAfter} s)`;
    return new RateLimitedError(sentence(hint), { ...init, retryAfter });
  }
  if (s >= 500) return new ServerError(sentence(), init);
  return new PlatformError(sentence(), init);
}

/**
 * A replay-protected create (it carried an `Idempotency-Key`) that got no definite answer: no
 * answer at all, a 5xx, an unreadable 2xx, or a 4xx without a problem body — even after the
 * client re-sent it under the same key. It may well have been committed. It is NOT a failure to
 * retry under a new key: re-sending it under the same key (which can never make a duplicate) is
 * the only safe next step, and the wake's recovery does that on the next wake.
 */
export class OutcomeUnknownError extends PlatformError {
  /** Always "OutcomeUnknownError". */
  override name = "OutcomeUnknownError";
  /** How many times the create was sent. */
  readonly attempts: number;
  /** The last ambiguous failure. */
  readonly last: PlatformError;

  /** Wraps the last of `attempts` ambiguous failures of one create. */
  constructor(last: PlatformError, attempts: number) {
    super(
      `${last.endpoint ?? "The create"} got no definite answer after ${attempts} ` +
        `attempt(s) under one Idempotency-Key (last: ${oneLine(last.message)}).`,
      { status: last.status, endpoint: last.endpoint },
      { cause: last },
    );
    this.attempts = attempts;
    this.last = last;
  }
}

/**
 * Whether a failure leaves a create's outcome unknown: the platform may have committed it. Only
 * a 4xx with a problem body (the platform's own `code`) is a definite refusal; a configuration
 * error never sent anything.
 */
export function outcomeUnknown(error: unknown): error is PlatformError {
  if (!(error instanceof PlatformError) || error instanceof ConfigurationError) return false;
  if (error instanceof OutcomeUnknownError) return true;
  if (error instanceof TransportError || error instanceof ServerError) return true;
  if (error instanceof MalformedResponseError) return true;
  const status = error.status;
  return status !== undefined && status >= 400 && status < 500 && error.code === undefined;
}
