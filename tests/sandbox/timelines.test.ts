import { strict as assert } from "node:assert";
import { expectProblem, withSandbox } from "./helpers.ts";

Deno.test("viewers read and post; non-viewers get 403 not_a_viewer; unknown is 404", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const eve = await h.user("eve");
    const tl = await h.timeline(ada);
    const m = await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "x" } });
    const mid = m.body.message.content.uuid;
    expectProblem(await eve.api.get(`/timelines/${tl}`), 403, "not_a_viewer");
    expectProblem(await eve.api.get(`/messages/${mid}`), 403, "not_a_viewer");
    expectProblem(
      await eve.api.post(`/timelines/${tl}/messages`, { message: { body: "y" } }),
      403,
      "not_a_viewer",
    );
    expectProblem(await eve.api.post(`/timelines/${tl}/lock`), 403, "not_a_viewer");
    // Unfiltered and filtered lists simply do not show what you cannot view.
    assert.equal((await eve.api.get("/messages")).body.messages.length, 0);
    assert.equal((await eve.api.get(`/messages?timeline=${tl}`)).body.messages.length, 0);
    assert.equal((await eve.api.get("/timelines")).body.timelines.length, 0);
    expectProblem(
      await ada.api.get("/timelines/0198c2a2-0a00-7c11-a9f0-1e2d3c4b5a60"),
      404,
      "not_found",
    );
    expectProblem(await ada.api.get("/timelines/nope"), 404, "not_found");
    expectProblem(await ada.api.get("/messages/nope"), 404, "not_found");
  }));

Deno.test("timeline cap: max_timelines reached answers 422 with errors.owner", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada", "human", { max_timelines: 1 });
    await h.timeline(ada);
    const r = await ada.api.post("/timelines", { timeline: { name: "two" } });
    const p = expectProblem(r, 422, "validation_failed");
    assert.deepEqual(p.errors, { owner: ["has reached the timeline limit"] });
    const blank = expectProblem(
      await ada.api.post("/timelines", { timeline: { name: "  " } }),
      422,
      "validation_failed",
    );
    assert.deepEqual(blank.errors, { name: ["can't be blank"] });
  }));

Deno.test("lock: any viewer, idempotent, superset body; content creates and ingest refused", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const vega = await h.user("vega", "ai");
    await h.mutual(ada, vega);
    const tl = await h.timeline(ada);
    assert.equal(
      (await ada.api.post(`/timelines/${tl}/participations`, { user_id: vega.uuid })).status,
      201,
    );
    const ep = await ada.api.post(`/timelines/${tl}/webhook_endpoints`, {
      webhook_endpoint: { description: "ci" },
    });
    const task = await ada.api.post(`/timelines/${tl}/tasks`, {
      task: { instructions: "later", activate_at: "2999-01-01T00:00:00Z" },
    });
    const l = await vega.api.post(`/timelines/${tl}/lock`);
    assert.equal(l.status, 200);
    assert.equal(l.body.uuid, tl);
    assert.equal(l.body.locked, true);
    assert.equal(l.body.timeline.locked, true);
    assert.equal((await ada.api.post(`/timelines/${tl}/lock`)).status, 200);
    expectProblem(
      await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "x" } }),
      403,
      "timeline_locked",
    );
    expectProblem(
      await ada.api.post(`/timelines/${tl}/tasks`, {
        task: { instructions: "x", activate_at: "2999-01-01T00:00:00Z" },
      }),
      403,
      "timeline_locked",
    );
    expectProblem(
      await ada.api.post(`/timelines/${tl}/webhook_endpoints`, {
        webhook_endpoint: { description: "x" },
      }),
      403,
      "timeline_locked",
    );
    const form = new FormData();
    form.append("asset[file]", new File(["hi"], "a.txt"));
    expectProblem(await ada.api.post(`/timelines/${tl}/assets`, form), 403, "timeline_locked");
    const ingest = await fetch(ep.body.webhook_endpoint.content.ingest_url, {
      method: "POST",
      body: "{}",
    });
    expectProblem(
      { status: ingest.status, headers: ingest.headers, body: await ingest.json(), text: "" },
      403,
      "timeline_locked",
    );
    // Governance still works: cancel a task, remove a participant, delete.
    const c = await ada.api.post(`/tasks/${task.body.task.content.uuid}/cancellation`);
    assert.equal(c.body.task.content.status, "cancelled");
    assert.equal(
      (await ada.api.delete(`/timelines/${tl}/participations/${vega.uuid}`)).status,
      204,
    );
    assert.equal((await ada.api.delete(`/timelines/${tl}`)).status, 204);
  }));

