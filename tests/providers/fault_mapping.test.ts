/**
 * The phrase tables and the status/phrase classifier of docs/models.md#retries-and-fault-classes,
 * and the connection line read from a cause chain, without any SDK (the SDK suites run the real
 * ones against closed ports and unresolvable hosts).
 */
import assert from "node:assert/strict";
import {
  ProviderAuthError,
  ProviderBillingError,
  ProviderContextLengthError,
  ProviderPayloadTooLargeError,
  ProviderRateLimitError,
  ProviderRequestError,
  ProviderServerError,
} from "../../lib/core/types/faults.ts";
import {
  classifyHttpFault,
  connectionFailureMessage,
  matchesAny,
  OUT_OF_FUNDS_PHRASES,
  OVERFLOW_PHRASES,
  parseRetryAfter,
  redactUrl,
  TOO_LARGE_PHRASES,
} from "../../lib/providers/fault_mapping.ts";

Deno.test("overflow phrases match vendor wordings and not ordinary errors", () => {
  for (
    const text of [
      "This model's maximum context length is 8192 tokens",
      "context_length_exceeded",
      "Context window exceeded",
      "too many input tokens",
      "Prompt is too long",
      "messages are too long",
      "input exceeds the model's maximum context",
      "Please reduce the length of the messages.",
    ]
  ) assert.ok(matchesAny(text, OVERFLOW_PHRASES), text);
  for (const text of ["Invalid API key", "rate limit reached", "Request too large"]) {
    assert.ok(!matchesAny(text, OVERFLOW_PHRASES), text);
  }
});

Deno.test("out-of-funds and too-large phrases", () => {
  for (
    const text of [
      "insufficient_quota",
      "Insufficient credits",
      "You are out of credits",
      "no remaining balance",
      "Please top up credit",
      "Your credit balance is too low",
      "Payment Required",
      "billing hard limit reached",
      "You exceeded your current quota",
    ]
  ) assert.ok(matchesAny(text, OUT_OF_FUNDS_PHRASES), text);
  assert.ok(!matchesAny("Rate limit reached for requests", OUT_OF_FUNDS_PHRASES));
  for (
    const text of [
      "Request Entity Too Large",
      "image too large",
      "exceeds the maximum allowed upload size",
      "payload size exceeds the limit",
      "sent message larger than max (5 vs 4)",
    ]
  ) assert.ok(matchesAny(text, TOO_LARGE_PHRASES), text);
});

Deno.test("retry-after: ms header first, then seconds, then an HTTP date", () => {
  assert.equal(parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "9" })), 0.25);
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "12" })), 12);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(
    parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), () => now),
    30,
  );
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "soon" })), undefined);
  assert.equal(parseRetryAfter(new Headers()), undefined);
  assert.equal(parseRetryAfter(undefined), undefined);
});

Deno.test("classification order: overflow beats billing beats too-large beats status", () => {
  const c = (status: number, message: string, body: unknown = {}) =>
    classifyHttpFault({ status, message, body });
  assert.ok(c(400, "maximum context length exceeded") instanceof ProviderContextLengthError);
  // overflow only counts on 400/413: a 500 saying "context" is still a server fault
  assert.ok(c(500, "context window busy") instanceof ProviderServerError);
  assert.ok(c(400, "x", { error: { code: "insufficient_quota" } }) instanceof ProviderBillingError);
  assert.ok(c(402, "pay") instanceof ProviderBillingError);
  assert.ok(c(429, "slow down") instanceof ProviderRateLimitError);
  assert.ok(c(413, "nope") instanceof ProviderPayloadTooLargeError);
  assert.ok(c(400, "image too large") instanceof ProviderPayloadTooLargeError);
  assert.ok(c(401, "who") instanceof ProviderAuthError);
  assert.ok(c(422, "bad") instanceof ProviderRequestError);
  assert.ok(!(c(422, "bad") instanceof ProviderPayloadTooLargeError));
});

Deno.test("the connection line reads a Node-style errno code and the endpoint from the chain", () => {
  // What an SDK on Node's fetch throws: the code rides a cause, the URL is the adapter's.
  const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.9:443"), {
    code: "ECONNREFUSED",
  });
  const error = new Error("Connection error.", {
    cause: new TypeError("fetch failed", { cause: refused }),
  });
  assert.equal(
    connectionFailureMessage(error, { endpoint: "https://proxy.example/v1?token=abc" }),
    "Connection error: could not reach https://proxy.example/v1: ECONNREFUSED " +
      "(connect ECONNREFUSED 10.0.0.9:443)",
  );
});

Deno.test("the connection line survives a cause cycle, no URL and no known reason", () => {
  const a = new Error("Connection error.");
  const b = new Error("socket hang up", { cause: a });
  Object.defineProperty(a, "cause", { value: b });
  assert.equal(
    connectionFailureMessage(a),
    "Connection error: could not reach the model endpoint: socket hang up",
  );
  assert.equal(
    connectionFailureMessage(new Error("Connection error."), { endpoint: "http://h/v1" }),
    "Connection error: could not reach http://h/v1",
  );
});

Deno.test("a URL in the transport's words is redacted too; redactUrl keeps origin and path", () => {
  const inner = new Error(
    "error sending request for url (https://u:p@api.example/v1/chat/completions?key=k): client " +
      "error (Connect): invalid peer certificate: UnknownIssuer (seen at https://u:p@api.example/x?k=1)",
  );
  assert.equal(
    connectionFailureMessage(new Error("Connection error.", { cause: inner })),
    "Connection error: could not reach https://api.example/v1/chat/completions: TLS error " +
      "(invalid peer certificate: UnknownIssuer (seen at https://api.example/x))",
  );
  assert.equal(redactUrl("http://a:b@h:8080/p/q?x=1#f"), "http://h:8080/p/q");
  assert.equal(redactUrl("not a url"), undefined);
});
