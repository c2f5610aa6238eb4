/**
 * Maps every SDK failure onto the engine's fault classes (`core/types/faults.ts`,
 * docs/models.md#retries-and-fault-classes).
 *
 * The mapping is by HTTP status first and by phrase second, because vendors disagree on codes
 * but agree on wording: an OpenAI 400 `context_length_exceeded` and an OpenRouter 400 whose
 * message says "maximum context length" are the same fault to the engine. SDK classes are
 * recognised with `instanceof` against the lazily loaded SDK module the adapter passes in, so
 * this file never loads an SDK itself.
 */
import { refusalIn } from "../net/refusal.ts";
import { errorMessage } from "../base/error_text.ts";
import { isRecord } from "../base/json_object.ts";
import type OpenAI from "openai";
import type * as OpenRouterErrors from "@openrouter/sdk/models/errors";
import type AnthropicSdk from "@anthropic-ai/sdk";
import {
  ProviderAPIError,
  ProviderAuthError,
  ProviderBillingError,
  ProviderConnectionError,
  ProviderContextLengthError,
  ProviderError,
  ProviderPayloadTooLargeError,
  ProviderRateLimitError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderServerError,
} from "../core/types/faults.ts";

/** The request exceeded the model's context window (case-insensitive). */
export const OVERFLOW_PHRASES: readonly RegExp[] = [
  /context[ _-]?(length|window|limit)/i,
  /maximum context/i,
  /too many (input |prompt )?tokens/i,
  /(prompt|input|messages?) (is |are )?too long/i,
  /exceeds? the (model'?s? )?(maximum |max )?context/i,
  /reduce the length of the (messages|prompt|input)/i,
];

/** The account is out of money (case-insensitive). */
export const OUT_OF_FUNDS_PHRASES: readonly RegExp[] = [
  /insufficient[ _-]?(quota|funds|credit|balance)/i,
  /out of (credit|credits|funds|quota)/i,
  /no (remaining )?(credit|credits|funds|balance)/i,
  /(add|top[ -]?up|purchase|buy) (more )?credit/i,
  /(credit|prepaid) balance/i,
  /payment required/i,
  /billing (details|hard limit|issue)/i,
  /check your plan and billing/i,
  /exceeded your current quota/i,
];

/** The request body itself was too big (case-insensitive). */
export const TOO_LARGE_PHRASES: readonly RegExp[] = [
  /sent message larger than max/i,
  /message larger than max/i,
  /(request|payload|body|message|file|image) (entity )?too large/i,
  /exceeds the maximum (allowed )?(request |payload |upload )?size/i,
  /payload size exceeds/i,
];

/** True when `text` matches any of `phrases`. */
export function matchesAny(text: string, phrases: readonly RegExp[]): boolean {
  return phrases.some((phrase) => phrase.test(text));
}

/**
 * Seconds to wait from a response's headers: `retry-after-ms` (milliseconds), then
 * `retry-after` as seconds or an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: Headers | undefined,
  now: () => number = Date.now,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value / 1000;
  }
  const raw = headers.get("retry-after");
  if (raw === null || raw.trim() === "") return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now()) / 1000);
}

/** What one HTTP failure looked like, SDK-independent. */
export interface HttpFault {
  readonly status: number;
  /** The parsed error body (JSON) or the raw text when it was not JSON. */
  readonly body: unknown;
  readonly message: string;
  readonly headers?: Headers;
  readonly cause?: unknown;
}

/** `error.type`/`error.code` of a body, to spot `insufficient_quota` whatever the status. */
function errorCodes(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const inner = isRecord(body.error) ? body.error : body;
  return [inner.type, inner.code].filter((v): v is string => typeof v === "string");
}

function bodyText(body: unknown): string {
  if (typeof body === "string") return body;
  try {
    return JSON.stringify(body) ?? "";
  } catch {
    return "";
  }
}

/**
 * The fault class for an HTTP error, per docs/models.md#retries-and-fault-classes: context overflow
 * (400/413 + phrase), billing (`insufficient_quota` anywhere, 402, or 429 + out-of-funds phrase),
 * payload too large (413, or a 4xx saying so), auth (401/403), rate limit (429), server (≥500),
 * else a request error.
 */
export function classifyHttpFault(fault: HttpFault): ProviderAPIError {
  const { status, body, message, headers } = fault;
  const options = fault.cause === undefined ? undefined : { cause: fault.cause };
  const text = `${message}\n${bodyText(body)}`;
  if ((status === 400 || status === 413) && matchesAny(text, OVERFLOW_PHRASES)) {
    return new ProviderContextLengthError(message, status, body, options);
  }
  if (
    errorCodes(body).includes("insufficient_quota") || status === 402 ||
    (status === 429 && matchesAny(text, OUT_OF_FUNDS_PHRASES))
  ) {
    return new ProviderBillingError(message, status, body, options);
  }
  if (status === 413 || (status >= 400 && status < 500 && matchesAny(text, TOO_LARGE_PHRASES))) {
    return new ProviderPayloadTooLargeError(message, status, body, options);
  }
  if (status === 401 || status === 403) {
    return new ProviderAuthError(message, status, body, options);
  }
  if (status === 429) {
    return new ProviderRateLimitError(message, status, body, parseRetryAfter(headers), options);
  }
  if (status >= 500) return new ProviderServerError(message, status, body, options);
  return new ProviderRequestError(message, status, body, options);
}

/** Where a failed call was going, for the connection line (never a credential). */
export interface CallContext {
  /** The endpoint's base URL the adapter was configured with (`AI_BASE_URL` or the vendor's). */
  readonly endpoint?: string;
}

/** How deep a cause chain is followed: an SDK wraps twice, a cycle must not hang the wake. */
const MAX_CAUSES = 8;

/** The errors of `error`'s `cause` chain, outermost first. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let link = error; link !== undefined && link !== null; link = (link as Error).cause) {
    if (chain.includes(link) || chain.length >= MAX_CAUSES) break;
    chain.push(link);
    if (typeof link !== "object") break;
  }
  return chain;
}

/**
 * Errno-style names for what a runtime's transport says in words. Deno's fetch gives no `code`,
 * only a sentence (`tcp connect error: Connection refused (os error 111)`), so the name an
 * operator searches for is read from it; the first match wins.
 */
const ERRNO_PHRASES: readonly [RegExp, string][] = [
  [/connection refused|os error 111\b/i, "ECONNREFUSED"],
  [/temporary failure in name resolution|os error -3\b|eai_again/i, "EAI_AGAIN"],
  [
    /dns error|failed to lookup address|name or service not known|nodename nor servname|no address associated|getaddrinfo/i,
    "ENOTFOUND",
  ],
  [/connection reset|os error 104\b/i, "ECONNRESET"],
  [/network is unreachable|os error 101\b/i, "ENETUNREACH"],
  [/no route to host|os error 113\b/i, "EHOSTUNREACH"],
  [/certificate|\btls\b|\bssl\b|handshake|corrupt message|alert/i, "TLS error"],
  [/timed out|timeout|os error 110\b/i, "ETIMEDOUT"],
];

/** An `E…` code a Node-style error carries (`ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`). */
const ERRNO_CODE = /^[A-Z][A-Z0-9_]{2,}$/;

// Deno's fetch: `error sending request for url (<url>): <why>`.
const REQUEST_URL = /error sending request for url \(([^)\s]+)\)(?::\s*)?/i;
const ANY_URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)"'<>]+/gi;

