/** The `delete` tool behind the shared confirm gate, against the real sandbox. */
import { strict as assert } from "node:assert";
import { NotFoundError } from "../../lib/platform/mod.ts";
import { DeleteTool } from "../../lib/tools/delete.ts";
import { expectError } from "../contract/helpers.ts";
import { contextFor, since, withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

const CONSEQUENCE = "Deleting permanently destroys the timeline AND all its content (messages, " +
  "assets, tasks, webhook events) with no undo and no restore; it is NOT how you leave or lock " +
  "a timeline.";

Deno.test("delete: bare and mismatched calls make one GET each and delete nothing", async () => {
  await withRoom(async ({ c, agent, context, timeline }) => {
    await agent.client.messages.create(timeline, asUser("message", { body: "keep me" }));
    const tool = new DeleteTool(context);
    let mark = c.sandbox.requests.length;
    assert.equal(
      await tool.run({}),
      `Refused to delete timeline 'Room' (uuid=${timeline}), which currently has 1 item(s). ` +
        `No confirm was passed. ${CONSEQUENCE} If you really mean to delete THIS timeline, call ` +
        `delete again with confirm=${timeline}.`,
    );
    assert.deepEqual(since(c, mark).map((r) => `${r.method} ${r.path}`), [
      `GET /timelines/${timeline}`,
    ]);
    mark = c.sandbox.requests.length;
    assert.equal(
      await tool.run({ confirm: "yes" }),
      `Refused to delete timeline 'Room' (uuid=${timeline}), which currently has 1 item(s). ` +
        `The confirm you passed ('yes') does not match this timeline's uuid. ${CONSEQUENCE} If ` +
        `you really mean to delete THIS timeline, call delete again with confirm=${timeline}.`,
    );
    assert.deepEqual(since(c, mark).map((r) => r.method), ["GET"]);
    assert.equal((await agent.client.timelines.get(timeline)).items.length, 1);
  });
});

Deno.test("delete: a matching confirm deletes, even a locked timeline", async () => {
  await withRoom(async ({ c, agent, context, timeline }) => {
    await agent.client.timelines.lock(timeline);
    const mark = c.sandbox.requests.length;
    assert.equal(
      await new DeleteTool(context).run({ confirm: timeline }),
      `Deleted timeline 'Room' (uuid=${timeline}). It and all of its content are gone ` +
        "permanently — this cannot be undone, and everyone who was a viewer has been notified.",
    );
    assert.deepEqual(since(c, mark).map((r) => r.method), ["GET", "DELETE"]);
    await expectError(agent.client.timelines.get(timeline), NotFoundError);
  });
});

Deno.test("delete: a participant who is not the owner is refused by the platform", async () => {
  await withRoom(async ({ c, agent, timeline }) => {
    const nova = await c.user("nova");
    await c.mutual(agent, nova);
    await agent.client.timelines.addParticipant(timeline, nova.uuid);
    const asNova = new DeleteTool(contextFor(nova, timeline).context);
    assert.equal(
      await asNova.run({ confirm: timeline }),
      "Couldn't delete the timeline: Only the timeline's owner can do this.",
    );
    assert.equal((await agent.client.timelines.get(timeline)).timeline.name, "Room");
  });
});
