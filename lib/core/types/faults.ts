/**
 * The engine's provider fault classes. Every adapter maps its SDK's failures onto these, so
 * the engine decides retries and reports by class, never by vendor.
 *
 * ProviderError
 * ├── ProviderResponseError        transient: unparseable or truncated response
 * ├── ProviderConnectionError      could not reach the endpoint (timeouts included)
 * └── ProviderAPIError(status, body)
 *     ├── ProviderServerError      transient: 5xx
 *     ├── ProviderAuthError        401/403
 *     ├── ProviderContextLengthError
 *     ├── ProviderRequestError     other 4xx
 *     │   └── ProviderPayloadTooLargeError
 *     ├── ProviderBillingError     out of funds
 *     └── ProviderRateLimitError(retryAfter)
 */

/** Any failure talking to a model provider. */
export class ProviderError extends Error {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderError";
  /** A fault with a human-readable `message`; `options.cause` keeps the SDK's own error. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** The provider answered, but the answer could not be parsed (truncated JSON, bad SSE). */
export class ProviderResponseError extends ProviderError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderResponseError";
}

/** The provider could not be reached (refused, reset, DNS, timeout). */
export class ProviderConnectionError extends ProviderError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderConnectionError";
}

/** The provider answered with an HTTP error. `body` is the parsed error body when there was one. */
export class ProviderAPIError extends ProviderError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderAPIError";
  /**
   * An HTTP error from the provider.
   *
   * @param message What went wrong, in words.
   * @param status The HTTP status, when the SDK reported one.
   * @param body The parsed error body, when there was one.
   * @param options `cause` keeps the SDK's own error.
   */
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly body?: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A 5xx: the provider failed on its own side. */
export class ProviderServerError extends ProviderAPIError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderServerError";
}

/** The key was rejected (401/403). */
export class ProviderAuthError extends ProviderAPIError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderAuthError";
}

/** The request exceeded the model's context window. */
export class ProviderContextLengthError extends ProviderAPIError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderContextLengthError";
}

/** The request was rejected as malformed (other 4xx). */
export class ProviderRequestError extends ProviderAPIError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderRequestError";
}

/** The request body was too large (413 that is not a context overflow). */
export class ProviderPayloadTooLargeError extends ProviderRequestError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderPayloadTooLargeError";
}

/** The account is out of funds. */
export class ProviderBillingError extends ProviderAPIError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderBillingError";
}

/** Rate limited; `retryAfter` in seconds when the provider said. */
export class ProviderRateLimitError extends ProviderAPIError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderRateLimitError";
  /**
   * A rate-limit answer from the provider.
   *
   * @param message What went wrong, in words.
   * @param status The HTTP status (usually 429), when the SDK reported one.
   * @param body The parsed error body, when there was one.
   * @param retryAfter Seconds to wait before retrying, when the provider said.
   * @param options `cause` keeps the SDK's own error.
   */
  constructor(
    message: string,
    status: number | undefined,
    body: unknown,
    readonly retryAfter: number | undefined,
    options?: ErrorOptions,
  ) {
    super(message, status, body, options);
  }
}

/** The two transient classes the engine retries; nothing else is retried. */
export function isTransient(error: unknown): error is ProviderResponseError | ProviderServerError {
  return error instanceof ProviderResponseError || error instanceof ProviderServerError;
}
