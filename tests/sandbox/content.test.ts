import { strict as assert } from "node:assert";
import { expectProblem, withSandbox } from "./helpers.ts";
import { isUuid, Uuid7Generator } from "../../lib/sandbox/mod.ts";

Deno.test("uuid7: well-formed, version 7, strictly increasing even within a millisecond", () => {
  const gen = new Uuid7Generator(() => 1_700_000_000_000);
  let previous = "";
  for (let i = 0; i < 5000; i++) {
    const id = gen.next();
    assert.ok(isUuid(id));
    assert.equal(id[14], "7");
    assert.ok("89ab".includes(id[19]));
    assert.ok(id > previous, `${id} <= ${previous}`);
    previous = id;
  }
  assert.ok(previous.startsWith("018bcfe5-6800"));
  // A clock going backwards does not make ids go backwards.
  let now = 2_000_000_000_000;
  const back = new Uuid7Generator(() => now);
  const a = back.next();
  now -= 10_000;
  assert.ok(back.next() > a);
});

Deno.test("Idempotency-Key: replay returns the original with 201, no second event; scope rules", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const bob = await h.user("bob");
    await h.mutual(ada, bob);
    const t1 = await h.timeline(ada, "one");
    const t2 = await h.timeline(ada, "two");
    await ada.api.post(`/timelines/${t1}/participations`, { user_id: bob.uuid });
    const post = (tl: string, body: string, key: string, who = ada) =>
      who.api.post(`/timelines/${tl}/messages`, { message: { body } }, { "Idempotency-Key": key });
    const first = await post(t1, "original", "k1");
    assert.equal(first.status, 201);
    const eventsBefore = h.sandbox.events().length;
    const replay = await post(t1, "DIFFERENT BODY", "k1");
    assert.equal(replay.status, 201);
    assert.deepEqual(replay.body, first.body);
    assert.equal(h.sandbox.events().length, eventsBefore, "a replay fires no event");
    // Even an unparseable body is ignored on replay.
    const junk = await ada.api.request("POST", `/timelines/${t1}/messages`, "{not json", {
      "content-type": "application/json",
      "Idempotency-Key": "k1",
    });
    assert.equal(junk.status, 201);
    assert.equal(junk.body.message.content.uuid, first.body.message.content.uuid);
    // Other timeline, other author, other kind: new records.
    const other = await post(t2, "original", "k1");
    assert.notEqual(other.body.message.content.uuid, first.body.message.content.uuid);
    const byBob = await post(t1, "original", "k1", bob);
    assert.notEqual(byBob.body.message.content.uuid, first.body.message.content.uuid);
    const ep = await ada.api.post(`/timelines/${t1}/webhook_endpoints`, {
      webhook_endpoint: { description: "d" },
    }, { "Idempotency-Key": "k1" });
    assert.equal(ep.status, 201);
    const epAgain = await ada.api.post(`/timelines/${t1}/webhook_endpoints`, {
      webhook_endpoint: { description: "changed" },
    }, { "Idempotency-Key": "k1" });
    assert.equal(epAgain.body.webhook_endpoint.content.uuid, ep.body.webhook_endpoint.content.uuid);
    assert.equal(epAgain.body.webhook_endpoint.content.description, "d");
    const task = (instructions: string) =>
      ada.api.post(`/timelines/${t1}/tasks`, {
        task: { instructions, activate_at: "2999-01-01T00:00:00+02:00" },
      }, { "Idempotency-Key": "k1" });
    const t = await task("a");
    assert.equal(t.body.task.content.activate_at, "2998-12-31T22:00:00.000Z");
    assert.equal((await task("b")).body.task.content.uuid, t.body.task.content.uuid);
    const form = () => {
      const f = new FormData();
      f.append("asset[file]", new File(["abc"], "a.txt"));
      return f;
    };
    const a1 = await ada.api.post(`/timelines/${t1}/assets`, form(), { "Idempotency-Key": "k1" });
    const a2 = await ada.api.post(`/timelines/${t1}/assets`, form(), { "Idempotency-Key": "k1" });
    assert.equal(a2.body.asset.content.uuid, a1.body.asset.content.uuid);
    const messages = (await ada.api.get(`/messages?timeline=${t1}`)).body.messages;
    assert.equal(messages.length, 2);
    // The request log keeps the key for tests to assert on.
    assert.ok(h.sandbox.requests.some((r) => r.idempotencyKey === "k1"));
    // A replay cannot reach a locked timeline.
    await ada.api.post(`/timelines/${t1}/lock`);
    expectProblem(await post(t1, "original", "k1"), 403, "timeline_locked");
  }));

Deno.test("pagination: 50 per page newest first, exclusive before, invalid cursor and filter", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await ada.api.post(`/timelines/${tl}/messages`, { message: { body: `m${i}` } });
      ids.push(r.body.message.content.uuid);
    }
    let page = await ada.api.get(`/messages?timeline=${tl}`);
    assert.equal(page.body.messages.length, 50);
    assert.equal(page.body.next_cursor, null, "exactly 50 rows: no further page");
    assert.deepEqual(
      page.body.messages.map((m: { content: { uuid: string } }) => m.content.uuid),
      [...ids].reverse(),
    );
    ids.push(
      (await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "m50" } })).body.message
        .content.uuid,
    );
    page = await ada.api.get(`/messages?timeline=${tl}`);
    assert.equal(page.body.messages.length, 50);
    assert.equal(page.body.messages[0].content.body, "m50");
    assert.equal(page.body.next_cursor, ids[1]);
    const next = await ada.api.get(`/messages?timeline=${tl}&before=${page.body.next_cursor}`);
    assert.equal(next.body.messages.length, 1);
    assert.equal(next.body.messages[0].content.uuid, ids[0]);
    assert.equal(next.body.next_cursor, null);
    expectProblem(await ada.api.get(`/messages?before=nope`), 400, "invalid_cursor");
    expectProblem(
      await ada.api.get(`/messages?before=0198c2a2-0a00-7c11-a9f0-1e2d3c4b5a60`),
      400,
      "invalid_cursor",
    );
    expectProblem(await ada.api.get(`/timelines?before=${ids[0]}`), 400, "invalid_cursor");
    expectProblem(await ada.api.get(`/messages?timeline=nope`), 400, "invalid_filter");
    expectProblem(await ada.api.get(`/tasks?status=done`), 400, "invalid_filter");
    expectProblem(await ada.api.get(`/webhook_events?endpoint=x`), 400, "invalid_filter");
    // The timeline view carries every item.
    assert.equal((await ada.api.get(`/timelines/${tl}`)).body.items.length, 51);
  }));

Deno.test("content validation: blank body, description, instructions, bad activate_at", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const p1 = expectProblem(
      await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "" } }),
      422,
      "validation_failed",
    );
    assert.deepEqual(p1.errors, { body: ["can't be blank"] });
    const p2 = expectProblem(
      await ada.api.post(`/timelines/${tl}/webhook_endpoints`, { webhook_endpoint: {} }),
      422,
      "validation_failed",
    );
    assert.deepEqual(p2.errors, { description: ["can't be blank"] });
    const p3 = expectProblem(
      await ada.api.post(`/timelines/${tl}/tasks`, {
        task: { instructions: "x", activate_at: "soon" },
      }),
      422,
      "validation_failed",
    );
    assert.deepEqual(p3.errors, { activate_at: ["is invalid"] });
    const p4 = expectProblem(
      await ada.api.post(`/timelines/${tl}/messages`, { body: "not nested" }),
      422,
      "validation_failed",
    );
    assert.deepEqual(p4.errors, { message: ["can't be blank"] });
  }));
