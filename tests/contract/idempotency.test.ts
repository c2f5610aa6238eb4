/** Contract: replay-protected creates under the harness's deterministic Idempotency-Keys. */
import { strict as assert } from "node:assert";
import { idempotencyKey, type KeyedKind } from "../../lib/platform/mod.ts";
import { withContract } from "./helpers.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("contract: the same key returns the same record, fires no second event, ignores the new body", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const vega = await c.user("vega", { kind: "ai" });
    await c.mutual(ada, vega);
    const tl = (await ada.client.timelines.create({ name: "Keys" })).timeline.uuid;
    await ada.client.timelines.addParticipant(tl, vega.uuid);
    const anchor =
      (await ada.client.messages.create(tl, asUser("message", { body: "@vega ping" }))).content
        .uuid;
    const key = (kind: KeyedKind, ordinal = 1) =>
      idempotencyKey({ timeline: tl, anchor, kind, ordinal });

    const m1 = await vega.client.messages.create(tl, asUser("message", { body: "pong" }), {
      idempotencyKey: await key("message"),
    });
    const m2 = await vega.client.messages.create(tl, asUser("message", { body: "pong (retry)" }), {
      idempotencyKey: await key("message"),
    });
    assert.equal(m2.content.uuid, m1.content.uuid);
    assert.equal(m2.content.body, "pong", "the replay returns the original body");
    const m3 = await vega.client.messages.create(tl, asUser("message", { body: "second reply" }), {
      idempotencyKey: await key("message", 2),
    });
    assert.notEqual(m3.content.uuid, m1.content.uuid, "another ordinal is another record");

    const a1 = await vega.client.assets.create(
      tl,
      asUser("asset", {
        file: new TextEncoder().encode("v1"),
        filename: "notes.md",
      }),
      { idempotencyKey: await key("asset") },
    );
    const a2 = await vega.client.assets.create(
      tl,
      asUser("asset", {
        file: new TextEncoder().encode("v2, longer"),
        filename: "other.md",
      }),
      { idempotencyKey: await key("asset") },
    );
    assert.deepEqual(a2, a1);

    const when = new Date(Date.now() + 3_600_000);
    const t1 = await vega.client.tasks.create(
      tl,
      asUser("task", { instructions: "remind", activateAt: when }),
      {
        idempotencyKey: await key("task"),
      },
    );
    const t2 = await vega.client.tasks.create(
      tl,
      asUser("task", { instructions: "changed", activateAt: when }),
      {
        idempotencyKey: await key("task"),
      },
    );
    assert.deepEqual(t2, t1);
    // An activated task replays as itself; activation is not repeated.
    assert.equal(await c.activate(t1.content.uuid), 200);
    const t3 = await vega.client.tasks.create(
      tl,
      asUser("task", { instructions: "again", activateAt: when }),
      {
        idempotencyKey: await key("task"),
      },
    );
    assert.equal(t3.content.uuid, t1.content.uuid);
    assert.equal(t3.content.status, "activated");

    const e1 = await vega.client.webhookEndpoints.create(
      tl,
      asUser("webhook_endpoint", { description: "CI" }),
      {
        idempotencyKey: await key("webhook_endpoint"),
      },
    );
    const e2 = await vega.client.webhookEndpoints.create(
      tl,
      asUser("webhook_endpoint", { description: "CI 2" }),
      {
        idempotencyKey: await key("webhook_endpoint"),
      },
    );
    assert.deepEqual(e2, e1);

    // The key is scoped per author: ada using vega's key makes her own record.
    const mine = await ada.client.messages.create(tl, asUser("message", { body: "mine" }), {
      idempotencyKey: await key("message"),
    });
    assert.notEqual(mine.content.uuid, m1.content.uuid);

    // One event per record, none for replays.
    const events = await c.events();
    const byItem = (uuid: string) => events.filter((e) => e.item === uuid).map((e) => e.event);
    assert.deepEqual(byItem(m1.content.uuid), ["message.created"]);
    assert.deepEqual(byItem(a1.content.uuid), ["asset.created"]);
    assert.deepEqual(byItem(t1.content.uuid), ["task.activated"]);
    assert.equal(events.filter((e) => e.event === "message.created").length, 4);
    assert.equal((await ada.client.messages.list({ timeline: tl }).toArray()).length, 4);

    // The key rode on the wire exactly as derived, on every attempt, and only on creates.
    const sent = c.sandbox.requests.filter((r) => r.idempotencyKey !== null);
    assert.equal(sent.length, 11);
    assert.ok(sent.every((r) => r.method === "POST" && /^\/timelines\/[^/]+\/\w+$/.test(r.path)));
    assert.deepEqual(
      sent.filter((r) => r.path.endsWith("/messages")).map((r) => r.idempotencyKey),
      [await key("message"), await key("message"), await key("message", 2), await key("message")],
    );
    assert.equal(
      c.sandbox.requests.filter((r) => r.path === "/timelines" && r.idempotencyKey).length,
      0,
      "timeline creates are never keyed",
    );
  }));
