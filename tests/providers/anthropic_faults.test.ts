/**
 * Every fault class through the real anthropic SDK against real HTTP failures from the wire
 * mock, in Anthropic's error shape — and exactly one HTTP attempt per call (SDK retries are off).
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import {
  type ProviderAPIError,
  ProviderAuthError,
  ProviderBillingError,
  ProviderConnectionError,
  ProviderContextLengthError,
  type ProviderError,
  ProviderPayloadTooLargeError,
  ProviderRateLimitError,
  ProviderRequestError,
  ProviderServerError,
} from "../../lib/core/types/faults.ts";
import { AnthropicProvider } from "../../lib/providers/anthropic.ts";
import { anthropicError, closedPort, type MockReply, ModelMock } from "../support/model_mock.ts";
import { expectFault, type FaultClass } from "./fault_helpers.ts";

interface Case {
  readonly name: string;
  readonly reply: MockReply;
  readonly expected: FaultClass;
  readonly status: number;
  readonly check?: (error: ProviderError) => void;
}

const CASES: readonly Case[] = [
  {
    name: "429 rate_limit_error ⇒ rate limit, with retry-after",
    reply: {
      status: 429,
      headers: { "retry-after": "7" },
      json: anthropicError(
        "rate_limit_error",
        "Number of request tokens has exceeded your rate limit.",
      ),
    },
    expected: ProviderRateLimitError,
    status: 429,
    check: (e) => assert.equal((e as ProviderRateLimitError).retryAfter, 7),
  },
  {
    name: "529 overloaded_error ⇒ server (transient)",
    reply: { status: 529, json: anthropicError("overloaded_error", "Overloaded") },
    expected: ProviderServerError,
    status: 529,
  },
  {
    name: "500 api_error ⇒ server, the body kept",
    reply: { status: 500, json: anthropicError("api_error", "Internal server error") },
    expected: ProviderServerError,
    status: 500,
    check: (e) =>
      assert.deepEqual(
        (e as ProviderAPIError).body,
        anthropicError("api_error", "Internal server error"),
      ),
  },
  {
    name: "502 HTML ⇒ server",
    reply: { status: 502, text: "<html>Bad gateway</html>", contentType: "text/html" },
    expected: ProviderServerError,
    status: 502,
  },
  {
    name: "billing_error ⇒ billing",
    reply: { status: 402, json: anthropicError("billing_error", "Payment method declined.") },
    expected: ProviderBillingError,
    status: 402,
  },
  {
    name: "400 credit balance too low ⇒ billing",
    reply: {
      status: 400,
      json: anthropicError(
        "invalid_request_error",
        "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
      ),
    },
    expected: ProviderBillingError,
    status: 400,
  },
  {
    name: "400 prompt is too long ⇒ context length",
    reply: {
      status: 400,
      json: anthropicError(
        "invalid_request_error",
        "prompt is too long: 215000 tokens > 200000 maximum",
      ),
    },
    expected: ProviderContextLengthError,
    status: 400,
  },
  {
    name: "413 request_too_large ⇒ payload too large",
    reply: {
      status: 413,
      json: anthropicError(
        "request_too_large",
        "Request exceeds the maximum allowed number of bytes.",
      ),
    },
    expected: ProviderPayloadTooLargeError,
    status: 413,
  },
  {
    name: "401 authentication_error ⇒ auth",
    reply: { status: 401, json: anthropicError("authentication_error", "invalid x-api-key") },
    expected: ProviderAuthError,
    status: 401,
  },
  {
    name: "400 any other invalid request ⇒ request",
    reply: {
      status: 400,
      json: anthropicError("invalid_request_error", "tools.0.name: String should match pattern"),
    },
    expected: ProviderRequestError,
    status: 400,
  },
];

for (const c of CASES) {
  Deno.test(`anthropic SDK: ${c.name}, one attempt`, async () => {
    await using mock = await ModelMock.start();
    mock.always("messages", c.reply);
    const p = new AnthropicProvider({ model: "m", apiKey: "sk-ant", baseURL: mock.origin });
    const error = await expectFault(p.chat([Message.user("hi")]), c.expected);
    assert.equal((error as ProviderAPIError).status, c.status);
    c.check?.(error);
    assert.equal(mock.hits(), 1, "exactly one HTTP attempt");
  });
}

Deno.test("anthropic SDK: connection refused ⇒ connection, naming the URL and ECONNREFUSED", async () => {
  const port = closedPort();
  const p = new AnthropicProvider({
    model: "m",
    apiKey: "sk-ant-secret",
    baseURL: `http://127.0.0.1:${port}`,
  });
  const error = await expectFault(p.chat([Message.user("hi")]), ProviderConnectionError);
  assert.match(error.message, new RegExp(`could not reach http://127\\.0\\.0\\.1:${port}`));
  assert.match(error.message, /ECONNREFUSED/);
  assert.doesNotMatch(error.message, /sk-ant-secret/);
});
