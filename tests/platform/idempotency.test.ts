import assert from "node:assert/strict";
import { json, noContent, startStub } from "../support/http_stub.ts";
import {
  IDEMPOTENCY_NAMESPACE,
  idempotencyKey,
  idempotencyName,
  uuid5,
} from "../../lib/platform/mod.ts";
import { asset, clientFor, endpoint, message, task, TIMELINE, timeline, u } from "./fixtures.ts";
import { asUser } from "../support/cleared.ts";

// Generated with CPython's uuid.uuid5 (the reference implementation the Python harness uses):
//   python3 -c "import uuid; print(uuid.uuid5(uuid.UUID('<ns>'), '<name>'))"
const T = "0198c2a2-0a00-7c11-a9f0-1e2d3c4b5a60";
const A = "0198c2a3-1b22-7d01-b7c8-2f3e4d5c6b71";
const HARNESS_VECTORS: Array<[string, string]> = [
  [`${T}:${A}:message:1`, "f00703dc-a2f2-5ef2-b995-031eaa3a50eb"],
  [`${T}:${A}:message:2`, "ef96aa57-e8d9-5f01-bb18-e6a850be0741"],
  [`${T}:${A}:asset:1`, "db58ce74-2ea8-5a9c-b40e-405b8482579e"],
  [`${T}:${A}:task:3`, "3e9568eb-8e26-5ca9-a3b1-7bf16614df3c"],
  [`${T}:${A}:webhook_endpoint:1`, "d09bf0dc-a67d-5d82-809a-5f8e1fdd8424"],
  [
    "11111111-2222-7333-8444-555555555555:66666666-7777-7888-9999-aaaaaaaaaaaa:message:10",
    "7d8c0a87-0609-55be-a917-778a838ad438",
  ],
  ["", "419f5fc8-2674-54bc-a407-a8769a7b2b19"],
];

Deno.test("uuid5 matches CPython for the harness namespace", async () => {
  for (const [name, expected] of HARNESS_VECTORS) {
    assert.equal(await uuid5(IDEMPOTENCY_NAMESPACE, name), expected, name);
  }
});

Deno.test("uuid5 matches CPython for standard namespaces and non-ASCII names", async () => {
  // uuid.NAMESPACE_DNS / 'python.org' and uuid.NAMESPACE_URL / a UTF-8 name.
  assert.equal(
    await uuid5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org"),
    "886313e1-3b8a-5372-9b90-0c9aee199e5d",
  );
  assert.equal(
    await uuid5("6ba7b811-9dad-11d1-80b4-00c04fd430c8", "https://example.com/ünïcödé/✓"),
    "e693f58a-5271-5f86-b53d-15b3de223017",
  );
});

Deno.test("uuid5 accepts an upper-case namespace and rejects a malformed one", async () => {
  assert.equal(
    await uuid5(IDEMPOTENCY_NAMESPACE.toUpperCase(), `${T}:${A}:message:1`),
    "f00703dc-a2f2-5ef2-b995-031eaa3a50eb",
  );
  await assert.rejects(uuid5("not-a-uuid", "x"), TypeError);
});

Deno.test("idempotencyKey composes timeline:anchor:kind:ordinal", async () => {
  assert.equal(
    idempotencyName({ timeline: T, anchor: A, kind: "task", ordinal: 3 }),
    `${T}:${A}:task:3`,
  );
  assert.equal(
    await idempotencyKey({ timeline: T, anchor: A, kind: "webhook_endpoint", ordinal: 1 }),
    "d09bf0dc-a67d-5d82-809a-5f8e1fdd8424",
  );
  assert.throws(() => idempotencyName({ timeline: T, anchor: A, kind: "task", ordinal: 0 }));
  assert.throws(() =>
    idempotencyName({ timeline: T, anchor: A, kind: "timeline" as "task", ordinal: 1 })
  );
});

Deno.test("the four creates send Idempotency-Key only when given", async () => {
  await using stub = await startStub((rec) => {
    if (rec.path.endsWith("/messages")) return json({ message: message(1) }, 201);
    if (rec.path.endsWith("/assets")) return json({ asset: asset(1) }, 201);
    if (rec.path.endsWith("/tasks")) return json({ task: task(1) }, 201);
    return json({ webhook_endpoint: endpoint(1) }, 201);
  });
  const c = clientFor(stub.url);
  const creates = [
    (key?: string) =>
      c.messages.create(T, asUser("message", { body: "x" }), { idempotencyKey: key }),
    (key?: string) =>
      c.assets.create(T, asUser("asset", { file: new Uint8Array([1]), filename: "a.bin" }), {
        idempotencyKey: key,
      }),
    (key?: string) =>
      c.tasks.create(T, asUser("task", { instructions: "x", activateAt: "2026-05-14T11:00:00Z" }), {
        idempotencyKey: key,
      }),
    (key?: string) =>
      c.webhookEndpoints.create(T, asUser("webhook_endpoint", { description: "x" }), {
        idempotencyKey: key,
      }),
  ];
  for (const create of creates) {
    await create("key-123");
    await create();
  }
  const seen = stub.requests.map((r) => r.headers.get("idempotency-key"));
  assert.deepEqual(seen, ["key-123", null, "key-123", null, "key-123", null, "key-123", null]);
});

Deno.test("a replay under the same key resolves to the original record", async () => {
  const byKey = new Map<string, unknown>();
  let next = 1;
  await using stub = await startStub((rec) => {
    const key = rec.headers.get("idempotency-key");
    if (key && byKey.has(key)) return json(byKey.get(key), 201);
    const body = {
      message: message(next++, (rec.json() as { message: { body: string } }).message.body),
    };
    if (key) byKey.set(key, body);
    return json(body, 201);
  });
  const c = clientFor(stub.url);
  const key = await idempotencyKey({
    timeline: TIMELINE,
    anchor: u(500),
    kind: "message",
    ordinal: 1,
  });
  const first = await c.messages.create(TIMELINE, asUser("message", { body: "first draft" }), {
    idempotencyKey: key,
  });
  const again = await c.messages.create(TIMELINE, asUser("message", { body: "second draft" }), {
    idempotencyKey: key,
  });
  assert.equal(again.content.uuid, first.content.uuid);
  assert.equal(again.content.body, "first draft");
  assert.equal(stub.requests[0].headers.get("idempotency-key"), key);
  assert.equal(stub.requests[1].headers.get("idempotency-key"), key);
});

Deno.test("no other call carries an Idempotency-Key", async () => {
  await using stub = await startStub((rec) => {
    if (rec.path === "/timelines") return json({ timeline: timeline(), items: [] }, 201);
    if (rec.path.endsWith("/lock")) return json({ timeline: timeline({ locked: true }) });
    return noContent();
  });
  const c = clientFor(stub.url);
  await c.timelines.create({ name: "x" });
  await c.timelines.lock(TIMELINE);
  await c.users.revokeTrust(u(1));
  for (const rec of stub.requests) assert.equal(rec.headers.get("idempotency-key"), null);
});
