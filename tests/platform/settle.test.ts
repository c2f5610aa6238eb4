/**
 * A keyed create whose outcome is unknown is re-sent under the same key until a definite answer
 * (the real client against a scripted local server); only a 4xx with a problem body is a
 * definite refusal; an unkeyed create is never re-sent.
 */
import assert from "node:assert/strict";
import {
  MalformedResponseError,
  OutcomeUnknownError,
  PlatformClient,
  ServerError,
  UnprocessableError,
} from "../../lib/platform/mod.ts";
import { json, problem, sleep, startStub } from "../support/http_stub.ts";
import { asUser } from "../support/cleared.ts";

const TL = "01900000-0000-7000-8000-000000000001";

function message(body: string) {
  return {
    message: {
      type: "message",
      created_at: "2026-12-01T00:00:00Z",
      updated_at: "2026-12-01T00:00:00Z",
      user: {
        uuid: "01900000-0000-7000-8000-0000000000aa",
        handle: "ada",
        name: "Ada",
        kind: "ai",
      },
      timeline: { uuid: TL },
      content: { uuid: "01900000-0000-7000-8000-0000000000bb", body },
    },
  };
}

/** A server that answers each request with the next scripted answer. */
async function scripted(...answers: ((signal: AbortSignal) => Response | Promise<Response>)[]) {
  let next = 0;
  return await startStub((_rec, _req, closing) => {
    const answer = answers[Math.min(next++, answers.length - 1)];
    return answer(closing);
  });
}

function client(url: string, options: { timeoutMs?: number } = {}) {
  return new PlatformClient({
    baseUrl: url,
    token: "bc_uat_test",
    createBackoffMs: [5, 5],
    timeoutMs: options.timeoutMs,
  });
}

const ok = () => json(message("hi"), 201);
const bad = (status: number) => () => new Response("<html>oops</html>", { status });

Deno.test("settle: an ambiguous failure is re-sent under the same key until it settles", async () => {
  for (
    const [what, first] of [
      ["502 html", bad(502)],
      ["500 problem", () => problem(500, "internal_server_error", "boom")],
      ["truncated 201", () => new Response('{"message": {"type": "mess', { status: 201 })],
      ["404 without a problem body", bad(404)],
    ] as const
  ) {
    await using stub = await scripted(first, ok);
    const made = await client(stub.url).messages.create(TL, asUser("message", { body: "hi" }), {
      idempotencyKey: "k-1",
    });
    assert.equal(made.content.body, "hi", what);
    assert.equal(stub.requests.length, 2, what);
    assert.deepEqual(stub.requests.map((r) => r.headers.get("idempotency-key")), ["k-1", "k-1"]);
  }
});

Deno.test("settle: a timeout is ambiguous too; the re-send settles it", async () => {
  // The first answer would take a minute; the re-send is answered at once, well inside a deadline
  // long enough for a loaded machine.
  await using stub = await scripted(
    async (closing) => {
      await sleep(60_000, closing);
      return ok();
    },
    ok,
  );
  const made = await client(stub.url, { timeoutMs: 2_000 }).messages.create(
    TL,
    asUser("message", { body: "hi" }),
    { idempotencyKey: "k-2" },
  );
  assert.equal(made.content.body, "hi");
  assert.equal(stub.requests.length, 2);
});

Deno.test("settle: no definite answer at all is OutcomeUnknownError after every attempt", async () => {
  await using stub = await scripted(bad(502));
  const error = await client(stub.url).messages.create(TL, asUser("message", { body: "hi" }), {
    idempotencyKey: "k-3",
  }).then(() => undefined, (e) => e);
  assert.ok(error instanceof OutcomeUnknownError, String(error));
  assert.equal(error.attempts, 3);
  assert.ok(error.last instanceof ServerError);
  assert.equal(stub.requests.length, 3);
  assert.match(error.message, /no definite answer after 3 attempt\(s\) under one Idempotency-Key/);
});

Deno.test("settle: a 4xx with a problem body is a definite refusal, sent once", async () => {
  await using stub = await scripted(() => problem(422, "validation_failed", "body is blank"));
  const error = await client(stub.url).messages.create(TL, asUser("message", { body: "hi" }), {
    idempotencyKey: "k-4",
  }).then(() => undefined, (e) => e);
  assert.ok(error instanceof UnprocessableError, String(error));
  assert.equal(stub.requests.length, 1);
});

Deno.test("settle: an unkeyed create is never re-sent (a re-send could duplicate it)", async () => {
  await using stub = await scripted(bad(502), ok);
  await assert.rejects(
    client(stub.url).messages.create(TL, asUser("message", { body: "hi" })),
    ServerError,
  );
  await using truncated = await scripted(() => new Response("{", { status: 201 }), ok);
  await assert.rejects(
    client(truncated.url).messages.create(TL, asUser("message", { body: "hi" })),
    MalformedResponseError,
  );
  assert.equal(stub.requests.length, 1);
  assert.equal(truncated.requests.length, 1);
});

Deno.test("settle: a create the caller aborted is not re-sent; its outcome is unknown", async () => {
  const controller = new AbortController();
  await using stub = await scripted(async (closing) => {
    controller.abort();
    await sleep(200, closing);
    return ok();
  });
  const error = await client(stub.url).messages.create(TL, asUser("message", { body: "hi" }), {
    idempotencyKey: "k-5",
    signal: controller.signal,
  }).then(() => undefined, (e) => e);
  assert.ok(error instanceof OutcomeUnknownError, String(error));
  assert.equal(error.attempts, 1);
  assert.equal(stub.requests.length, 1);
});
