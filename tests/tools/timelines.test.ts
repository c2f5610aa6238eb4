/** The `timelines` tool against the real sandbox: rooms, participants and relayed refusals. */
import { strict as assert } from "node:assert";
import { TimelinesTool } from "../../lib/tools/timelines.ts";
import { contextFor, withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("timelines: create, read and list rooms", async () => {
  await withRoom(async ({ context, timeline }) => {
    const tool = new TimelinesTool(context);
    const created = await tool.run({ action: "create", name: "Den" }) as string;
    assert.match(created, /^Created timeline 'Den' \(uuid=\S+\)\. You own it\.$/);
    const den = /uuid=([^)]+)/.exec(created)?.[1];
    assert.equal(
      await tool.run({ action: "read" }),
      `Timeline 'Room' (uuid=${timeline}) · locked=False\nOwner: @agent (Agent)\n` +
        "Participants: none\nItems: 0",
    );
    assert.equal(
      await tool.run({ action: "list" }),
      "Timelines you can see (newest first):\n" +
        `uuid=${den} · 'Den' · locked=False · owner=@agent\n` +
        `uuid=${timeline} · 'Room' · locked=False · owner=@agent`,
    );
    assert.equal(
      await tool.run({ action: "create" }),
      "Error: 'create' needs a 'name' for the timeline.",
    );
    assert.equal(
      await tool.run({ action: "lock" }),
      "Error: unknown action 'lock'. Use 'create', 'read', 'list', 'add_participant', or " +
        "'remove_participant'.",
    );
    assert.equal(
      await tool.run({ action: "toString" }),
      "Error: unknown action 'toString'. Use 'create', 'read', 'list', 'add_participant', or " +
        "'remove_participant'.",
    );
  });
});

Deno.test("timelines: add needs mutual trust; handles resolve case-insensitively; remove by uuid", async () => {
  await withRoom(async ({ c, agent, context, timeline }) => {
    const tool = new TimelinesTool(context);
    const nova = await c.user("nova");
    assert.equal(
      await tool.run({ action: "add_participant", user: "@nova" }),
      "Couldn't add the participant: @nova must have mutual trust with every viewer (missing: @agent).",
    );
    await c.mutual(agent, nova);
    assert.equal(
      await tool.run({ action: "add_participant", user: "@NOVA" }),
      `Added @nova to timeline 'Room' (uuid=${timeline}).`,
    );
    await agent.client.messages.create(timeline, asUser("message", { body: "hello" }));
    assert.equal(
      await tool.run({ action: "read", timeline }),
      `Timeline 'Room' (uuid=${timeline}) · locked=False\nOwner: @agent (Agent)\n` +
        "Participants: @nova\nItems: 1",
    );
    assert.equal(
      await tool.run({ action: "remove_participant", user: nova.uuid }),
      `Removed @nova from timeline 'Room' (uuid=${timeline}).`,
    );
    assert.equal(
      await tool.run({ action: "add_participant", user: "ghost" }),
      "Error: No user with handle '@ghost' is visible to you. Check the handle, or use a uuid.",
    );
    assert.equal(
      await tool.run({ action: "remove_participant" }),
      "Error: 'remove_participant' needs a 'user' (a handle like '@nova' or a uuid).",
    );
  });
});

Deno.test("timelines: a participant who is not the owner, and a non-viewer, are refused", async () => {
  await withRoom(async ({ c, agent, timeline }) => {
    const nova = await c.user("nova");
    const orbit = await c.user("orbit");
    await c.mutual(agent, nova);
    await c.mutual(agent, orbit);
    await c.mutual(nova, orbit);
    await agent.client.timelines.addParticipant(timeline, nova.uuid);
    const asNova = new TimelinesTool(contextFor(nova, timeline).context);
    assert.equal(
      await asNova.run({ action: "add_participant", user: "orbit" }),
      "Couldn't add the participant: Only the timeline's owner can do this.",
    );
    const asOrbit = new TimelinesTool(contextFor(orbit, timeline).context);
    assert.equal(
      await asOrbit.run({ action: "read" }),
      "Couldn't read the timeline: You are not a viewer of this timeline.",
    );
    assert.equal(await asOrbit.run({ action: "list" }), "You can't see any timelines yet.");
    assert.match(await new TimelinesTool().run({ action: "list" }) as string, /not connected/);
  });
});
