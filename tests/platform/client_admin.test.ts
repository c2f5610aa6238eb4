import assert from "node:assert/strict";
import { json, problem, routes, startStub } from "../support/http_stub.ts";
import { ForbiddenError, InvalidRequestError } from "../../lib/platform/mod.ts";
import { ada, clientFor, u } from "./fixtures.ts";

function note(n: number) {
  return {
    uuid: u(n),
    body: "Replied by email.",
    user: ada,
    notable: { type: "contact_message", uuid: u(1) },
    created_at: "2026-05-14T10:00:00.000Z",
    updated_at: "2026-05-14T10:00:00.000Z",
  };
}

function contact(status = "received") {
  return {
    uuid: u(1),
    name: "Grace",
    email_address: "grace@example.com",
    body: "Hello there",
    status,
    user: null,
    ip_address: "198.51.100.7",
    user_agent: "Mozilla/5.0",
    headers: { "Accept-Language": "en", Referer: null },
    honeypot_filled: false,
    fill_seconds: 12,
    data: { vendor: { score: 0.1 } },
    notes: [note(2)],
    created_at: "2026-05-14T09:00:00.000Z",
    updated_at: "2026-05-14T09:00:00.000Z",
  };
}

Deno.test("contact messages: list with status, get, setStatus, addNote", async () => {
  await using stub = await startStub(routes({
    "GET /contact_messages": () => json({ contact_messages: [contact()], next_cursor: null }),
    [`GET /contact_messages/${u(1)}`]: () => json({ contact_message: contact() }),
    [`PATCH /contact_messages/${u(1)}/status`]: () => json({ contact_message: contact("closed") }),
    [`POST /contact_messages/${u(1)}/notes`]: () =>
      json({ note: note(3) }, 201, { location: `/notes/${u(3)}` }),
  }));
  const api = clientFor(stub.url).admin.contactMessages;
  const rows = await api.list({ status: "received" }).toArray();
  assert.equal(rows[0].notes?.[0].body, "Replied by email.");
  assert.equal(stub.requests[0].query.get("status"), "received");
  assert.equal((await api.get(u(1))).email_address, "grace@example.com");
  assert.equal((await api.setStatus(u(1), "closed")).status, "closed");
  assert.deepEqual(stub.requests[2].json(), { contact_message: { status: "closed" } });
  assert.equal((await api.addNote(u(1), "Replied by email.")).uuid, u(3));
  assert.deepEqual(stub.requests[3].json(), { note: { body: "Replied by email." } });
});

Deno.test("notes: list and get", async () => {
  await using stub = await startStub(routes({
    "GET /notes": () => json({ notes: [note(3), note(2)], next_cursor: null }),
    [`GET /notes/${u(2)}`]: () => json({ note: note(2) }),
  }));
  const api = clientFor(stub.url).admin.notes;
  assert.deepEqual((await api.list({ until: u(2) }).toArray()).map((n) => n.uuid), [u(3)]);
  assert.equal((await api.get(u(2))).notable?.type, "contact_message");
});

Deno.test("non-admins get ForbiddenError not_an_admin; a bad status filter is InvalidRequestError", async () => {
  await using stub = await startStub((rec) =>
    rec.query.get("status") === "bogus"
      ? problem(400, "invalid_filter", "Unknown status.")
      : problem(403, "not_an_admin", "Admin Action Required.")
  );
  const api = clientFor(stub.url).admin.contactMessages;
  const denied = await api.page().catch((e) => e);
  assert.ok(denied instanceof ForbiddenError && denied.code === "not_an_admin");
  const bad = await api.page({ status: "bogus" }).catch((e) => e);
  assert.ok(bad instanceof InvalidRequestError && bad.code === "invalid_filter");
});
