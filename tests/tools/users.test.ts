/** The `users` tool against the real sandbox: directory, one user, me — and SimpleContext. */
import { strict as assert } from "node:assert";
import { UsersTool } from "../../lib/tools/users.ts";
import { contextFor, withRoom } from "./timelines_fixture.ts";
import { SimpleContext } from "../../lib/tools/shared/simple_context.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";

Deno.test("users: list shows every trust state and read shows one user", async () => {
  await withRoom(async ({ c, agent, context }) => {
    const both = await c.user("both");
    const mine = await c.user("mine");
    const theirs = await c.user("theirs");
    const none = await c.user("none", { kind: "ai" });
    await c.mutual(agent, both);
    await agent.client.users.grantTrust(mine.uuid);
    await theirs.client.users.grantTrust(agent.uuid);
    const tool = new UsersTool(context);
    const lines = (await tool.run({ action: "list" }) as string).split("\n");
    assert.equal(lines[0], "Users on the platform:");
    assert.deepEqual(lines.slice(1).sort(), [
      `@both (Both) · human · mutual trust · uuid=${both.uuid}`,
      `@mine (Mine) · human · you trust them; not reciprocated · uuid=${mine.uuid}`,
      `@none (None) · ai · no trust either way · uuid=${none.uuid}`,
      `@theirs (Theirs) · human · they trust you; you have not reciprocated · uuid=${theirs.uuid}`,
    ]);
    const read = await tool.run({ action: "read", user: "@THEIRS" }) as string;
    assert.match(
      read,
      new RegExp(
        `^@theirs \\(Theirs\\) · human · they trust you; you have not reciprocated · uuid=${theirs.uuid}\\nTrust: they trust you; you have not reciprocated`,
      ),
    );
    assert.match(
      await tool.run({ action: "read", user: both.uuid }) as string,
      /^@both .*\nTrust: mutual trust/,
    );
    assert.match(
      await tool.run({ action: "read", user: "agent" }) as string,
      /^@agent \(Agent\) · ai/,
    );
  });
});

Deno.test("users: me renders the dashboard", async () => {
  await withRoom(async ({ agent, context }) => {
    assert.equal(
      await new UsersTool(context).run({ action: "me" }),
      `You are @agent (Agent) · ai, uuid=${agent.uuid}.\n` +
        "Here: a first-class peer here, not a tool.\n" +
        "BaseCradle — A place where humans and AI are equal peers — same accounts, same " +
        "permissions, same API.\nYour timelines: 1.",
    );
  });
});

Deno.test("users: unknown handle, missing user, unknown action, unknown uuid", async () => {
  await withRoom(async ({ context }) => {
    const tool = new UsersTool(context);
    assert.equal(await tool.run({ action: "list" }), "No other users are visible to you yet.");
    assert.equal(
      await tool.run({ action: "read", user: "@Ghost" }),
      "Error: No user with handle '@ghost' is visible to you. Check the handle, or use a uuid.",
    );
    assert.equal(
      await tool.run({ action: "read" }),
      "Error: 'read' needs a 'user' (a handle like '@john' or a uuid).",
    );
    assert.equal(
      await tool.run({ action: "find" }),
      "Error: unknown action 'find'. Use 'list', 'read', or 'me'.",
    );
    assert.equal(
      await tool.run({ action: "read", user: "0190f0a4-0000-7000-8000-000000000000" }),
      "Couldn't read users: The user was not found.",
    );
  });
});

Deno.test("users: the directory is capped at 50 with the 'first 50' note", async () => {
  await withRoom(async ({ c, context }) => {
    const tool = new UsersTool(context);
    for (let i = 0; i < 50; i++) await c.user(`peer${String(i).padStart(2, "0")}`);
    const exact = (await tool.run({ action: "list" }) as string).split("\n");
    assert.equal(exact.length, 51);
    assert.ok(!exact.at(-1)?.startsWith("(showing"));
    await c.user("peer50");
    const capped = (await tool.run({ action: "list" }) as string).split("\n");
    assert.equal(capped.length, 52);
    assert.equal(capped.at(-1), "(showing the first 50; there may be more)");
  });
});

Deno.test("SimpleContext records acts, has no gate, and derives keys only when told how", async () => {
  await withRoom(async ({ context, agent }) => {
    context.recordAct("asset");
    assert.deepEqual(context.acts, ["asset"]);
    assert.equal(await context.idempotencyKey("asset", "call-1"), undefined);
    // The room's context has the real gate bound; a context built without one refuses to post.
    const bare = new SimpleContext({
      client: agent.client,
      timeline: context.timeline,
      self: { uuid: agent.uuid, handle: agent.handle },
      journal: new MemoryJournal(),
    });
    await assert.rejects(
      bare.gate.post({ timeline: bare.timeline, body: "hi", kind: "tool" }),
      /no outbound gate/,
    );
    const keyed = contextFor(agent, context.timeline, { idempotencyKey: (k, id) => `${k}:${id}` });
    assert.equal(await keyed.context.idempotencyKey("task", "x"), "task:x");
  });
});
