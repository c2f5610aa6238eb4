import assert from "node:assert/strict";
import { json, type Recorded, startStub } from "../support/http_stub.ts";
import { MalformedResponseError } from "../../lib/platform/mod.ts";
import { clientFor, message, TIMELINE, u } from "./fixtures.ts";

/**
 * A newest-first message list of `total` rows (uuids total..1), served 50 a page with
 * `before` exclusive, the way the platform pages.
 */
function pagedMessages(total: number, options: { trailingEmptyPage?: boolean } = {}) {
  const all = Array.from({ length: total }, (_, i) => message(total - i));
  return (rec: Recorded) => {
    const before = rec.query.get("before");
    const start = before === null ? 0 : all.findIndex((m) => m.content.uuid === before) + 1;
    const rows = all.slice(start, start + 50);
    const more = start + 50 < all.length ||
      (options.trailingEmptyPage === true && rows.length === 50 && before === null);
    return json({ messages: rows, next_cursor: more ? rows[rows.length - 1].content.uuid : null });
  };
}

Deno.test("an empty list yields nothing after one request", async () => {
  await using stub = await startStub(() => json({ messages: [], next_cursor: null }));
  const rows = await clientFor(stub.url).messages.list({ timeline: TIMELINE }).toArray();
  assert.deepEqual(rows, []);
  assert.equal(stub.requests.length, 1);
  assert.equal(stub.requests[0].query.get("timeline"), TIMELINE);
  assert.equal(stub.requests[0].query.has("before"), false);
});

Deno.test("exactly 50 rows with a null cursor is one request", async () => {
  await using stub = await startStub(pagedMessages(50));
  const rows = await clientFor(stub.url).messages.list().toArray();
  assert.equal(rows.length, 50);
  assert.equal(stub.requests.length, 1);
});

Deno.test("exactly 50 rows with a cursor to an empty page loops until null", async () => {
  await using stub = await startStub(pagedMessages(50, { trailingEmptyPage: true }));
  const rows = await clientFor(stub.url).messages.list().toArray();
  assert.equal(rows.length, 50);
  assert.equal(stub.requests.length, 2);
  assert.equal(stub.requests[1].query.get("before"), u(1));
});

Deno.test("51 rows take two pages, the second asked with before=<last uuid of page one>", async () => {
  await using stub = await startStub(pagedMessages(51));
  const rows = await clientFor(stub.url).messages.list({ timeline: TIMELINE }).toArray();
  assert.equal(rows.length, 51);
  assert.deepEqual(rows.map((r) => r.content.uuid).slice(0, 2), [u(51), u(50)]);
  assert.equal(rows[50].content.uuid, u(1));
  assert.equal(stub.requests.length, 2);
  assert.equal(stub.requests[1].query.get("before"), u(2));
  assert.equal(stub.requests[1].query.get("timeline"), TIMELINE, "filters are kept on later pages");
});

Deno.test("a mark on page one stops before it and fetches no second page", async () => {
  await using stub = await startStub(pagedMessages(120));
  const rows = await clientFor(stub.url).messages.list({ until: u(117) }).toArray();
  assert.deepEqual(rows.map((r) => r.content.uuid), [u(120), u(119), u(118)]);
  assert.equal(stub.requests.length, 1);
});

Deno.test("a mark on page two stops there (exclusive) and fetches no third page", async () => {
  await using stub = await startStub(pagedMessages(120));
  const rows = await clientFor(stub.url).messages.list({ until: u(60) }).toArray();
  assert.equal(rows.length, 60);
  assert.equal(rows[rows.length - 1].content.uuid, u(61));
  assert.ok(!rows.some((r) => r.content.uuid === u(60)));
  assert.equal(stub.requests.length, 2);
});

Deno.test("the newest row being the mark yields nothing", async () => {
  await using stub = await startStub(pagedMessages(10));
  const rows = await clientFor(stub.url).messages.list({ until: u(10) }).toArray();
  assert.deepEqual(rows, []);
  assert.equal(stub.requests.length, 1);
});

Deno.test("a mark never found consumes the whole list", async () => {
  await using stub = await startStub(pagedMessages(120));
  const rows = await clientFor(stub.url).messages.list({ until: u(99999) }).toArray();
  assert.equal(rows.length, 120);
  assert.equal(stub.requests.length, 3);
});

Deno.test("breaking out of the loop early fetches no extra page", async () => {
  await using stub = await startStub(pagedMessages(120));
  let seen = 0;
  for await (const _ of clientFor(stub.url).messages.list()) {
    if (++seen === 50) break;
  }
  assert.equal(stub.requests.length, 1);
});

Deno.test("limit 51 reads a second page, limit 50 does not", async () => {
  await using stub = await startStub(pagedMessages(120));
  const client = clientFor(stub.url);
  assert.equal((await client.messages.list({ limit: 50 }).toArray()).length, 50);
  assert.equal(stub.requests.length, 1);
  assert.equal((await client.messages.list({ limit: 51 }).toArray()).length, 51);
  assert.equal(stub.requests.length, 3);
});

Deno.test("iteration is lazy: nothing is fetched until the first row is asked for", async () => {
  await using stub = await startStub(pagedMessages(3));
  const list = clientFor(stub.url).messages.list();
  assert.equal(stub.requests.length, 0);
  const it = list[Symbol.asyncIterator]();
  await it.next();
  assert.equal(stub.requests.length, 1);
  await it.return?.();
});

Deno.test("page() returns one page and its cursor; before is passed through", async () => {
  await using stub = await startStub(pagedMessages(70));
  const client = clientFor(stub.url);
  const first = await client.messages.page({ timeline: TIMELINE });
  assert.equal(first.items.length, 50);
  assert.equal(first.nextCursor, u(21));
  const second = await client.messages.page({ timeline: TIMELINE, before: first.nextCursor! });
  assert.equal(second.items.length, 20);
  assert.equal(second.nextCursor, null);
  assert.equal(stub.requests[1].query.get("before"), u(21));
});

Deno.test("task filters compose with the cursor", async () => {
  await using stub = await startStub(() => json({ tasks: [], next_cursor: null }));
  await clientFor(stub.url).tasks.list({ timeline: TIMELINE, status: "activated", before: u(5) })
    .toArray();
  const q = stub.requests[0].query;
  assert.equal(q.get("timeline"), TIMELINE);
  assert.equal(q.get("status"), "activated");
  assert.equal(q.get("before"), u(5));
});

Deno.test("webhook event filters compose", async () => {
  await using stub = await startStub(() => json({ webhook_events: [], next_cursor: null }));
  await clientFor(stub.url).webhookEvents.page({ timeline: TIMELINE, endpoint: u(3) });
  assert.equal(stub.requests[0].query.get("timeline"), TIMELINE);
  assert.equal(stub.requests[0].query.get("endpoint"), u(3));
});

Deno.test("a server that repeats a cursor is a MalformedResponseError, not an endless loop", async () => {
  await using stub = await startStub(() => json({ messages: [message(5)], next_cursor: u(5) }));
  await assert.rejects(
    clientFor(stub.url).messages.list().toArray(),
    (e: unknown) => e instanceof MalformedResponseError && e.field === "next_cursor",
  );
  assert.equal(stub.requests.length, 2);
});

Deno.test("a page without next_cursor is malformed", async () => {
  await using stub = await startStub(() => json({ messages: [] }));
  await assert.rejects(
    clientFor(stub.url).messages.page(),
    (e: unknown) =>
      e instanceof MalformedResponseError && e.field === "next_cursor" &&
      e.endpoint === "GET /messages",
  );
});