/**
 * `url` without what may be a secret: user and password, the query (a `?key=`) and the
 * fragment dropped. `undefined` for something that is not a URL.
 */
export function redactUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * The one line for a model endpoint that could not be reached, from the SDK error's `cause`
 * chain: the URL asked (the request's, else `context.endpoint`; never a user, password or query)
 * and why, as an errno name where one is known (`ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, a TLS
 * error) with the transport's own words — so the journal and the wake's stderr line say what
 * failed where, not only the SDK's "Connection error.".
 */
export function connectionFailureMessage(error: unknown, context: CallContext = {}): string {
  const chain = causeChain(error);
  const messages = chain.map((link) => errorMessage(link));
  let url: string | undefined;
  for (const text of messages) {
    const found = REQUEST_URL.exec(text)?.[1];
    if (found) {
      url = redactUrl(found);
      break;
    }
  }
  url ??= context.endpoint === undefined ? undefined : redactUrl(context.endpoint);
  const code = chain
    .map((link) => isRecord(link) ? link.code : undefined)
    .find((value): value is string => typeof value === "string" && ERRNO_CODE.test(value));
  const all = messages.join("\n");
  const errno = code ?? ERRNO_PHRASES.find(([phrase]) => phrase.test(all))?.[1];
  // The innermost words are the transport's own (an error with no cause has only the SDK's);
  // the URL is said once, redacted.
  const inner = messages.length > 1 ? messages.at(-1) ?? "" : "";
  const detail = inner
    .replace(REQUEST_URL, "")
    .replace(/^client error \(connect\):\s*/i, "")
    .replace(ANY_URL, (found) => redactUrl(found) ?? "<url>")
    .replace(/\s+/g, " ")
    .trim();
  // One lead for every SDK (the openrouter SDK's own is "Unable to make request: TypeError…").
  const lead = errno === "ETIMEDOUT" ? "Request timed out" : "Connection error";
  const where = url ? `could not reach ${url}` : "could not reach the model endpoint";
  const why = errno && detail && detail !== errno ? `${errno} (${detail})` : errno ?? detail;
  return `${lead}: ${where}${why ? `: ${why}` : ""}`;
}

/**
 * A request the fetch path refused (docs/security.md#one-fetch-path: the host rules, or a URL
 * that is not http(s)), wherever the SDK wrapped it: a plain ProviderError, permanent, never a connection fault to retry, since nothing was sent.
 */
function hostRefusal(error: unknown): ProviderError | undefined {
  const refusal = refusalIn(error);
  return refusal ? new ProviderError(errorMessage(refusal), { cause: refusal }) : undefined;
}

/** The error classes of the openai SDK this mapping needs (pass the loaded module). */
export type OpenAIErrorClasses = Pick<typeof OpenAI, "APIError" | "APIConnectionError">;

/**
 * Maps a failure thrown by the openai SDK. `APIConnectionError` (timeouts included) ⇒
 * connection, its message naming the URL and the cause ({@link connectionFailureMessage}); an
 * `APIError` with a status ⇒ by status and phrase; one without ⇒ response;
 * a plain `SyntaxError` (a truncated JSON body or SSE event) ⇒ response. Already-mapped faults
 * pass through; anything else becomes a plain ProviderError so it still propagates typed.
 */
export function mapOpenAIError(
  error: unknown,
  sdk: OpenAIErrorClasses,
  context: CallContext = {},
): ProviderError {
  if (error instanceof ProviderError) return error;
  const refusal = hostRefusal(error);
  if (refusal) return refusal;
  if (error instanceof sdk.APIConnectionError) {
    return new ProviderConnectionError(connectionFailureMessage(error, context), { cause: error });
  }
  if (error instanceof sdk.APIError) {
    if (typeof error.status !== "number") {
      return new ProviderResponseError(error.message, { cause: error });
    }
    // The SDK keeps `body.error` (or the whole body when it had no `error` key); rebuild the
    // body shape the reports quote from. A non-JSON body only survives in the message.
    const body = error.error !== undefined
      ? { error: error.error }
      : error.message.replace(new RegExp(`^${error.status} `), "");
    return classifyHttpFault({
      status: error.status,
      body,
      message: error.message,
      headers: error.headers,
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ProviderResponseError(`unparseable response: ${error.message}`, { cause: error });
  }
  return unknownFault(error);
}

/** The error classes of the openrouter SDK this mapping needs (pass the loaded module). */
export type OpenRouterErrorClasses = Pick<
  typeof OpenRouterErrors,
  | "OpenRouterError"
  | "ResponseValidationError"
  | "HTTPClientError"
  | "SDKValidationError"
  | "InvalidRequestError"
>;

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Maps a failure thrown by the openrouter SDK. Any `OpenRouterError` with an error status
 * (including a `ResponseValidationError` for an error body the SDK's schema rejected, such as
 * an OpenAI-shaped 429) ⇒ by status and phrase, so a 402 is billing and a 5xx HTML page is
 * server; a `ResponseValidationError` on a 2xx ⇒ response (transient); the `HTTPClientError`
 * family (ConnectionError, RequestAbortedError, RequestTimeoutError) ⇒ connection; request-side
 * validation ⇒ a plain ProviderError naming model_params.json; a plain `SyntaxError` ⇒ response.
 */
export function mapOpenRouterError(
  error: unknown,
  sdk: OpenRouterErrorClasses,
  context: CallContext = {},
): ProviderError {
  if (error instanceof ProviderError) return error;
  const refusal = hostRefusal(error);
  if (refusal) return refusal;
  if (error instanceof sdk.OpenRouterError) {
    if (error.statusCode >= 400) {
      return classifyHttpFault({
        status: error.statusCode,
        body: parseJsonOrText(error.body),
        message: error.message,
        headers: error.headers,
        cause: error,
      });
    }
    return new ProviderResponseError(error.message, { cause: error });
  }
  if (error instanceof sdk.SDKValidationError || error instanceof sdk.InvalidRequestError) {
    return new ProviderError(
      `The openrouter SDK's chat.send rejected the request (check model_params.json): ${error.message}`,
      { cause: error },
    );
  }
  if (error instanceof sdk.HTTPClientError) {
    return new ProviderConnectionError(connectionFailureMessage(error, context), { cause: error });
  }
  if (error instanceof SyntaxError) {
    return new ProviderResponseError(`unparseable response: ${error.message}`, { cause: error });
  }
  return unknownFault(error);
}