Deno.test("delete: owner only, cascades to every content read as 404, fires timeline.deleted", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const bob = await h.user("bob");
    await h.mutual(ada, bob);
    const tl = await h.timeline(ada);
    await ada.api.post(`/timelines/${tl}/participations`, { user_id: bob.uuid });
    const m = await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "x" } });
    const form = new FormData();
    form.append("asset[file]", new File(["hello"], "a.txt"));
    const a = await ada.api.post(`/timelines/${tl}/assets`, form);
    const t = await ada.api.post(`/timelines/${tl}/tasks`, {
      task: { instructions: "x", activate_at: "2999-01-01T00:00:00Z" },
    });
    const ep = await ada.api.post(`/timelines/${tl}/webhook_endpoints`, {
      webhook_endpoint: { description: "x" },
    });
    const ingestUrl = ep.body.webhook_endpoint.content.ingest_url;
    assert.equal(
      await fetch(ingestUrl, { method: "POST", body: "{}" }).then((r) =>
        r.body?.cancel().then(() => r.status)
      ),
      201,
    );
    const ev = (await ada.api.get(`/webhook_events?timeline=${tl}`)).body.webhook_events[0];
    expectProblem(await bob.api.delete(`/timelines/${tl}`), 403, "not_timeline_owner");
    assert.equal((await ada.api.delete(`/timelines/${tl}`)).status, 204);
    for (const client of [ada.api, bob.api]) {
      expectProblem(await client.get(`/timelines/${tl}`), 404, "not_found");
      expectProblem(await client.get(`/messages/${m.body.message.content.uuid}`), 404, "not_found");
      expectProblem(await client.get(`/assets/${a.body.asset.content.uuid}`), 404, "not_found");
      expectProblem(await client.get(`/tasks/${t.body.task.content.uuid}`), 404, "not_found");
      expectProblem(
        await client.get(`/webhook_endpoints/${ep.body.webhook_endpoint.content.uuid}`),
        404,
        "not_found",
      );
      expectProblem(await client.get(`/webhook_events/${ev.content.uuid}`), 404, "not_found");
      expectProblem(
        await client.post(`/timelines/${tl}/messages`, { message: { body: "y" } }),
        404,
        "not_found",
      );
      expectProblem(await client.delete(`/timelines/${tl}`), 404, "not_found");
    }
    assert.equal(
      await fetch(a.body.asset.content.file.url).then((r) => r.body?.cancel().then(() => r.status)),
      404,
    );
    assert.equal(
      await fetch(ingestUrl, { method: "POST", body: "{}" }).then((r) =>
        r.body?.cancel().then(() => r.status)
      ),
      404,
    );
    const events = (await h.admin.get("/_sandbox/events")).body.events;
    const last = events[events.length - 1];
    assert.equal(last.event, "timeline.deleted");
    assert.equal(last.timeline, tl);
    assert.equal(last.actor, ada.uuid);
  }));

Deno.test("participations: owner only, mutual trust with every viewer, idempotent", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const bob = await h.user("bob");
    const cy = await h.user("cy");
    const tl = await h.timeline(ada);
    // No trust yet.
    const noTrust = expectProblem(
      await ada.api.post(`/timelines/${tl}/participations`, { user_id: bob.uuid }),
      422,
      "validation_failed",
    );
    assert.deepEqual(noTrust.errors, { user: ["must have mutual trust with every viewer"] });
    // One-way is not enough.
    await ada.api.post(`/users/${bob.uuid}/trust`);
    expectProblem(
      await ada.api.post(`/timelines/${tl}/participations`, { user_id: bob.uuid }),
      422,
      "validation_failed",
    );
    await bob.api.post(`/users/${ada.uuid}/trust`);
    const add = await ada.api.post(`/timelines/${tl}/participations`, { user_id: bob.uuid });
    assert.equal(add.status, 201);
    assert.equal(add.body.user.uuid, bob.uuid);
    assert.equal(add.body.user.trust.mutual, true);
    assert.equal(
      (await ada.api.post(`/timelines/${tl}/participations`, { user_id: bob.uuid })).status,
      201,
    );
    const tlBody = (await bob.api.get(`/timelines/${tl}`)).body.timeline;
    assert.deepEqual(tlBody.participants.map((p: { handle: string }) => p.handle), ["bob"]);
    // cy trusts ada mutually but not bob: every viewer must be mutual.
    await h.mutual(ada, cy);
    expectProblem(
      await ada.api.post(`/timelines/${tl}/participations`, { user_id: cy.uuid }),
      422,
      "validation_failed",
    );
    await h.mutual(bob, cy);
    expectProblem(
      await bob.api.post(`/timelines/${tl}/participations`, { user_id: cy.uuid }),
      403,
      "not_timeline_owner",
    );
    assert.equal(
      (await ada.api.post(`/timelines/${tl}/participations`, { user_id: cy.uuid })).status,
      201,
    );
    expectProblem(
      await ada.api.post(`/timelines/${tl}/participations`, { user_id: "nobody" }),
      422,
      "validation_failed",
    );
    expectProblem(
      await bob.api.delete(`/timelines/${tl}/participations/${cy.uuid}`),
      403,
      "not_timeline_owner",
    );
    assert.equal((await ada.api.delete(`/timelines/${tl}/participations/${cy.uuid}`)).status, 204);
    assert.equal((await ada.api.delete(`/timelines/${tl}/participations/${cy.uuid}`)).status, 204);
    expectProblem(await cy.api.get(`/timelines/${tl}`), 403, "not_a_viewer");
    // Revoking trust does not evict.
    await ada.api.delete(`/users/${bob.uuid}/trust`);
    assert.equal((await bob.api.get(`/timelines/${tl}`)).status, 200);
  }));

Deno.test("timelines list: viewer's own and shared, newest first", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const bob = await h.user("bob");
    await h.mutual(ada, bob);
    const a1 = await h.timeline(ada, "a1");
    const b1 = await h.timeline(bob, "b1");
    await h.timeline(bob, "b2");
    await bob.api.post(`/timelines/${b1}/participations`, { user_id: ada.uuid });
    const list = await ada.api.get("/timelines");
    assert.deepEqual(list.body.timelines.map((t: { uuid: string }) => t.uuid), [b1, a1]);
    assert.ok(!("items" in list.body.timelines[0]));
    assert.equal(list.body.next_cursor, null);
  }));
