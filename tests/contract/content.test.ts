/** Contract: messages, assets, tasks, webhook endpoints and events through the real client. */
import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import {
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  PlatformError,
  UnprocessableError,
} from "../../lib/platform/mod.ts";
import { type Contract, expectError, type Peer, withContract } from "./helpers.ts";
import { asUser } from "../support/cleared.ts";

/** ada owns a timeline shared with vega (mutual trust); eve is a stranger. */
async function shared(c: Contract): Promise<{ ada: Peer; vega: Peer; eve: Peer; tl: string }> {
  const ada = await c.user("ada");
  const vega = await c.user("vega", { kind: "ai" });
  const eve = await c.user("eve");
  await c.mutual(ada, vega);
  const tl = (await ada.client.timelines.create({ name: "Shared" })).timeline.uuid;
  await ada.client.timelines.addParticipant(tl, vega.uuid);
  return { ada, vega, eve, tl };
}

Deno.test("contract: messages create/get/list and the timeline's inline items", () =>
  withContract(async (c) => {
    const { ada, vega, eve, tl } = await shared(c);
    const first = await ada.client.messages.create(tl, asUser("message", { body: "@vega hello" }));
    assert.equal(first.type, "message");
    assert.equal(first.user.uuid, ada.uuid);
    assert.equal(first.timeline.uuid, tl);
    assert.equal(first.content.body, "@vega hello");
    assert.match(first.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const second = await vega.client.messages.create(tl, asUser("message", { body: "hi ada" }));

    assert.deepEqual(await vega.client.messages.get(first.content.uuid), first);
    const listed = await ada.client.messages.list({ timeline: tl }).toArray();
    assert.deepEqual(listed.map((m) => m.content.body), ["hi ada", "@vega hello"]);
    const all = await vega.client.messages.list().toArray();
    assert.equal(all.length, 2, "unfiltered lists span every timeline you view");

    const { items } = await ada.client.timelines.get(tl);
    assert.deepEqual(items.map((i) => i.content.uuid), [first.content.uuid, second.content.uuid]);

    await expectError(eve.client.messages.get(first.content.uuid), ForbiddenError, "not_a_viewer");
    assert.deepEqual(await eve.client.messages.list({ timeline: tl }).toArray(), []);
    const blank = await expectError(
      ada.client.messages.create(tl, asUser("message", { body: " " })),
      UnprocessableError,
      "validation_failed",
    );
    assert.deepEqual(blank.fieldErrors, { body: ["can't be blank"] });
    await expectError(
      ada.client.messages.page({ timeline: "nope" }),
      InvalidRequestError,
      "invalid_filter",
    );
    await expectError(
      ada.client.messages.page({ before: "nope" }),
      InvalidRequestError,
      "invalid_cursor",
    );
    const events = (await c.events()).filter((e) => e.event === "message.created");
    assert.deepEqual(events.map((e) => e.item), [first.content.uuid, second.content.uuid]);
  }));

Deno.test("contract: assets — multipart upload, derived metadata, checksum, blob download without auth", () =>
  withContract(async (c) => {
    const { ada, vega, tl } = await shared(c);
    const csv = new TextEncoder().encode("a,b\n1,2\n");
    const asset = await ada.client.assets.create(
      tl,
      asUser("asset", {
        file: csv,
        filename: "numbers.csv",
        description: "Quarterly numbers",
      }),
    );
    assert.equal(asset.type, "asset");
    assert.equal(asset.content.description, "Quarterly numbers");
    const file = asset.content.file!;
    assert.equal(file.filename, "numbers.csv");
    assert.equal(file.byte_size, csv.byteLength);
    assert.equal(file.content_type, "text/csv");
    assert.equal(file.checksum, createHash("md5").update(csv).digest("base64"));

    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const image = await vega.client.assets.create(
      tl,
      asUser("asset", {
        file: png,
        filename: "pic.bin",
      }),
    );
    assert.equal(image.content.file?.content_type, "image/png", "identified from the bytes");
    assert.equal(image.content.description, "", "no description part was sent");

    assert.deepEqual(await vega.client.assets.get(asset.content.uuid), asset);
    const listed = await ada.client.assets.list({ timeline: tl }).toArray();
    assert.deepEqual(listed.map((a) => a.content.uuid), [image.content.uuid, asset.content.uuid]);

    // The blob URL is the credential: a client with no token at all can fetch it.
    const anon = c.client({});
    const blob = await anon.assets.download(asset);
    assert.deepEqual(blob.bytes, csv);
    assert.match(blob.contentType ?? "", /^text\/csv/);
    const blobRequest = c.sandbox.requests.findLast((r) => r.path.startsWith("/blobs/"));
    assert.equal(blobRequest?.status, 200);
    assert.deepEqual((await anon.assets.download(image.content.file!.url)).bytes, png);

    const events = (await c.events()).filter((e) => e.event === "asset.created");
    assert.equal(events.length, 2);
  }));

Deno.test("contract: tasks — pending, list by status, admin activate, cancel refusals", () =>
  withContract(async (c) => {
    const { ada, vega, tl } = await shared(c);
    const later = new Date(Date.now() + 3_600_000);
    const mine = await vega.client.tasks.create(
      tl,
      asUser("task", {
        instructions: "check in",
        activateAt: later,
      }),
    );
    assert.equal(mine.content.status, "pending");
    assert.equal(mine.content.activate_at, later.toISOString());
    const other = await vega.client.tasks.create(
      tl,
      asUser("task", {
        instructions: "offset form",
        activateAt: "2099-01-01T12:00:00+02:00",
      }),
    );
    assert.equal(other.content.activate_at, "2099-01-01T10:00:00.000Z");

    assert.deepEqual(
      (await ada.client.tasks.list({ timeline: tl, status: "pending" }).toArray()).length,
      2,
    );
    assert.deepEqual(
      await ada.client.tasks.list({ timeline: tl, status: "activated" }).toArray(),
      [],
    );

    assert.equal(await c.activate(mine.content.uuid), 200);
    const activated = await ada.client.tasks.list({ timeline: tl, status: "activated" }).toArray();
    assert.deepEqual(activated.map((t) => t.content.uuid), [mine.content.uuid]);
    assert.equal((await vega.client.tasks.get(mine.content.uuid)).content.status, "activated");
    const fired = (await c.events()).filter((e) => e.event === "task.activated");
    assert.deepEqual(fired.map((e) => e.item), [mine.content.uuid]);

    await expectError(
      ada.client.tasks.cancel(other.content.uuid),
      ForbiddenError,
      "not_task_author",
    );
    await expectError(
      vega.client.tasks.cancel(mine.content.uuid),
      ConflictError,
      "task_not_pending",
    );
    const cancelled = await vega.client.tasks.cancel(other.content.uuid);
    assert.equal(cancelled.content.status, "cancelled");
    await expectError(
      vega.client.tasks.cancel(other.content.uuid),
      ConflictError,
      "task_not_pending",
    );
    assert.deepEqual(
      (await ada.client.tasks.list({ status: "cancelled" }).toArray()).map((t) => t.content.uuid),
      [other.content.uuid],
    );
    await expectError(
      ada.client.tasks.page({ status: "done" }),
      InvalidRequestError,
      "invalid_filter",
    );
    await expectError(
      ada.client.tasks.create(tl, asUser("task", { instructions: "x", activateAt: "whenever" })),
      UnprocessableError,
      "validation_failed",
    );
  }));

Deno.test("contract: webhook endpoints create/list/get/enable/disable/rotate; ingest and events", () =>
  withContract(async (c) => {
    const { ada, vega, eve, tl } = await shared(c);
    const endpoint = await vega.client.webhookEndpoints.create(
      tl,
      asUser("webhook_endpoint", { description: "CI" }),
    );
    assert.equal(endpoint.type, "webhook_endpoint");
    assert.equal(endpoint.content.enabled, true);
    assert.equal(endpoint.user?.uuid, vega.uuid);
    const id = endpoint.content.uuid;
    const url = endpoint.content.ingest_url;
    assert.ok(url.startsWith(`${c.baseUrl}/webhooks/`));

    assert.deepEqual(await ada.client.webhookEndpoints.get(id), endpoint);
    const second = await ada.client.webhookEndpoints.create(
      tl,
      asUser("webhook_endpoint", { description: "Alerts" }),
    );
    assert.deepEqual(
      (await ada.client.webhookEndpoints.list({ timeline: tl }).toArray()).map((e) =>
        e.content.uuid
      ),
      [second.content.uuid, id],
    );
    await expectError(eve.client.webhookEndpoints.get(id), ForbiddenError, "not_a_viewer");
    await expectError(eve.client.webhookEndpoints.disable(id), ForbiddenError, "not_a_viewer");

    // Ingest via the client (no token), by full URL and by bare token.
    const anon = c.client({});
    const one = await anon.webhookEvents.ingest(url, '{"build":42,"ok":false}', {
      contentType: "application/json",
      headers: { "X-GitHub-Delivery": "d-1" },
    });
    assert.equal(one.status, 201);
    const token = url.slice(url.lastIndexOf("/") + 1);
    await anon.webhookEvents.ingest(token, "plain text");
    await anon.webhookEvents.ingest(second.content.ingest_url, "other endpoint");

    const events = await vega.client.webhookEvents.list({ timeline: tl, endpoint: id }).toArray();
    assert.deepEqual(events.map((e) => e.content.payload), [
      "plain text",
      '{"build":42,"ok":false}',
    ]);
    const json = events[1];
    assert.equal(json.endpoint_uuid, id, "resolved from the embedded endpoint");
    assert.equal(json.content.content_type, "application/json");
    assert.equal(json.content.headers?.["X-Github-Delivery"], "d-1", "Title-Cased header names");
    assert.equal(json.content.ingest_token_at_receipt, token);
    assert.deepEqual(await ada.client.webhookEvents.get(json.content.uuid), json);
    assert.equal((await ada.client.webhookEvents.list({ timeline: tl }).toArray()).length, 3);
    assert.deepEqual(
      (await ada.client.webhookEvents.list({ endpoint: second.content.uuid }).toArray()).map((e) =>
        e.content.payload
      ),
      ["other endpoint"],
    );
    assert.deepEqual(await eve.client.webhookEvents.list({ timeline: tl }).toArray(), []);
    const received = (await c.events()).filter((e) => e.event === "webhook_event.received");
    assert.equal(received.length, 3);
    assert.equal(received[0].actor, null);

    // Disable → 410 on ingest; enable → accepted again.
    const off = await ada.client.webhookEndpoints.disable(id);
    assert.equal(off.content.enabled, false);
    await expectError(anon.webhookEvents.ingest(url, "x"), GoneError, "endpoint_disabled");
    const on = await ada.client.webhookEndpoints.enable(id);
    assert.equal(on.content.enabled, true);
    assert.equal((await anon.webhookEvents.ingest(url, "back")).status, 201);

    // Rotate: a new URL, same uuid and history; the old URL dies at once.
    const rotated = await vega.client.webhookEndpoints.rotate(id);
    assert.equal(rotated.content.uuid, id);
    assert.notEqual(rotated.content.ingest_url, url);
    await expectError(anon.webhookEvents.ingest(url, "stale"), NotFoundError, "not_found");
    assert.equal(
      (await anon.webhookEvents.ingest(rotated.content.ingest_url, "fresh")).status,
      201,
    );
    const after = await ada.client.webhookEvents.list({ endpoint: id }).toArray();
    assert.deepEqual(after.map((e) => e.content.payload).slice(0, 2), ["fresh", "back"]);
    assert.equal(after.length, 4, "history survives rotation");

    const blank = await expectError(
      ada.client.webhookEndpoints.create(tl, asUser("webhook_endpoint", { description: "" })),
      UnprocessableError,
      "validation_failed",
    );
    assert.deepEqual(blank.fieldErrors, { description: ["can't be blank"] });
  }));

Deno.test("contract: ingest refusals — too large, not text; a due task on a locked timeline is blocked", () =>
  withContract(async (c) => {
    const { ada, vega, tl } = await shared(c);
    const endpoint = await ada.client.webhookEndpoints.create(
      tl,
      asUser("webhook_endpoint", { description: "CI" }),
    );
    const anon = c.client({});
    await expectError(
      anon.webhookEvents.ingest(endpoint.content.ingest_url, "x".repeat(65)),
      PayloadTooLargeError,
      "payload_too_large",
    );
    const binary = await expectError(
      anon.webhookEvents.ingest(endpoint.content.ingest_url, new Uint8Array([0xff, 0xfe, 0x00])),
      PlatformError,
      "binary_payload",
    );
    assert.equal(binary.status, 415);
    assert.deepEqual(await ada.client.webhookEvents.list({ timeline: tl }).toArray(), []);

    const task = await vega.client.tasks.create(
      tl,
      asUser("task", {
        instructions: "too late",
        activateAt: new Date(Date.now() + 3_600_000),
      }),
    );
    await ada.client.timelines.lock(tl);
    assert.equal(await c.activate(task.content.uuid), 200);
    const blocked = await vega.client.tasks.list({
      timeline: tl,
      status: "blocked_timeline_locked",
    })
      .toArray();
    assert.deepEqual(blocked.map((t) => t.content.uuid), [task.content.uuid]);
    assert.equal((await c.events()).filter((e) => e.event === "task.activated").length, 0);
  }, { limits: { webhookBytes: 64 } }));
