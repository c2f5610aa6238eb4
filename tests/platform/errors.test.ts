import assert from "node:assert/strict";
import {
  closedPort,
  json,
  problem,
  sleep,
  startRawServer,
  startStub,
} from "../support/http_stub.ts";
import {
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidRequestError,
  MalformedResponseError,
  NotFoundError,
  PayloadTooLargeError,
  PlatformClient,
  PlatformError,
  RateLimitedError,
  ServerError,
  TransportError,
  UnauthorizedError,
  UnprocessableError,
} from "../../lib/platform/mod.ts";
import { clientFor, message, TIMELINE, timeline, TOKEN } from "./fixtures.ts";
import { asUser } from "../support/cleared.ts";

/** A readable error message: one sentence, no stack, no object dumps. */
function assertReadable(err: PlatformError) {
  assert.ok(err.message.length > 0);
  assert.ok(!err.message.includes("[object Object]"), err.message);
  assert.ok(!err.message.includes("\n"), err.message);
  assert.ok(!/\bat .*:\d+:\d+/.test(err.message), err.message);
  assert.ok(!err.message.includes("undefined"), err.message);
  assert.match(err.message, /\.$/);
}

async function failureOf(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof PlatformError, `expected a PlatformError, got ${err}`);
    assertReadable(err);
    return err;
  }
  throw new Error("expected the call to fail");
}

const cases: Array<[number, string, new (...a: never[]) => PlatformError]> = [
  [400, "invalid_cursor", InvalidRequestError],
  [400, "invalid_filter", InvalidRequestError],
  [401, "unauthorized", UnauthorizedError],
  [403, "not_a_viewer", ForbiddenError],
  [403, "timeline_locked", ForbiddenError],
  [403, "not_timeline_owner", ForbiddenError],
  [404, "not_found", NotFoundError],
  [409, "task_not_pending", ConflictError],
  [410, "endpoint_disabled", GoneError],
  [413, "payload_too_large", PayloadTooLargeError],
  [422, "validation_failed", UnprocessableError],
  [429, "rate_limited", RateLimitedError],
  [500, "internal_error", ServerError],
  [503, "unavailable", ServerError],
];

for (const [status, code, cls] of cases) {
  Deno.test(`${status} ${code} maps to ${cls.name} with status, code, detail and endpoint`, async () => {
    await using stub = await startStub(() => problem(status, code, "Something specific happened."));
    const err = await failureOf(clientFor(stub.url).timelines.get(TIMELINE));
    assert.ok(err instanceof cls, `${err.name} is not ${cls.name}`);
    assert.equal(err.status, status);
    assert.equal(err.code, code);
    assert.equal(err.detail, "Something specific happened.");
    assert.equal(err.title, code.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join(" "));
    assert.equal(err.endpoint, "GET /timelines/{uuid}");
    assert.equal(err.instance, "0198c2a4-0000-7367-9f40-8f9aabbccdd7");
    assert.ok(err.message.includes(code) && err.message.includes("Something specific happened"));
    assert.ok(!err.message.includes(TIMELINE), "messages name the template, not the id");
  });
}

