/** Contract: sandbox-injected faults arrive at the client as the right typed errors. */
import { strict as assert } from "node:assert";
import {
  idempotencyKey,
  RateLimitedError,
  ServerError,
  TransportError,
} from "../../lib/platform/mod.ts";
import { expectError, withContract } from "./helpers.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("contract: 429 with Retry-After becomes RateLimitedError.retryAfter", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    await c.fault({ path: "^/users/dashboard$", status: 429 });
    const limited = await expectError(
      ada.client.users.dashboard(),
      RateLimitedError,
      "rate_limited",
    );
    assert.equal(limited.status, 429);
    assert.equal(limited.retryAfter, 1);
    assert.equal(limited.endpoint, "GET /users/dashboard");
    // Not retried by the client: one request, then normal service on the next call.
    assert.equal(c.count("GET", /^\/users\/dashboard$/), 1);
    assert.equal((await ada.client.users.dashboard()).identity.uuid, ada.uuid);
  }));

Deno.test("contract: 500 problem+json and a proxy's HTML 502 both become ServerError", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const tl = (await ada.client.timelines.create({ name: "x" })).timeline.uuid;
    await c.fault({ path: "^/timelines/[^/]+$", status: 500 });
    const five = await expectError(ada.client.timelines.get(tl), ServerError);
    assert.equal(five.status, 500);
    assert.equal(five.code, "internal_server_error");

    await c.fault({ path: "^/messages$", status: 502 });
    const proxy = await expectError(
      ada.client.messages.list({ timeline: tl }).toArray(),
      ServerError,
    );
    assert.equal(proxy.status, 502);
    assert.equal(proxy.code, undefined, "an HTML body carries no code");
    assert.ok(!proxy.message.includes("<html"), "the page is not copied into the message");

    assert.equal((await ada.client.timelines.get(tl)).timeline.uuid, tl);
  }));

Deno.test("contract: a delay past the client's timeout becomes TransportError timeout", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    // A minute's delay (the sandbox ends it when it closes) against a 0.2 s deadline.
    await c.fault({ path: "^/users$", delay_ms: 60_000 });
    const started = performance.now();
    const slow = await expectError(ada.client.users.list({ timeoutMs: 200 }), TransportError);
    assert.equal(slow.failure, "timeout");
    assert.ok(performance.now() - started < 30_000, "gave up at the deadline, not the delay");
    assert.match(slow.message, /timed out after 0\.2 s/);
    // The fault was used up: the next call is answered (with a deadline a loaded machine meets).
    const quick = c.client({ token: ada.token, timeoutMs: 10_000 });
    assert.deepEqual(await quick.users.list(), []);
  }));

Deno.test("contract: commit-then-fail — the write landed; the client's re-send under the same key gets it back", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const tl = (await ada.client.timelines.create({ name: "crashy" })).timeline.uuid;
    const key = await idempotencyKey({
      timeline: tl,
      anchor: "0198c2a3-1b22-7d01-b7c8-2f3e4d5c6b71",
      kind: "message",
      ordinal: 1,
    });
    await c.fault({ path: "/messages$", method: "POST", status: 502, commit: true });
    // The 502 leaves the outcome unknown: the client re-sends under the same key by itself and
    // the platform replays the committed original.
    const again = await ada.client.messages.create(
      tl,
      asUser("message", { body: "first attempt" }),
      {
        idempotencyKey: key,
      },
    );
    assert.equal(again.content.body, "first attempt");
    const replayed = await ada.client.messages.create(
      tl,
      asUser("message", { body: "second attempt" }),
      {
        idempotencyKey: key,
      },
    );
    assert.equal(replayed.content.uuid, again.content.uuid, "a later send gets the original");
    const listed = await ada.client.messages.list({ timeline: tl }).toArray();
    assert.deepEqual(listed.map((m) => m.content.uuid), [again.content.uuid]);
    assert.equal((await c.events()).filter((e) => e.event === "message.created").length, 1);
    const posts = c.sandbox.requests.filter((r) =>
      r.method === "POST" && r.path.endsWith("/messages")
    );
    assert.deepEqual(posts.map((r) => [r.status, r.idempotencyKey]), [
      [502, key],
      [201, key],
      [201, key],
    ]);
  }));
