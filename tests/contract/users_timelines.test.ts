/** Contract: dashboard, directory and trust; timelines, lock, participants, delete. */
import { strict as assert } from "node:assert";
import { ForbiddenError, NotFoundError, UnprocessableError } from "../../lib/platform/mod.ts";
import { expectError, withContract } from "./helpers.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("contract: dashboard JSON and the Markdown primer", () =>
  withContract(async (c) => {
    const vega = await c.user("vega", { kind: "ai" });
    const dash = await vega.client.users.dashboard();
    assert.equal(dash.identity.uuid, vega.uuid);
    assert.equal(dash.identity.handle, "vega");
    assert.equal(dash.identity.kind, "ai");
    assert.deepEqual(dash.identity.trust, { you_trust: true, trusts_you: true, mutual: true });
    assert.equal(dash.identity.max_pending_tasks, 3);
    assert.equal(dash.environment?.name, "BaseCradle");
    assert.ok(dash.documentation?.api?.startsWith(c.baseUrl));
    const md = await vega.client.users.dashboardMarkdown();
    assert.match(md, /^# Start here/);
    assert.match(md, /@vega/);
  }));

Deno.test("contract: identity-only dashboards parse too", () =>
  withContract(async (c) => {
    const vega = await c.user("vega", { kind: "ai" });
    const dash = await vega.client.users.dashboard();
    assert.equal(dash.identity.uuid, vega.uuid);
    assert.equal(dash.environment, undefined);
  }, { dashboard: "identity-only" }));

Deno.test("contract: directory, profiles by tier, trust grant/revoke and the mutual flag", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const vega = await c.user("vega", { kind: "ai" });
    const dir = await ada.client.users.list();
    assert.deepEqual(dir.map((u) => u.handle), ["vega"], "excludes the caller");
    assert.deepEqual(dir[0].trust, { you_trust: false, trusts_you: false, mutual: false });

    // Before vega trusts ada, ada sees only the base identity.
    const lean = await ada.client.users.get(vega.uuid);
    assert.equal(lean.kind, "ai");
    assert.equal(lean.max_timelines, undefined, "trusted-peer fields are absent, not null");

    const granted = await ada.client.users.grantTrust(vega.uuid);
    assert.deepEqual(granted.trust, { you_trust: true, trusts_you: false, mutual: false });
    const again = await ada.client.users.grantTrust(vega.uuid);
    assert.deepEqual(again.trust, granted.trust, "idempotent");
    const back = await vega.client.users.grantTrust(ada.uuid);
    assert.deepEqual(back.trust, { you_trust: true, trusts_you: true, mutual: true });
    const full = await ada.client.users.get(vega.uuid);
    assert.equal(full.trust?.mutual, true);
    assert.equal(full.max_timelines, 15, "a user who trusts you shows the trusted-peer cluster");
    assert.equal(full.created_at, undefined, "the self/admin cluster stays hidden");

    await ada.client.users.revokeTrust(vega.uuid);
    await ada.client.users.revokeTrust(vega.uuid);
    assert.deepEqual((await vega.client.users.get(ada.uuid)).trust, {
      you_trust: true,
      trusts_you: false,
      mutual: false,
    });
    await expectError(
      ada.client.users.get("01900000-0000-7000-8000-000000000000"),
      NotFoundError,
      "not_found",
    );
  }));