Deno.test("422 carries fieldErrors and names them in the message", async () => {
  await using stub = await startStub(() =>
    problem(422, "validation_failed", "Validation failed.", {
      errors: { body: ["can't be blank"], owner: ["has reached the timeline limit"], junk: 5 },
    })
  );
  const err = await failureOf(
    clientFor(stub.url).messages.create(TIMELINE, asUser("message", { body: "" })),
  );
  assert.ok(err instanceof UnprocessableError);
  assert.deepEqual(err.fieldErrors, {
    body: ["can't be blank"],
    owner: ["has reached the timeline limit"],
  });
  assert.match(err.message, /body can't be blank/);
});

Deno.test("422 without errors has empty fieldErrors", async () => {
  await using stub = await startStub(() =>
    problem(422, "current_password_incorrect", "The current password is incorrect.")
  );
  const err = await failureOf(
    clientFor(stub.url).password.change({
      currentPassword: "a",
      password: "b",
      passwordConfirmation: "b",
    }),
  );
  assert.ok(err instanceof UnprocessableError);
  assert.equal(err.code, "current_password_incorrect");
  assert.deepEqual(err.fieldErrors, {});
});

Deno.test("429 reads Retry-After seconds", async () => {
  await using stub = await startStub(() =>
    problem(429, "rate_limited", "Slow down.", {}, { "retry-after": "17" })
  );
  const err = await failureOf(clientFor(stub.url).users.dashboard());
  assert.ok(err instanceof RateLimitedError);
  assert.equal(err.retryAfter, 17);
  assert.match(err.message, /17 s/);
});

Deno.test("429 with a junk Retry-After leaves retryAfter undefined", async () => {
  await using stub = await startStub(() =>
    problem(429, "rate_limited", "Slow down.", {}, { "retry-after": "soon-ish" })
  );
  const err = await failureOf(clientFor(stub.url).users.dashboard());
  assert.ok(err instanceof RateLimitedError);
  assert.equal(err.retryAfter, undefined);
});

Deno.test("an unknown code on a known status maps by status and keeps the code", async () => {
  await using stub = await startStub(() => problem(403, "brand_new_reason", "A new rule."));
  const err = await failureOf(clientFor(stub.url).timelines.get(TIMELINE));
  assert.ok(err instanceof ForbiddenError);
  assert.equal(err.code, "brand_new_reason");
});

Deno.test("an unknown 4xx becomes a plain PlatformError", async () => {
  await using stub = await startStub(() => problem(418, "teapot", "Short and stout."));
  const err = await failureOf(clientFor(stub.url).timelines.get(TIMELINE));
  assert.equal(err.constructor, PlatformError);
  assert.equal(err.status, 418);
  assert.equal(err.code, "teapot");
});

Deno.test("an HTML 502 from a proxy is a ServerError carrying only the status", async () => {
  await using stub = await startStub(() =>
    new Response("<html><body><h1>502 Bad Gateway</h1>\n<hr>nginx</body></html>", {
      status: 502,
      headers: { "content-type": "text/html" },
    })
  );
  const err = await failureOf(clientFor(stub.url).timelines.get(TIMELINE));
  assert.ok(err instanceof ServerError);
  assert.equal(err.status, 502);
  assert.equal(err.code, undefined);
  assert.equal(err.detail, undefined);
  assert.ok(!err.message.includes("<html"));
});

Deno.test("a JSON error without code maps by status with no code", async () => {
  await using stub = await startStub(() => json({ error: { nested: true } }, 404));
  const err = await failureOf(clientFor(stub.url).messages.get("x"));
  assert.ok(err instanceof NotFoundError);
  assert.equal(err.code, undefined);
});

Deno.test("a problem whose fields have the wrong types never crashes", async () => {
  await using stub = await startStub(() =>
    json({ code: { a: 1 }, detail: ["x"], title: 7, errors: "nope" }, 422)
  );
  const err = await failureOf(
    clientFor(stub.url).messages.create(TIMELINE, asUser("message", { body: "x" })),
  );
  assert.ok(err instanceof UnprocessableError);
  assert.equal(err.code, undefined);
  assert.deepEqual(err.fieldErrors, {});
});

Deno.test("a very long detail is cut to one short line", async () => {
  await using stub = await startStub(() => problem(500, "boom", "x\n".repeat(5000)));
  const err = await failureOf(clientFor(stub.url).users.dashboard());
  assert.ok(err.message.length < 500);
});

Deno.test("truncated JSON on a 200 is a MalformedResponseError", async () => {
  await using stub = await startStub(() =>
    new Response('{"timeline": {"uuid": "abc", "na', {
      headers: { "content-type": "application/json" },
    })
  );
  const err = await failureOf(clientFor(stub.url).timelines.get(TIMELINE));
  assert.ok(err instanceof MalformedResponseError);
  assert.equal(err.endpoint, "GET /timelines/{uuid}");
  assert.equal(err.status, 200);
  assert.match(err.message, /not valid JSON/);
});

Deno.test("an empty 200 where JSON is expected is malformed", async () => {
  await using stub = await startStub(() => new Response("", { status: 200 }));
  const err = await failureOf(clientFor(stub.url).users.dashboard());
  assert.ok(err instanceof MalformedResponseError);
  assert.match(err.message, /empty body/);
});

Deno.test("a 2xx missing a required field names the endpoint and the field path", async () => {
  const broken = timeline();
  delete (broken.owner as Record<string, unknown>).uuid;
  await using stub = await startStub(() => json({ timeline: broken, items: [] }));
  const err = await failureOf(clientFor(stub.url).timelines.get(TIMELINE));
  assert.ok(err instanceof MalformedResponseError);
  assert.equal(err.field, "timeline.owner.uuid");
  assert.match(err.message, /GET \/timelines\/\{uuid\}/);
  assert.match(err.message, /"timeline\.owner\.uuid" is missing/);
});

Deno.test("a mistyped field deep in a list is named with its index", async () => {
  const rows = [message(3), message(2), { ...message(1), content: { uuid: 42, body: "x" } }];
  await using stub = await startStub(() => json({ messages: rows, next_cursor: null }));
  const err = await failureOf(clientFor(stub.url).messages.page());
  assert.ok(err instanceof MalformedResponseError);
  assert.equal(err.field, "messages[2].content.uuid");
  assert.match(err.message, /should be a string/);
  assert.equal(err.endpoint, "GET /messages");
});

Deno.test("a JSON array where an object is expected is malformed, not a crash", async () => {
  await using stub = await startStub(() => json([1, 2, 3]));
  const err = await failureOf(clientFor(stub.url).users.dashboard());
  assert.ok(err instanceof MalformedResponseError);
});

Deno.test("connection refused is a TransportError saying so", async () => {
  const client = new PlatformClient({ baseUrl: `http://127.0.0.1:${closedPort()}`, token: TOKEN });
  const err = await failureOf(client.timelines.get(TIMELINE));
  assert.ok(err instanceof TransportError);
  assert.equal(err.failure, "refused");
  assert.equal(err.status, undefined);
  assert.match(err.message, /refused/);
});

Deno.test("a connection closed without an answer is a TransportError (reset)", async () => {
  const raw = startRawServer(null);
  try {
    const err = await failureOf(clientFor(raw.url).timelines.get(TIMELINE));
    assert.ok(err instanceof TransportError);
    assert.equal(err.failure, "reset");
    assert.match(err.message, /reset or closed/);
  } finally {
    raw.close();
  }
});

Deno.test("a body cut short of its Content-Length is a TransportError (reset)", async () => {
  const raw = startRawServer(
    'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"timeline":',
  );
  try {
    const err = await failureOf(clientFor(raw.url).timelines.get(TIMELINE));
    assert.ok(err instanceof TransportError);
    assert.equal(err.failure, "reset");
  } finally {
    raw.close();
  }
});

Deno.test("an unresolvable host is a TransportError (dns)", async () => {
  const client = new PlatformClient({
    baseUrl: "http://no-such-host.invalid",
    token: TOKEN,
    timeoutMs: 5000,
  });
  const err = await failureOf(client.users.dashboard());
  assert.ok(err instanceof TransportError);
  // Some resolvers stall instead of failing fast; either way it is typed and says which.
  assert.ok(["dns", "timeout"].includes(err.failure), err.failure);
});

Deno.test("a response slower than the timeout is a TransportError (timeout)", async () => {
  await using stub = await startStub(async (_rec, _req, closing) => {
    await sleep(60_000, closing); // a minute, unless the stub closes first
    return json({});
  });
  const started = performance.now();
  const err = await failureOf(clientFor(stub.url, { timeoutMs: 150 }).users.dashboard());
  assert.ok(err instanceof TransportError);
  assert.equal(err.failure, "timeout");
  assert.match(err.message, /timed out after 0\.2 s|timed out after 0\.1 s/);
  assert.ok(performance.now() - started < 30_000, "gave up at the timeout, not at the reply");
});

Deno.test("a body that stalls after the headers also times out", async () => {
  await using stub = await startStub((_rec, _req, closing) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"identity":'));
        closing.addEventListener("abort", () => controller.close());
      },
    });
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  const err = await failureOf(clientFor(stub.url, { timeoutMs: 200 }).users.dashboard());
  assert.ok(err instanceof TransportError);
  assert.equal(err.failure, "timeout");
});

Deno.test("a per-call timeout overrides the client's", async () => {
  await using stub = await startStub(async (_rec, _req, closing) => {
    await sleep(3000, closing);
    return json({});
  });
  const err = await failureOf(
    clientFor(stub.url, { timeoutMs: 10_000 }).users.dashboard({ timeoutMs: 100 }),
  );
  assert.ok(err instanceof TransportError && err.failure === "timeout");
});

Deno.test("a caller's abort signal cancels the call as a TransportError (aborted)", async () => {
  await using stub = await startStub(async (_rec, _req, closing) => {
    await sleep(3000, closing);
    return json({});
  });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const err = await failureOf(clientFor(stub.url).users.dashboard({ signal: controller.signal }));
  assert.ok(err instanceof TransportError);
  assert.equal(err.failure, "aborted");
});
