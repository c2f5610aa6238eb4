import assert from "node:assert/strict";
import { json, routes, startStub } from "../support/http_stub.ts";
import { ConflictError, MalformedResponseError } from "../../lib/platform/mod.ts";
import { clientFor, message, task, TIMELINE, u } from "./fixtures.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("messages.create posts the Rails-nested body to the timeline", async () => {
  await using stub = await startStub(() => json({ message: message(1, "hi @ada") }, 201));
  const msg = await clientFor(stub.url).messages.create(
    TIMELINE,
    asUser("message", { body: "hi @ada" }),
  );
  assert.equal(msg.content.uuid, u(1));
  assert.equal(msg.content.body, "hi @ada");
  assert.equal(msg.user.kind, "human");
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, `POST /timelines/${TIMELINE}/messages`);
  assert.equal(rec.headers.get("content-type"), "application/json");
  assert.deepEqual(rec.json(), { message: { body: "hi @ada" } });
});

Deno.test("messages.get and list use content.uuid", async () => {
  await using stub = await startStub(routes({
    [`GET /messages/${u(4)}`]: () => json({ message: message(4) }),
    "GET /messages": () => json({ messages: [message(5), message(4)], next_cursor: null }),
  }));
  const client = clientFor(stub.url);
  assert.equal((await client.messages.get(u(4))).content.body, "message 4");
  const rows = await client.messages.list({ timeline: TIMELINE, until: u(4) }).toArray();
  assert.deepEqual(rows.map((m) => m.content.uuid), [u(5)]);
});

Deno.test("message items without updated_at (older shape) still parse", async () => {
  const older: Record<string, unknown> = { ...message(1) };
  delete older.updated_at;
  await using stub = await startStub(() => json({ message: older }));
  const msg = await clientFor(stub.url).messages.get(u(1));
  assert.equal(msg.updated_at, undefined);
});

Deno.test("tasks.create sends instructions and a Date as UTC ISO-8601", async () => {
  await using stub = await startStub(() => json({ task: task(1) }, 201));
  const created = await clientFor(stub.url).tasks.create(
    TIMELINE,
    asUser("task", {
      instructions: "check the build",
      activateAt: new Date(Date.UTC(2026, 4, 14, 11, 0, 0)),
    }),
  );
  assert.equal(created.content.status, "pending");
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, `POST /timelines/${TIMELINE}/tasks`);
  assert.deepEqual(rec.json(), {
    task: { instructions: "check the build", activate_at: "2026-05-14T11:00:00.000Z" },
  });
});

Deno.test("tasks.create passes an offset-qualified string through untouched", async () => {
  await using stub = await startStub(() => json({ task: task(1) }, 201));
  await clientFor(stub.url).tasks.create(
    TIMELINE,
    asUser("task", {
      instructions: "x",
      activateAt: "2026-05-14T11:00:00+02:00",
    }),
  );
  assert.deepEqual(stub.requests[0].json(), {
    task: { instructions: "x", activate_at: "2026-05-14T11:00:00+02:00" },
  });
});

Deno.test("tasks.get, tasks.list with status, tasks.cancel", async () => {
  await using stub = await startStub(routes({
    [`GET /tasks/${u(2)}`]: () => json({ task: task(2, "activated") }),
    "GET /tasks": () =>
      json({ tasks: [task(3, "activated"), task(2, "activated")], next_cursor: null }),
    [`POST /tasks/${u(3)}/cancellation`]: () => json({ task: task(3, "cancelled") }),
  }));
  const client = clientFor(stub.url);
  assert.equal((await client.tasks.get(u(2))).content.status, "activated");
  const active = await client.tasks.list({ timeline: TIMELINE, status: "activated" }).toArray();
  assert.equal(active.length, 2);
  assert.equal(stub.requests[1].query.get("status"), "activated");
  const cancelled = await client.tasks.cancel(u(3));
  assert.equal(cancelled.content.status, "cancelled");
  assert.equal(stub.requests[2].body.length, 0, "cancellation carries no body");
});

Deno.test("cancelling a non-pending task is a ConflictError with its code", async () => {
  await using stub = await startStub(() =>
    new Response(
      JSON.stringify({
        status: 409,
        code: "task_not_pending",
        title: "Task Not Pending",
        detail: "Only pending tasks can be cancelled.",
      }),
      { status: 409, headers: { "content-type": "application/problem+json" } },
    )
  );
  const err = await clientFor(stub.url).tasks.cancel(u(3)).catch((e) => e);
  assert.ok(err instanceof ConflictError);
  assert.equal(err.code, "task_not_pending");
  assert.equal(err.endpoint, "POST /tasks/{uuid}/cancellation");
});

Deno.test("an item list row of the wrong type is malformed", async () => {
  await using stub = await startStub(() => json({ tasks: [message(1)], next_cursor: null }));
  const err = await clientFor(stub.url).tasks.page().catch((e) => e);
  assert.ok(err instanceof MalformedResponseError);
  assert.equal(err.field, "tasks[0].type");
});
