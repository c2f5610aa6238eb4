/** The `lock` tool and the shared confirm gate, against the real sandbox. */
import { strict as assert } from "node:assert";
import { LockTool } from "../../lib/tools/lock.ts";
import { contextFor, since, withRoom } from "./timelines_fixture.ts";
import { asUser } from "../support/cleared.ts";

const CONSEQUENCE = "Locking permanently freezes the timeline's content and there is NO unlock " +
  "(reopening is an operator-only action); it is NOT how you list, leave, or delete a timeline.";

Deno.test("lock: a bare call makes one GET, no write, and refuses with a preview", async () => {
  await withRoom(async ({ c, agent, context, timeline }) => {
    await agent.client.messages.create(timeline, asUser("message", { body: "one" }));
    await agent.client.messages.create(timeline, asUser("message", { body: "two" }));
    const mark = c.sandbox.requests.length;
    const out = await new LockTool(context).run({});
    assert.equal(
      out,
      `Refused to lock timeline 'Room' (uuid=${timeline}), which currently has 2 item(s). ` +
        `No confirm was passed. ${CONSEQUENCE} If you really mean to lock THIS timeline, call ` +
        `lock again with confirm=${timeline}.`,
    );
    const served = since(c, mark);
    assert.deepEqual(served.map((r) => `${r.method} ${r.path}`), [`GET /timelines/${timeline}`]);
    assert.equal((await agent.client.timelines.get(timeline)).timeline.locked, false);
  });
});

Deno.test("lock: a mismatched confirm is refused the same way and names what was passed", async () => {
  await withRoom(async ({ c, agent, context, timeline }) => {
    const { timeline: other } = await agent.client.timelines.create({ name: "Other" });
    const mark = c.sandbox.requests.length;
    const out = await new LockTool(context).run({ confirm: other.uuid });
    assert.equal(
      out,
      `Refused to lock timeline 'Room' (uuid=${timeline}), which currently has 0 item(s). ` +
        `The confirm you passed ('${other.uuid}') does not match this timeline's uuid. ` +
        `${CONSEQUENCE} If you really mean to lock THIS timeline, call lock again with ` +
        `confirm=${timeline}.`,
    );
    const served = since(c, mark);
    assert.equal(served.length, 1);
    assert.equal(served[0].method, "GET");
    for (const t of [timeline, other.uuid]) {
      assert.equal((await agent.client.timelines.get(t)).timeline.locked, false);
    }
  });
});

Deno.test("lock: a matching confirm locks and says so; the timeline parameter retargets", async () => {
  await withRoom(async ({ agent, context, timeline }) => {
    const tool = new LockTool(context);
    assert.equal(
      await tool.run({ confirm: timeline }),
      `Locked timeline 'Room' (uuid=${timeline}). Its content is now frozen permanently — this ` +
        "is one-way; reopening it is an operator-only action.",
    );
    assert.equal((await agent.client.timelines.get(timeline)).timeline.locked, true);

    const { timeline: other } = await agent.client.timelines.create({ name: "Other" });
    assert.match(
      await tool.run({ timeline: other.uuid, confirm: timeline }) as string,
      new RegExp(`^Refused to lock timeline 'Other' \\(uuid=${other.uuid}\\)`),
    );
    assert.match(
      await tool.run({ timeline: other.uuid, confirm: other.uuid }) as string,
      /^Locked timeline 'Other'/,
    );
  });
});

Deno.test("lock: a preview that fails still refuses, naming the error; a non-viewer is relayed", async () => {
  await withRoom(async ({ c, context, timeline }) => {
    const ghost = "0190f0a4-0000-7000-8000-000000000000";
    const mark = c.sandbox.requests.length;
    assert.equal(
      await new LockTool(context).run({ timeline: ghost }),
      `Refused to lock timeline ${ghost}: this is irreversible. ${CONSEQUENCE} To proceed, call ` +
        `lock again with confirm=${ghost}. (Couldn't preview the timeline first: The timeline ` +
        "was not found.)",
    );
    assert.deepEqual(since(c, mark).map((r) => r.method), ["GET"]);
    const stranger = await c.user("stranger");
    assert.equal(
      await new LockTool(contextFor(stranger, timeline).context).run({ confirm: timeline }),
      "Couldn't lock the timeline: You are not a viewer of this timeline.",
    );
    assert.match(await new LockTool().run({ confirm: timeline }) as string, /not connected/);
  });
});
