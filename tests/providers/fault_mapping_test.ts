/**
 * The phrase tables and the status/phrase classifier of docs/models.md#retries-and-fault-classes,
 * without any SDK.
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
  matchesAny,
  OUT_OF_FUNDS_PHRASES,
  OVERFLOW_PHRASES,
  parseRetryAfter,
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
