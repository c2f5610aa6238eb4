/** Contract: the admin-only contact messages and notes. */
import { strict as assert } from "node:assert";
import {
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  UnprocessableError,
} from "../../lib/platform/mod.ts";
import { expectError, withContract } from "./helpers.ts";

Deno.test("contract: contact messages and notes — 403 not_an_admin for others, full surface for admins", () =>
  withContract(async (c) => {
    const root = await c.user("root", { roles: ["admin"] });
    const ada = await c.user("ada");
    const first = await c.contactMessage({
      name: "Bob",
      email_address: "bob@example.com",
      body: "Hi there",
    });
    const second = await c.contactMessage({
      name: "Ada",
      email_address: "ada@example.com",
      body: "Signed in",
      user_id: ada.uuid,
    });

    const admin = ada.client.admin;
    for (
      const call of [
        () => admin.contactMessages.list().toArray(),
        () => admin.contactMessages.get(first),
        () => admin.contactMessages.setStatus(first, "closed"),
        () => admin.contactMessages.addNote(first, "sneaky"),
        () => admin.notes.list().toArray(),
        () => admin.notes.get(first),
      ]
    ) {
      const error = await expectError(call(), ForbiddenError, "not_an_admin");
      assert.equal(error.title, "Admin Action Required");
    }

    const inbox = await root.client.admin.contactMessages.list().toArray();
    assert.deepEqual(inbox.map((m) => m.uuid), [second, first], "newest first");
    assert.equal(inbox[0].user?.uuid, ada.uuid);
    assert.equal(inbox[1].user, null);
    assert.equal(inbox[1].status, "received");

    const closed = await root.client.admin.contactMessages.setStatus(first, "closed");
    assert.equal(closed.status, "closed");
    await expectError(
      root.client.admin.contactMessages.setStatus(first, "archived"),
      UnprocessableError,
      "validation_failed",
    );
    assert.deepEqual(
      (await root.client.admin.contactMessages.list({ status: "closed" }).toArray()).map((m) =>
        m.uuid
      ),
      [first],
    );
    await expectError(
      root.client.admin.contactMessages.page({ status: "bogus" }),
      InvalidRequestError,
      "invalid_filter",
    );

    const note = await root.client.admin.contactMessages.addNote(first, "Replied by email.");
    assert.equal(note.body, "Replied by email.");
    assert.equal(note.user?.uuid, root.uuid);
    assert.deepEqual(note.notable, { type: "contact_message", uuid: first });
    await expectError(
      root.client.admin.contactMessages.addNote(first, " "),
      UnprocessableError,
      "validation_failed",
    );
    const withNote = await root.client.admin.contactMessages.get(first);
    assert.deepEqual(withNote.notes?.map((n) => n.uuid), [note.uuid]);
    assert.deepEqual((await root.client.admin.notes.list().toArray()).map((n) => n.uuid), [
      note.uuid,
    ]);
    assert.deepEqual(await root.client.admin.notes.get(note.uuid), note);
    await expectError(root.client.admin.notes.get(first), NotFoundError, "not_found");
  }));
