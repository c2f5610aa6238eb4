import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import { expectProblem, withSandbox } from "./helpers.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

Deno.test("assets: multipart upload, derived metadata, unauthenticated blob download", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const form = new FormData();
    form.append("asset[file]", new File([PNG], "pic.bin", { type: "application/octet-stream" }));
    form.append("asset[description]", "a picture");
    const r = await ada.api.post(`/timelines/${tl}/assets`, form);
    assert.equal(r.status, 201);
    const content = r.body.asset.content;
    assert.equal(content.description, "a picture");
    assert.equal(content.file.filename, "pic.bin");
    assert.equal(content.file.byte_size, PNG.byteLength);
    assert.equal(content.file.content_type, "image/png");
    assert.equal(content.file.checksum, createHash("md5").update(PNG).digest("base64"));
    const blob = await fetch(content.file.url); // no Authorization header
    assert.equal(blob.status, 200);
    assert.equal(blob.headers.get("content-type"), "image/png");
    assert.deepEqual(new Uint8Array(await blob.arrayBuffer()), PNG);
    assert.equal(h.sandbox.events().at(-1)?.event, "asset.created");

    const text = new FormData();
    text.append("asset[file]", new File(["a,b\n1,2\n"], "q.csv"));
    const csv = await ada.api.post(`/timelines/${tl}/assets`, text);
    assert.equal(csv.body.asset.content.file.content_type, "text/csv");
    assert.equal(csv.body.asset.content.description, "");
    const list = await ada.api.get(`/assets?timeline=${tl}`);
    assert.equal(list.body.assets[0].content.uuid, csv.body.asset.content.uuid);

    const none = new FormData();
    none.append("asset[description]", "no file");
    const p = expectProblem(
      await ada.api.post(`/timelines/${tl}/assets`, none),
      422,
      "validation_failed",
    );
    assert.deepEqual(p.errors, { file: ["can't be blank"] });
    expectProblem(
      await ada.api.post(`/timelines/${tl}/assets`, { asset: { file: "x" } }),
      422,
      "validation_failed",
    );
    const missing = await fetch(`${h.base}/blobs/nope/x.txt`);
    await missing.body?.cancel();
    assert.equal(missing.status, 404);
  }));

Deno.test("assets: uploads over the limit are 413", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const form = new FormData();
    form.append("asset[file]", new File([new Uint8Array(4096)], "big.bin"));
    expectProblem(await ada.api.post(`/timelines/${tl}/assets`, form), 413, "payload_too_large");
  }, { limits: { multipartBytes: 1024 } }));

Deno.test("tasks: pending on create, due activation by clock, event, cap, admin activate", async () => {
  let now = Date.parse("2030-01-01T00:00:00Z");
  await withSandbox(async (h) => {
    const vega = await h.user("vega", "ai");
    const ada = await h.user("ada");
    await h.mutual(ada, vega);
    const tl = await h.timeline(vega);
    await vega.api.post(`/timelines/${tl}/participations`, { user_id: ada.uuid });
    const create = (at: string) =>
      vega.api.post(`/timelines/${tl}/tasks`, { task: { instructions: "ping", activate_at: at } });
    const t1 = await create("2030-01-01T00:01:00Z");
    assert.equal(t1.status, 201);
    assert.equal(t1.body.task.content.status, "pending");
    assert.equal(t1.body.task.content.activate_at, "2030-01-01T00:01:00.000Z");
    const t2 = await create("2030-01-01T05:00:00");
    const t3 = await create("2030-01-01T06:00:00Z");
    const cap = expectProblem(await create("2030-01-01T07:00:00Z"), 422, "validation_failed");
    assert.ok(cap.errors.base);

    // Time passes: the next request sees t1 activated, and the event fired once.
    now += 90_000;
    const activated = await vega.api.get(`/tasks?timeline=${tl}&status=activated`);
    assert.deepEqual(
      activated.body.tasks.map((t: { content: { uuid: string } }) => t.content.uuid),
      [t1.body.task.content.uuid],
    );
    const events = h.sandbox.events().filter((e) => e.event === "task.activated");
    assert.equal(events.length, 1);
    assert.equal(events[0].actor, vega.uuid);
    assert.equal(events[0].item, t1.body.task.content.uuid);
    // Activated tasks do not count against the cap.
    assert.equal((await create("2030-01-01T07:00:00Z")).status, 201);

    // Admin activation: now, with an event; idempotent for an activated task.
    const id2 = t2.body.task.content.uuid;
    const a = await h.admin.post(`/_sandbox/tasks/${id2}/activate`);
    assert.equal(a.status, 200);
    assert.equal(a.body.task.content.status, "activated");
    assert.equal((await h.admin.post(`/_sandbox/tasks/${id2}/activate`)).status, 200);
    assert.equal(h.sandbox.events().filter((e) => e.event === "task.activated").length, 2);
    expectProblem(
      await h.admin.post(`/_sandbox/tasks/0198c2a2-0a00-7c11-a9f0-1e2d3c4b5a60/activate`),
      404,
      "not_found",
    );

    // Cancellation errors.
    const id3 = t3.body.task.content.uuid;
    expectProblem(await ada.api.post(`/tasks/${id3}/cancellation`), 403, "not_task_author");
    expectProblem(await vega.api.post(`/tasks/${id2}/cancellation`), 409, "task_not_pending");
    const c = await vega.api.post(`/tasks/${id3}/cancellation`);
    assert.equal(c.status, 200);
    assert.equal(c.body.task.content.status, "cancelled");
    expectProblem(await vega.api.post(`/tasks/${id3}/cancellation`), 409, "task_not_pending");
    expectProblem(await h.admin.post(`/_sandbox/tasks/${id3}/activate`), 409, "task_not_pending");
    assert.equal((await vega.api.get(`/tasks?status=cancelled`)).body.tasks.length, 1);
  }, { clock: () => now, taskPollMs: 60_000 });
});

