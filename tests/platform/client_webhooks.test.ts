import assert from "node:assert/strict";
import { closedPort, json, problem, routes, startStub } from "../support/http_stub.ts";
import {
  ForbiddenError,
  GoneError,
  MalformedResponseError,
  TransportError,
} from "../../lib/platform/mod.ts";
import { clientFor, endpoint, event, TIMELINE, u } from "./fixtures.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("webhookEndpoints.create nests the description", async () => {
  await using stub = await startStub(() => json({ webhook_endpoint: endpoint(1) }, 201));
  const ep = await clientFor(stub.url).webhookEndpoints.create(
    TIMELINE,
    asUser("webhook_endpoint", {
      description: "CI notifications",
    }),
  );
  assert.equal(ep.content.enabled, true);
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, `POST /timelines/${TIMELINE}/webhook_endpoints`);
  assert.deepEqual(rec.json(), { webhook_endpoint: { description: "CI notifications" } });
});

Deno.test("webhook endpoint verbs hit their paths with their methods and no body", async () => {
  await using stub = await startStub(routes({
    [`GET /webhook_endpoints/${u(1)}`]: () => json({ webhook_endpoint: endpoint(1) }),
    [`POST /webhook_endpoints/${u(1)}/enablement`]: () =>
      json({ webhook_endpoint: endpoint(1, { enabled: true }) }),
    [`DELETE /webhook_endpoints/${u(1)}/enablement`]: () =>
      json({ webhook_endpoint: endpoint(1, { enabled: false }) }),
    [`POST /webhook_endpoints/${u(1)}/rotation`]: () =>
      json({
        webhook_endpoint: endpoint(1, { ingest_url: "https://basecradle.com/webhooks/new" }),
      }),
    "GET /webhook_endpoints": () => json({ webhook_endpoints: [endpoint(1)], next_cursor: null }),
  }));
  const api = clientFor(stub.url).webhookEndpoints;
  assert.equal((await api.get(u(1))).content.uuid, u(1));
  assert.equal((await api.enable(u(1))).content.enabled, true);
  assert.equal((await api.disable(u(1))).content.enabled, false);
  assert.equal((await api.rotate(u(1))).content.ingest_url, "https://basecradle.com/webhooks/new");
  assert.equal((await api.list({ timeline: TIMELINE }).toArray()).length, 1);
  assert.deepEqual(
    stub.requests.map((r) => `${r.method} ${r.path} ${r.body.length}`),
    [
      `GET /webhook_endpoints/${u(1)} 0`,
      `POST /webhook_endpoints/${u(1)}/enablement 0`,
      `DELETE /webhook_endpoints/${u(1)}/enablement 0`,
      `POST /webhook_endpoints/${u(1)}/rotation 0`,
      "GET /webhook_endpoints 0",
    ],
  );
  assert.equal(stub.requests[4].query.get("timeline"), TIMELINE);
});

Deno.test("an endpoint without user (older, authorless shape) parses", async () => {
  const older: Record<string, unknown> = { ...endpoint(1) };
  delete older.user;
  delete older.updated_at;
  await using stub = await startStub(() => json({ webhook_endpoint: older }));
  const ep = await clientFor(stub.url).webhookEndpoints.get(u(1));
  assert.equal(ep.user, undefined);
});

for (const shape of ["reference", "full", "both"] as const) {
  Deno.test(`a webhook event with the ${shape} endpoint shape exposes endpoint_uuid`, async () => {
    await using stub = await startStub(routes({
      [`GET /webhook_events/${u(2)}`]: () => json({ webhook_event: event(2, 40, shape) }),
      "GET /webhook_events": () =>
        json({ webhook_events: [event(3, 40, shape), event(2, 40, shape)], next_cursor: null }),
    }));
    const api = clientFor(stub.url).webhookEvents;
    const one = await api.get(u(2));
    assert.equal(one.endpoint_uuid, u(40));
    assert.equal(one.content.payload, '{"build":42,"ok":false}');
    const rows = await api.list({ timeline: TIMELINE, endpoint: u(40), until: u(2) }).toArray();
    assert.deepEqual(rows.map((e) => [e.content.uuid, e.endpoint_uuid]), [[u(3), u(40)]]);
  });
}

Deno.test("a webhook event whose endpoint pointer has no uuid is malformed", async () => {
  const broken = { ...event(2, 40, "reference"), webhook_endpoint: { name: "x" } };
  await using stub = await startStub(() => json({ webhook_event: broken }));
  const err = await clientFor(stub.url).webhookEvents.get(u(2)).catch((e) => e);
  assert.ok(err instanceof MalformedResponseError);
  assert.equal(err.field, "webhook_event.webhook_endpoint");
});

Deno.test("ingest by token posts the raw body with its content type and no Authorization", async () => {
  await using stub = await startStub(() => new Response("<html>ok</html>", { status: 201 }));
  const body = "<xml><build id='42'/></xml>";
  const result = await clientFor(stub.url).webhookEvents.ingest(u(77), body, {
    contentType: "application/xml",
    headers: { "X-Signature": "abc123" },
  });
  assert.deepEqual(result, { status: 201, body: "<html>ok</html>" });
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, `POST /webhooks/${u(77)}`);
  assert.equal(rec.text(), body);
  assert.equal(rec.headers.get("content-type"), "application/xml");
  assert.equal(rec.headers.get("x-signature"), "abc123");
  assert.equal(rec.headers.get("authorization"), null);
});

Deno.test("ingest to a full ingest_url sends bytes verbatim", async () => {
  await using stub = await startStub(() => new Response(null, { status: 201 }));
  const bytes = new Uint8Array([0, 1, 2, 255]);
  await clientFor(stub.url).webhookEvents.ingest(`${stub.url}/webhooks/tok`, bytes);
  assert.equal(stub.requests[0].path, "/webhooks/tok");
  assert.deepEqual(stub.requests[0].body, bytes);
  assert.equal(stub.requests[0].headers.get("authorization"), null);
});

Deno.test("ingest errors are typed and never reveal the ingest token", async () => {
  await using stub = await startStub(routes({
    "POST /webhooks/disabled-token": () => problem(410, "endpoint_disabled", "Disabled."),
    "POST /webhooks/locked-token": () => problem(403, "timeline_locked", "Locked."),
  }));
  const api = clientFor(stub.url).webhookEvents;
  const gone = await api.ingest("disabled-token", "{}").catch((e) => e);
  assert.ok(gone instanceof GoneError);
  assert.equal(gone.endpoint, "POST /webhooks/{token}");
  assert.ok(!gone.message.includes("disabled-token"));
  const locked = await api.ingest("locked-token", "{}").catch((e) => e);
  assert.ok(locked instanceof ForbiddenError && locked.code === "timeline_locked");

  const refused = await clientFor(`http://127.0.0.1:${closedPort()}`).webhookEvents
    .ingest("secret-token", "{}").catch((e) => e);
  assert.ok(refused instanceof TransportError);
  assert.ok(!Deno.inspect(refused, { depth: 10 }).includes("secret-token"));
});
