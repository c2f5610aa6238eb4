/**
 * Every fault class through the real openai SDK, on both surfaces, against real HTTP
 * failures from the mock — and exactly one HTTP attempt per call (SDK retries are off).
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
import { OpenAIProvider, type OpenAISurface } from "../../lib/providers/openai.ts";
import {
  closedPort,
  type MockReply,
  ModelMock,
  openaiError,
  openrouterError,
} from "../support/model_mock.ts";
import { expectFault, type FaultClass } from "./fault_helpers.ts";

interface Case {
  readonly name: string;
  readonly reply: MockReply;
  readonly expected: FaultClass;
  readonly status?: number;
  readonly check?: (error: ProviderError) => void;
}

const CASES: readonly Case[] = [
  {
    name: "500 JSON ⇒ server",
    reply: { status: 500, json: openaiError("upstream exploded", { type: "server_error" }) },
    expected: ProviderServerError,
    status: 500,
    check: (e) =>
      assert.deepEqual(
        (e as ProviderAPIError).body,
        openaiError("upstream exploded", { type: "server_error" }),
      ),
  },
  {
    name: "502 HTML ⇒ server, raw page kept as body",
    reply: { status: 502, text: "<html>Bad gateway</html>", contentType: "text/html" },
    expected: ProviderServerError,
    status: 502,
    check: (e) => assert.equal((e as ProviderAPIError).body, "<html>Bad gateway</html>"),
  },
  {
    name: "400 context_length_exceeded ⇒ context length",
    reply: {
      status: 400,
      json: openaiError("This model's maximum context length is 8192 tokens.", {
        code: "context_length_exceeded",
        param: "messages",
      }),
    },
    expected: ProviderContextLengthError,
    status: 400,
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
    status: 400,
  },
  {
    name: "413 with overflow wording ⇒ context length",
    reply: { status: 413, json: openaiError("Prompt is too long for this model") },
    expected: ProviderContextLengthError,
    status: 413,
  },
  {
    name: "413 ⇒ payload too large",
    reply: { status: 413, json: openaiError("Request entity too large") },
    expected: ProviderPayloadTooLargeError,
    status: 413,
  },
  {
    name: "402 ⇒ billing",
    reply: {
      status: 402,
      json: openrouterError(
        402,
        "Insufficient credits. Add more using https://openrouter.ai/credits",
      ),
    },
    expected: ProviderBillingError,
    status: 402,
  },
  {
    name: "429 insufficient_quota ⇒ billing (not rate limit)",
    reply: {
      status: 429,
      json: openaiError(
        "You exceeded your current quota, please check your plan and billing details.",
        {
          type: "insufficient_quota",
          code: "insufficient_quota",
        },
      ),
    },
    expected: ProviderBillingError,
    status: 429,
  },
  {
    name: "429 with an out-of-funds phrase only ⇒ billing",
    reply: { status: 429, json: openaiError("Your credit balance is too low") },
    expected: ProviderBillingError,
    status: 429,
  },
  {
    name: "401 ⇒ auth",
    reply: {
      status: 401,
      json: openaiError("Incorrect API key provided", { code: "invalid_api_key" }),
    },
    expected: ProviderAuthError,
    status: 401,
  },
  {
    name: "403 ⇒ auth",
    reply: { status: 403, json: openaiError("Forbidden") },
    expected: ProviderAuthError,
    status: 403,
  },
  {
    name: "429 with retry-after ⇒ rate limit, seconds parsed",
    reply: {
      status: 429,
      headers: { "retry-after": "7" },
      json: openaiError("Rate limit reached", { type: "requests" }),
    },
    expected: ProviderRateLimitError,
    status: 429,
    check: (e) => assert.equal((e as ProviderRateLimitError).retryAfter, 7),
  },
  {
    name: "429 with retry-after-ms ⇒ rate limit, milliseconds in seconds",
    reply: { status: 429, headers: { "retry-after-ms": "1500" }, json: openaiError("slow down") },
    expected: ProviderRateLimitError,
    status: 429,
    check: (e) => assert.equal((e as ProviderRateLimitError).retryAfter, 1.5),
  },
  {
    name: "404 ⇒ request error",
    reply: {
      status: 404,
      json: openaiError("The model `nope` does not exist", { code: "model_not_found" }),
    },
    expected: ProviderRequestError,
    status: 404,
    check: (e) => assert.ok(!(e instanceof ProviderPayloadTooLargeError)),
  },
  {
    name: "truncated JSON 200 ⇒ response (transient)",
    reply: { status: 200, text: '{"id":"chatcmpl-1","choices":[{"message":{"content":"cut' },
    expected: ProviderResponseError,
  },
];

for (const surface of ["responses", "chat"] as const satisfies readonly OpenAISurface[]) {
  for (const c of CASES) {
    Deno.test(`openai SDK (${surface}): ${c.name}, one attempt`, async () => {
      await using mock = await ModelMock.start();
      mock.always(surface === "chat" ? "chat" : "responses", c.reply);
      const p = new OpenAIProvider({ model: "m", apiKey: "sk", baseURL: mock.baseURL, surface });
      const error = await expectFault(p.chat([Message.user("hi")]), c.expected);
      if (c.status !== undefined) assert.equal((error as ProviderAPIError).status, c.status);
      c.check?.(error);
      assert.equal(mock.hits(), 1, "exactly one HTTP attempt");
    });
  }
}

Deno.test("openai SDK: connection refused ⇒ connection, naming the URL and ECONNREFUSED", async () => {
  const port = closedPort();
  for (const surface of ["responses", "chat"] as const) {
    const p = new OpenAIProvider({
      model: "m",
      apiKey: "sk-secret-key",
      surface,
      baseURL: `http://127.0.0.1:${port}/v1`,
    });
    const error = await expectFault(p.chat([Message.user("hi")]), ProviderConnectionError);
    const path = surface === "responses" ? "responses" : "chat/completions";
    assert.match(
      error.message,
      new RegExp(
        `^Connection error: could not reach http://127\\.0\\.0\\.1:${port}/v1/${path}: ` +
          "ECONNREFUSED \\(.*[Cc]onnection refused.*\\)$",
      ),
    );
    assert.doesNotMatch(error.message, /sk-secret-key/);
  }
});

Deno.test("openai SDK: an unresolvable host ⇒ connection, naming the URL and the DNS failure", async () => {
  const p = new OpenAIProvider({
    model: "m",
    apiKey: "sk",
    surface: "chat",
    // A user, a password and a query are never repeated: any of them may be a credential.
    baseURL: "http://agent:hunter2@nonexistent.invalid/v1?api-key=sk-in-the-url",
  });
  const error = await expectFault(p.chat([Message.user("hi")]), ProviderConnectionError);
  assert.match(
    error.message,
    /^Connection error: could not reach http:\/\/nonexistent\.invalid\/v1\/chat\/completions: (ENOTFOUND|EAI_AGAIN) \(dns error: /,
  );
  assert.doesNotMatch(error.message, /hunter2|agent@|sk-in-the-url|api-key/);
});

Deno.test("openai SDK: a TLS failure ⇒ connection, naming the URL and a TLS error", async () => {
  // A plain-HTTP server answering a TLS handshake with clear text.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  const served = (async () => {
    for await (const conn of listener) {
      await conn.read(new Uint8Array(1024)).catch(() => null);
      await conn.write(new TextEncoder().encode("HTTP/1.1 400 Bad Request\r\n\r\n"))
        .catch(() => 0);
      conn.close();
    }
  })();
  try {
    const p = new OpenAIProvider({
      model: "m",
      apiKey: "sk",
      baseURL: `https://127.0.0.1:${port}/v1`,
    });
    const error = await expectFault(p.chat([Message.user("hi")]), ProviderConnectionError);
    assert.match(
      error.message,
      new RegExp(
        `^Connection error: could not reach https://127\\.0\\.0\\.1:${port}/v1/responses: TLS error \\(`,
      ),
    );
  } finally {
    listener.close();
    await served.catch(() => {});
  }
});

Deno.test("openai SDK: timeout ⇒ connection, one attempt", async () => {
  await using mock = await ModelMock.start();
  // The reply would take a minute (closing the mock ends the wait); the deadline is a second, long
  // enough for a loaded machine to deliver the request, so the mock sees exactly one attempt.
  mock.always("responses", { delayMs: 60_000, json: {} });
  const p = new OpenAIProvider({
    model: "m",
    apiKey: "sk",
    baseURL: mock.baseURL,
    timeoutMs: 1_000,
  });
  const started = performance.now();
  const error = await expectFault(p.chat([Message.user("hi")]), ProviderConnectionError);
  assert.ok(performance.now() - started < 30_000, "gave up at the timeout, not at the reply");
  assert.match(
    error.message,
    new RegExp(
      `^Request timed out: could not reach ${mock.baseURL.replace(/[.]/g, "\\.")}: ETIMEDOUT`,
    ),
  );
  assert.equal(mock.hits(), 1);
});

Deno.test("openai SDK: the provider recovers after a fault (no sticky state)", async () => {
  await using mock = await ModelMock.start();
  mock.reply("responses", { status: 500, json: openaiError("boom") }, {
    json: { id: "r", object: "response", output: [], status: "completed" },
  });
  const p = new OpenAIProvider({ model: "m", apiKey: "sk", baseURL: mock.baseURL });
  await assert.rejects(p.chat([Message.user("a")]), ProviderServerError);
  const reply = await p.chat([Message.user("b")]);
  assert.equal(reply.content, null);
  assert.equal(mock.hits(), 2);
});