/** The error classes of the anthropic SDK this mapping needs (pass the loaded module). */
export type AnthropicErrorClasses = Pick<typeof AnthropicSdk, "APIError" | "APIConnectionError">;

/**
 * Maps a failure thrown by the anthropic SDK. As for the openai SDK, with two Anthropic rules
 * before the common table: an error of type `billing_error`, or a 400 saying the credit balance
 * is too low (how Anthropic says it is out of funds), is billing; a 529 `overloaded_error` is a
 * 5xx and so a transient server fault. The SDK keeps the whole error body
 * (`{type: "error", error: {type, message}}`).
 */
export function mapAnthropicError(
  error: unknown,
  sdk: AnthropicErrorClasses,
  context: CallContext = {},
): ProviderError {
  if (error instanceof ProviderError) return error;
  const refusal = hostRefusal(error);
  if (refusal) return refusal;
  if (error instanceof sdk.APIConnectionError) {
    return new ProviderConnectionError(connectionFailureMessage(error, context), { cause: error });
  }
  if (error instanceof sdk.APIError) {
    if (typeof error.status !== "number") {
      return new ProviderResponseError(error.message, { cause: error });
    }
    const body = error.error ?? error.message.replace(new RegExp(`^${error.status} `), "");
    const type = isRecord(body) && isRecord(body.error) ? body.error.type : undefined;
    const text = `${error.message}\n${bodyText(body)}`;
    if (
      type === "billing_error" ||
      (error.status === 400 && matchesAny(text, OUT_OF_FUNDS_PHRASES))
    ) {
      return new ProviderBillingError(error.message, error.status, body, { cause: error });
    }
    return classifyHttpFault({
      status: error.status,
      body,
      message: error.message,
      headers: error.headers ?? undefined,
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ProviderResponseError(`unparseable response: ${error.message}`, { cause: error });
  }
  return unknownFault(error);
}

function unknownFault(error: unknown): ProviderError {
  const message = errorMessage(error);
  return new ProviderError(message, { cause: error });
}
