/**
 * Every fault class through the real @openrouter/sdk against real HTTP failures, with SDK
 * retries off: exactly one attempt per call (its default retries 5xx for up to an hour).
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
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
} from "../../lib/core/types/faults.ts";
import { OpenRouterProvider } from "../../lib/providers/openrouter.ts";
import {
  chatCompletion,
  closedPort,
  type MockReply,
  ModelMock,
  openaiError,
  openrouterError,
} from "../support/model_mock.ts";
import { expectFault, type FaultClass } from "./fault_helpers.ts";

const CASES: readonly {
  name: string;
  reply: MockReply;
  expected: FaultClass;
  check?: (e: ProviderError) => void;
}[] = [
  {
    name: "500 (OpenRouter-shaped) ⇒ server",
    reply: { status: 500, json: openrouterError(500, "Internal Server Error") },
    expected: ProviderServerError,
  },
  {
    name: "500 (OpenAI-shaped, fails the SDK's error schema) ⇒ server, not response",
    reply: { status: 500, json: openaiError("upstream exploded", { type: "server_error" }) },
    expected: ProviderServerError,
  },
  {
    name: "502 HTML (OpenRouterDefaultError) ⇒ server",
    reply: { status: 502, text: "<html>Bad gateway</html>", contentType: "text/html" },
    expected: ProviderServerError,
    check: (e) => assert.equal((e as ProviderAPIError).body, "<html>Bad gateway</html>"),
  },
  {
    name: "OpenRouter-shaped 400 overflow ⇒ context length",
    reply: {
      status: 400,
      json: openrouterError(
        400,
        "This endpoint's maximum context length is 4096 tokens. However, you requested about 9000 tokens",
        { provider_name: "X" },
      ),
    },
    expected: ProviderContextLengthError,
    check: (e) =>
      assert.deepEqual(
        (e as ProviderAPIError).body,
        openrouterError(
          400,
          "This endpoint's maximum context length is 4096 tokens. However, you requested about 9000 tokens",
          { provider_name: "X" },
        ),
      ),
  },
  {
    name: "OpenAI-shaped 400 context_length_exceeded ⇒ context length",
    reply: {
      status: 400,
      json: openaiError("too many tokens", { code: "context_length_exceeded" }),
    },
    expected: ProviderContextLengthError,
  },
  {
    name: "400 other ⇒ request error",
    reply: { status: 400, json: openrouterError(400, "tools[0].function.name is invalid") },
    expected: ProviderRequestError,
  },
  {
    name: "402 ⇒ billing",
    reply: { status: 402, json: openrouterError(402, "This request requires more credits") },
    expected: ProviderBillingError,
  },
  {
    name: "429 insufficient_quota ⇒ billing",
    reply: {
      status: 429,
      json: openaiError("quota", { type: "insufficient_quota", code: "insufficient_quota" }),
    },
    expected: ProviderBillingError,
  },
  {
    name: "401 ⇒ auth",
    reply: { status: 401, json: openrouterError(401, "No auth credentials found") },
    expected: ProviderAuthError,
  },
  {
    name: "403 ⇒ auth",
    reply: { status: 403, json: openrouterError(403, "Key disabled") },
    expected: ProviderAuthError,
  },
  {
    name: "413 ⇒ payload too large",
    reply: { status: 413, json: openrouterError(413, "Request body too large") },
    expected: ProviderPayloadTooLargeError,
  },
  {
    name: "429 with retry-after ⇒ rate limit",
    reply: {
      status: 429,
      headers: { "retry-after": "3" },
      json: openrouterError(429, "Rate limit exceeded"),
    },
    expected: ProviderRateLimitError,
    check: (e) => assert.equal((e as ProviderRateLimitError).retryAfter, 3),
  },
  {
    name: "truncated JSON 200 ⇒ response",
    reply: { status: 200, text: '{"id":"gen-1","choices":[{"message":{"content":"cut' },
    expected: ProviderResponseError,
  },
  {
    name: "200 failing the SDK's strict schema (no system_fingerprint) ⇒ response",
    reply: {
      status: 200,
      json: (({ system_fingerprint: _, ...rest }) => rest)(chatCompletion({ content: "x" })),
    },
    expected: ProviderResponseError,
  },
];

for (const c of CASES) {
  Deno.test(`openrouter SDK: ${c.name}, one attempt`, async () => {
    await using mock = await ModelMock.start();
    mock.always("chat", c.reply);
    const p = new OpenRouterProvider({ model: "a/b", apiKey: "sk", baseURL: mock.baseURL });
    const error = await expectFault(p.chat([Message.user("hi")]), c.expected);
    if (error instanceof ProviderAPIError) assert.equal(error.status, c.reply.status);
    c.check?.(error);
    assert.equal(mock.hits(), 1, "exactly one HTTP attempt");
  });
}

Deno.test("openrouter SDK: connection refused ⇒ connection, no retry loop", async () => {
  const p = new OpenRouterProvider({
    model: "a/b",
    apiKey: "sk",
    baseURL: `http://127.0.0.1:${closedPort()}/v1`,
  });
  const started = performance.now();
  const error = await expectFault(p.chat([Message.user("hi")]), ProviderConnectionError);
  // The SDK's own retries would go on for up to an hour; a bound far above a refused connection's
  // cost on a loaded machine still tells the two apart.
  assert.ok(performance.now() - started < 30_000, "no retry loop");
  assert.match(
    error.message,
    /^Connection error: could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: ECONNREFUSED \(.*[Cc]onnection refused.*\)$/,
  );
});

Deno.test("openrouter SDK: an unresolvable host ⇒ connection, naming the URL and the DNS failure", async () => {
  const p = new OpenRouterProvider({
    model: "a/b",
    apiKey: "sk-secret-key",
    baseURL: "http://agent:hunter2@nonexistent.invalid/api/v1?key=sk-in-the-url",
  });
  const error = await expectFault(p.chat([Message.user("hi")]), ProviderConnectionError);
  assert.match(
    error.message,
    /^Connection error: could not reach http:\/\/nonexistent\.invalid\/api\/v1\/chat\/completions: (ENOTFOUND|EAI_AGAIN) \(dns error: /,
  );
  assert.doesNotMatch(error.message, /hunter2|agent@|sk-in-the-url|sk-secret-key|TypeError/);
});

Deno.test("openrouter SDK: timeout ⇒ connection, one attempt", async () => {
  await using mock = await ModelMock.start();
  // The reply would take a minute (closing the mock ends the wait); the deadline is a second, long
  // enough for a loaded machine to deliver the request, so the mock sees exactly one attempt.
  mock.always("chat", { delayMs: 60_000, json: chatCompletion() });
  const p = new OpenRouterProvider({
    model: "a/b",
    apiKey: "sk",
    baseURL: mock.baseURL,
    timeoutMs: 1_000,
  });
  const started = performance.now();
  const error = await expectFault(p.chat([Message.user("hi")]), ProviderConnectionError);
  assert.ok(performance.now() - started < 30_000, "gave up at the timeout, not at the reply");
  assert.equal(mock.hits(), 1);
  assert.match(
    error.message,
    /^Request timed out: could not reach http:\/\/127\.0\.0\.1:\d+\/v1: ETIMEDOUT/,
  );
});
