import assert from "node:assert/strict";
import { json, noContent, routes, startStub } from "../support/http_stub.ts";
import { MalformedResponseError } from "../../lib/platform/mod.ts";
import { asset, clientFor, event, message, task, TIMELINE, timeline, u, vega } from "./fixtures.ts";

const T = `/timelines/${TIMELINE}`;

Deno.test("timelines.create nests the name and returns timeline + empty items", async () => {
  await using stub = await startStub(() =>
    json({ timeline: timeline({ participants: [] }), items: [] }, 201)
  );
  const created = await clientFor(stub.url).timelines.create({ name: "Vega and Ada" });
  assert.equal(created.timeline.uuid, TIMELINE);
  assert.deepEqual(created.items, []);
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, "POST /timelines");
  assert.equal(rec.headers.get("content-type"), "application/json");
  assert.deepEqual(rec.json(), { timeline: { name: "Vega and Ada" } });
  assert.equal(rec.headers.get("idempotency-key"), null);
});

Deno.test("timelines.get returns the timeline and every item kind, unknown kinds kept", async () => {
  await using stub = await startStub(routes({
    [`GET ${T}`]: () =>
      json({
        timeline: timeline(),
        items: [
          message(1),
          asset(2),
          task(3),
          event(4, 50, "reference"),
          { type: "poll", content: { uuid: u(5), question: "?" }, created_at: "x" },
        ],
      }),
  }));
  const { timeline: tl, items } = await clientFor(stub.url).timelines.get(TIMELINE);
  assert.equal(tl.owner.handle, "ada");
  assert.deepEqual(tl.participants.map((p) => p.uuid), [vega.uuid]);
  assert.deepEqual(items.map((i) => i.type), ["message", "asset", "task", "webhook_event", "poll"]);
  assert.deepEqual(items.map((i) => i.content.uuid), [u(1), u(2), u(3), u(4), u(5)]);
  const first = items[0];
  assert.ok(first.type === "message" && "body" in first.content);
  assert.equal(first.content.body, "message 1");
  assert.ok(!("future_field" in first), "unknown fields are dropped, not rejected");
});

Deno.test("timelines.get tolerates a participant row with null fields", async () => {
  await using stub = await startStub(() =>
    json({
      timeline: timeline({ participants: [{ uuid: u(7), handle: null, name: null, kind: null }] }),
      items: [],
    })
  );
  const { timeline: tl } = await clientFor(stub.url).timelines.get(TIMELINE);
  assert.equal(tl.participants[0].handle, null);
});

Deno.test("timelines.get percent-encodes the id so it cannot change the path", async () => {
  await using stub = await startStub(() => json({ timeline: timeline(), items: [] }));
  await clientFor(stub.url).timelines.get("../users/dashboard?x=1");
  assert.equal(stub.requests[0].path, "/timelines/..%2Fusers%2Fdashboard%3Fx%3D1");
});

Deno.test("timelines.list walks rows by their own uuid", async () => {
  const rows = [timeline({ uuid: u(3) }), timeline({ uuid: u(2) }), timeline({ uuid: u(1) })];
  await using stub = await startStub(() => json({ timelines: rows, next_cursor: null }));
  const got = await clientFor(stub.url).timelines.list({ until: u(1) }).toArray();
  assert.deepEqual(got.map((t) => t.uuid), [u(3), u(2)]);
  assert.equal(stub.requests[0].path, "/timelines");
});

Deno.test("timelines.delete sends DELETE and resolves on 204", async () => {
  await using stub = await startStub(() => noContent());
  await clientFor(stub.url).timelines.delete(TIMELINE);
  assert.equal(`${stub.requests[0].method} ${stub.requests[0].path}`, `DELETE ${T}`);
});

Deno.test("lock: the current {timeline} shape", async () => {
  await using stub = await startStub(() => json({ timeline: timeline({ locked: true }) }));
  const result = await clientFor(stub.url).timelines.lock(TIMELINE);
  assert.deepEqual(
    { uuid: result.uuid, locked: result.locked, name: result.timeline?.name },
    { uuid: TIMELINE, locked: true, name: "Vega and Ada" },
  );
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, `POST ${T}/lock`);
  assert.equal(rec.body.length, 0, "verbs carry no body");
});