Deno.test("contract: timelines create/get/list, participants, and their refusals", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const vega = await c.user("vega", { kind: "ai" });
    const eve = await c.user("eve");

    const created = await ada.client.timelines.create({ name: "Plans" });
    assert.equal(created.timeline.name, "Plans");
    assert.equal(created.timeline.owner.uuid, ada.uuid);
    assert.deepEqual(created.timeline.participants, []);
    assert.deepEqual(created.items, []);
    const tl = created.timeline.uuid;

    const blank = await expectError(
      ada.client.timelines.create({ name: "  " }),
      UnprocessableError,
      "validation_failed",
    );
    assert.deepEqual(blank.fieldErrors, { name: ["can't be blank"] });

    // A non-viewer is refused with the code, not a bare status.
    await expectError(vega.client.timelines.get(tl), ForbiddenError, "not_a_viewer");
    await expectError(
      vega.client.messages.create(tl, asUser("message", { body: "let me in" })),
      ForbiddenError,
      "not_a_viewer",
    );

    // Adding without mutual trust: 422 with the field that explains it.
    const untrusted = await expectError(
      ada.client.timelines.addParticipant(tl, vega.uuid),
      UnprocessableError,
      "validation_failed",
    );
    assert.deepEqual(untrusted.fieldErrors, { user: ["must have mutual trust with every viewer"] });

    await c.mutual(ada, vega);
    const added = await ada.client.timelines.addParticipant(tl, vega.uuid);
    assert.equal(added.uuid, vega.uuid);
    assert.equal(added.trust?.mutual, true);
    assert.equal((await ada.client.timelines.addParticipant(tl, vega.uuid)).uuid, vega.uuid);
    const seen = await vega.client.timelines.get(tl);
    assert.deepEqual(seen.timeline.participants.map((p) => p.handle), ["vega"]);

    // Participant changes are owner-only.
    await c.mutual(vega, eve);
    await expectError(
      vega.client.timelines.addParticipant(tl, eve.uuid),
      ForbiddenError,
      "not_timeline_owner",
    );
    await expectError(
      vega.client.timelines.removeParticipant(tl, vega.uuid),
      ForbiddenError,
      "not_timeline_owner",
    );
    // eve trusts vega but not ada: every viewer must be mutually trusted.
    const partial = await expectError(
      ada.client.timelines.addParticipant(tl, eve.uuid),
      UnprocessableError,
    );
    assert.ok(partial.fieldErrors.user);

    const mine = await ada.client.timelines.create({ name: "Second" });
    const list = await ada.client.timelines.list().toArray();
    assert.deepEqual(list.map((t) => t.uuid), [mine.timeline.uuid, tl], "newest first");
    assert.deepEqual((await vega.client.timelines.list().toArray()).map((t) => t.uuid), [tl]);
    const page = await ada.client.timelines.page();
    assert.equal(page.nextCursor, null);

    await ada.client.timelines.removeParticipant(tl, vega.uuid);
    await ada.client.timelines.removeParticipant(tl, vega.uuid);
    await expectError(vega.client.timelines.get(tl), ForbiddenError, "not_a_viewer");
  }));

Deno.test("contract: lock refuses each of the four content creates; governance still works", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const vega = await c.user("vega", { kind: "ai" });
    const eve = await c.user("eve");
    await c.mutual(ada, vega);
    await c.mutual(ada, eve);
    await c.mutual(vega, eve);
    const tl = (await ada.client.timelines.create({ name: "Frozen" })).timeline.uuid;
    await ada.client.timelines.addParticipant(tl, vega.uuid);
    const task = await ada.client.tasks.create(
      tl,
      asUser("task", {
        instructions: "later",
        activateAt: new Date(Date.now() + 3_600_000),
      }),
    );
    const endpoint = await ada.client.webhookEndpoints.create(
      tl,
      asUser("webhook_endpoint", { description: "ci" }),
    );

    await expectError(eve.client.timelines.lock(tl), ForbiddenError, "not_a_viewer");
    // Any viewer may lock, not just the owner.
    const locked = await vega.client.timelines.lock(tl);
    assert.equal(locked.uuid, tl);
    assert.equal(locked.locked, true);
    assert.equal(locked.timeline?.locked, true);
    assert.equal((await ada.client.timelines.lock(tl)).locked, true, "idempotent");

    const refusals = [
      () => ada.client.messages.create(tl, asUser("message", { body: "hello?" })),
      () =>
        ada.client.assets.create(
          tl,
          asUser("asset", { file: new Uint8Array([1, 2, 3]), filename: "x.bin" }),
        ),
      () =>
        ada.client.tasks.create(tl, asUser("task", { instructions: "x", activateAt: new Date() })),
      () =>
        ada.client.webhookEndpoints.create(tl, asUser("webhook_endpoint", { description: "x" })),
    ];
    for (const call of refusals) await expectError(call(), ForbiddenError, "timeline_locked");
    await expectError(
      ada.client.webhookEvents.ingest(endpoint.content.ingest_url, "{}"),
      ForbiddenError,
      "timeline_locked",
    );
    assert.equal((await ada.client.timelines.get(tl)).items.length, 1, "only the task is there");

    // Governance is not content: participants, cancellation and delete still work.
    await ada.client.timelines.addParticipant(tl, eve.uuid);
    await ada.client.timelines.removeParticipant(tl, eve.uuid);
    assert.equal((await ada.client.tasks.cancel(task.content.uuid)).content.status, "cancelled");
    await ada.client.timelines.delete(tl);
    await expectError(ada.client.timelines.get(tl), NotFoundError, "not_found");
  }));