Deno.test("tasks: the timer activates due tasks without any request", () =>
  withSandbox(async (h) => {
    const vega = await h.user("vega", "ai");
    const tl = await h.timeline(vega);
    await vega.api.post(`/timelines/${tl}/tasks`, {
      task: { instructions: "soon", activate_at: new Date(Date.now() + 100).toISOString() },
    });
    const deadline = Date.now() + 3000;
    while (!h.sandbox.events().some((e) => e.event === "task.activated")) {
      assert.ok(Date.now() < deadline, "task never activated");
      await new Promise((r) => setTimeout(r, 25));
    }
  }, { taskPollMs: 50 }));

Deno.test("webhooks: endpoints, verbs, ingest → event with Title-Cased headers, errors", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const eve = await h.user("eve");
    const tl = await h.timeline(ada);
    const created = await ada.api.post(`/timelines/${tl}/webhook_endpoints`, {
      webhook_endpoint: { description: "CI" },
    });
    assert.equal(created.status, 201);
    const ep = created.body.webhook_endpoint;
    assert.equal(ep.type, "webhook_endpoint");
    assert.equal(ep.user.handle, "ada");
    assert.equal(ep.content.enabled, true);
    assert.equal(ep.content.verification.verifier, "hmac_sha256_hex");
    const epId = ep.content.uuid;
    const url = ep.content.ingest_url as string;
    assert.ok(url.startsWith(`${h.base}/webhooks/`));

    const payload = '{"build":42,"ok":false}';
    const sent = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "X-GitHub-Delivery": "abc",
        "user-agent": "ci-bot/2.0",
      },
      body: payload,
    });
    await sent.body?.cancel();
    assert.equal(sent.status, 201);
    const list = await ada.api.get(`/webhook_events?timeline=${tl}&endpoint=${epId}`);
    assert.equal(list.body.webhook_events.length, 1);
    const ev = list.body.webhook_events[0];
    assert.equal(ev.type, "webhook_event");
    assert.ok(!("user" in ev));
    assert.equal(ev.content.payload, payload);
    assert.equal(ev.content.content_type, "application/json");
    assert.equal(ev.content.headers["X-Github-Delivery"], "abc");
    assert.equal(ev.content.headers["User-Agent"], "ci-bot/2.0");
    assert.equal(ev.content.headers["Content-Length"], String(payload.length));
    assert.ok(ev.content.headers["Host"]);
    assert.equal(ev.content.verified_at_receipt, false);
    assert.equal(ev.webhook_endpoint.uuid, epId);
    assert.equal(ev.webhook_endpoint.content.uuid, epId);
    assert.equal(
      (await ada.api.get(`/webhook_events/${ev.content.uuid}`)).body.webhook_event.content.uuid,
      ev.content.uuid,
    );
    expectProblem(await eve.api.get(`/webhook_events/${ev.content.uuid}`), 403, "not_a_viewer");
    expectProblem(await eve.api.post(`/webhook_endpoints/${epId}/rotation`), 403, "not_a_viewer");
    const received = h.sandbox.events().filter((e) => e.event === "webhook_event.received");
    assert.equal(received.length, 1);
    assert.equal(received[0].actor, null);

    const ingest = async (target: string, body: BodyInit = "{}") => {
      const r = await fetch(target, { method: "POST", body });
      const text = await r.text();
      return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : null, text };
    };
    const off = await ada.api.delete(`/webhook_endpoints/${epId}/enablement`);
    assert.equal(off.status, 200);
    assert.equal(off.body.webhook_endpoint.content.enabled, false);
    expectProblem(await ingest(url), 410, "endpoint_disabled");
    const on = await ada.api.post(`/webhook_endpoints/${epId}/enablement`);
    assert.equal(on.body.webhook_endpoint.content.enabled, true);
    const rotated = await ada.api.post(`/webhook_endpoints/${epId}/rotation`);
    assert.equal(rotated.body.webhook_endpoint.content.uuid, epId);
    const newUrl = rotated.body.webhook_endpoint.content.ingest_url;
    assert.notEqual(newUrl, url);
    expectProblem(await ingest(url), 404, "not_found");
    assert.equal((await ingest(newUrl, "plain text")).status, 201);
    expectProblem(await ingest(newUrl, "x".repeat(2048)), 413, "payload_too_large");
    expectProblem(await ingest(newUrl, new Uint8Array([0xff, 0xfe, 0x00])), 415, "binary_payload");
    expectProblem(await ingest(`${h.base}/webhooks/unknown`), 404, "not_found");
    const endpoints = await ada.api.get(`/webhook_endpoints?timeline=${tl}`);
    assert.equal(endpoints.body.webhook_endpoints.length, 1);
    assert.equal((await ada.api.get(`/webhook_events`)).body.webhook_events.length, 2);
  }, { limits: { webhookBytes: 1024 } }));