Deno.test("lock: the older {uuid, locked} shape", async () => {
  await using stub = await startStub(() => json({ uuid: TIMELINE, locked: true }));
  const result = await clientFor(stub.url).timelines.lock(TIMELINE);
  assert.deepEqual(result, { uuid: TIMELINE, locked: true, timeline: null });
});

Deno.test("lock: a bare {locked} falls back to the requested uuid", async () => {
  await using stub = await startStub(() => json({ locked: true }));
  const result = await clientFor(stub.url).timelines.lock(TIMELINE);
  assert.deepEqual(result, { uuid: TIMELINE, locked: true, timeline: null });
});

Deno.test("lock: the compatibility superset", async () => {
  await using stub = await startStub(() =>
    json({ uuid: TIMELINE, locked: true, timeline: timeline({ locked: true }) })
  );
  const result = await clientFor(stub.url).timelines.lock(TIMELINE);
  assert.equal(result.timeline?.locked, true);
});

Deno.test("lock: a body with neither shape is malformed", async () => {
  await using stub = await startStub(() => json({ ok: true }));
  await assert.rejects(
    clientFor(stub.url).timelines.lock(TIMELINE),
    (e: unknown) =>
      e instanceof MalformedResponseError && e.endpoint === "POST /timelines/{uuid}/lock",
  );
});

Deno.test("addParticipant: flat user_id body; current {user} shape", async () => {
  await using stub = await startStub(() =>
    json({ user: { ...vega, trust: { you_trust: true, trusts_you: true, mutual: true } } }, 201)
  );
  const user = await clientFor(stub.url).timelines.addParticipant(TIMELINE, vega.uuid);
  assert.equal(user.uuid, vega.uuid);
  assert.equal(user.trust?.mutual, true);
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, `POST ${T}/participations`);
  assert.deepEqual(rec.json(), { user_id: vega.uuid });
});

Deno.test("addParticipant: the older bare nested-actor shape", async () => {
  await using stub = await startStub(() => json({ ...vega }, 201));
  const user = await clientFor(stub.url).timelines.addParticipant(TIMELINE, vega.uuid);
  assert.equal(user.handle, "vega");
  assert.equal(user.trust, undefined);
});

Deno.test("addParticipant: neither shape is malformed", async () => {
  await using stub = await startStub(() => json({ user: { uuid: 5 } }, 201));
  await assert.rejects(
    clientFor(stub.url).timelines.addParticipant(TIMELINE, vega.uuid),
    MalformedResponseError,
  );
});

Deno.test("removeParticipant sends DELETE to the participation path", async () => {
  await using stub = await startStub(() => noContent());
  await clientFor(stub.url).timelines.removeParticipant(TIMELINE, vega.uuid);
  assert.equal(
    `${stub.requests[0].method} ${stub.requests[0].path}`,
    `DELETE ${T}/participations/${vega.uuid}`,
  );
});

Deno.test("a broken known item is reported at its field, not swallowed as an unknown kind", async () => {
  const broken = { ...message(1), content: { uuid: u(1) } };
  await using stub = await startStub(() =>
    json({ timeline: timeline(), items: [event(2, 50, "full"), broken] })
  );
  const err = await clientFor(stub.url).timelines.get(TIMELINE).catch((e) => e);
  assert.ok(err instanceof MalformedResponseError);
  assert.equal(err.field, "items[1].content.body");
  assert.match(err.message, /"items\[1\]\.content\.body" is missing/);
});

Deno.test("a mistyped field inside a known item says what it should be", async () => {
  const broken = { ...message(1), content: { uuid: u(1), body: 12 } };
  await using stub = await startStub(() => json({ timeline: timeline(), items: [broken] }));
  const err = await clientFor(stub.url).timelines.get(TIMELINE).catch((e) => e);
  assert.ok(err instanceof MalformedResponseError);
  assert.match(err.message, /"items\[0\]\.content\.body" should be a string/);
});