Deno.test("contract: delete is owner-only; afterwards it and all its contents are NotFound", () =>
  withContract(async (c) => {
    const ada = await c.user("ada");
    const vega = await c.user("vega", { kind: "ai" });
    await c.mutual(ada, vega);
    const tl = (await ada.client.timelines.create({ name: "Doomed" })).timeline.uuid;
    await ada.client.timelines.addParticipant(tl, vega.uuid);
    const message = await vega.client.messages.create(tl, asUser("message", { body: "hi" }));
    const asset = await ada.client.assets.create(
      tl,
      asUser("asset", {
        file: new TextEncoder().encode("bytes"),
        filename: "a.txt",
      }),
    );
    const task = await ada.client.tasks.create(
      tl,
      asUser("task", {
        instructions: "ping",
        activateAt: new Date(Date.now() + 60_000),
      }),
    );
    const endpoint = await ada.client.webhookEndpoints.create(
      tl,
      asUser("webhook_endpoint", { description: "ci" }),
    );
    await ada.client.webhookEvents.ingest(endpoint.content.ingest_url, '{"ok":true}', {
      contentType: "application/json",
    });
    const [event] = await ada.client.webhookEvents.list({ timeline: tl }).toArray();

    await expectError(vega.client.timelines.delete(tl), ForbiddenError, "not_timeline_owner");
    await ada.client.timelines.delete(tl);

    for (const who of [ada, vega]) {
      await expectError(who.client.timelines.get(tl), NotFoundError, "not_found");
      await expectError(who.client.messages.get(message.content.uuid), NotFoundError, "not_found");
    }
    await expectError(ada.client.assets.get(asset.content.uuid), NotFoundError, "not_found");
    await expectError(ada.client.tasks.get(task.content.uuid), NotFoundError, "not_found");
    await expectError(
      ada.client.webhookEndpoints.get(endpoint.content.uuid),
      NotFoundError,
      "not_found",
    );
    await expectError(ada.client.webhookEvents.get(event.content.uuid), NotFoundError, "not_found");
    await expectError(ada.client.assets.download(asset), NotFoundError);
    await expectError(
      ada.client.webhookEvents.ingest(endpoint.content.ingest_url, "{}"),
      NotFoundError,
      "not_found",
    );
    await expectError(ada.client.timelines.delete(tl), NotFoundError, "not_found");
    await expectError(ada.client.timelines.lock(tl), NotFoundError, "not_found");
    await expectError(
      ada.client.messages.create(tl, asUser("message", { body: "anyone?" })),
      NotFoundError,
      "not_found",
    );
    assert.deepEqual(await ada.client.messages.list({ timeline: tl }).toArray(), []);
    assert.deepEqual(await ada.client.timelines.list().toArray(), []);
    const deleted = (await c.events()).filter((e) => e.event === "timeline.deleted");
    assert.equal(deleted.length, 1);
    assert.equal(deleted[0].timeline, tl);
  }));
