/** The `tasks` tool against the real sandbox: create (relative/ISO, keyed), list, read, refusals. */
import { strict as assert } from "node:assert";
import { TasksTool } from "../../lib/tools/tasks.ts";
import { contextFor, since, withRoom } from "./timelines_fixture.ts";

const NOW = Date.parse("2030-01-01T00:00:00Z");
const clock = () => NOW;
const KEY = "0190f0a4-0000-7000-8000-0000000074a5";
const keyed = {
  idempotencyKey: (kind: string, id: string) => kind === "task" && id === "c1" ? KEY : undefined,
};

Deno.test("tasks: a relative activate_at resolves against the injected clock", async () => {
  await withRoom(async ({ c, context }) => {
    const tool = new TasksTool(context, { clock });
    for (
      const [offset, ms] of [["+90m", 90 * 60_000], ["+2h", 7_200_000], ["+1d", 86_400_000], [
        "+1w",
        604_800_000,
      ], ["+45s", 45_000]] as const
    ) {
      const mark = c.sandbox.requests.length;
      const out = await tool.run({
        action: "create",
        instructions: `ping ${offset}`,
        activate_at: offset,
      });
      assert.match(
        out as string,
        /^Scheduled a task\. uuid=\S+ · status=pending · activate_at=\S+ — ping /,
      );
      const uuid = /uuid=(\S+)/.exec(out as string)?.[1] ?? "";
      const task = await context.client.tasks.get(uuid);
      assert.equal(Date.parse(task.content.activate_at), NOW + ms, offset);
      assert.equal(since(c, mark).filter((r) => r.method === "POST").length, 1);
    }
    assert.deepEqual(context.acts, ["task", "task", "task", "task", "task"]);
  }, { agentExtras: { max_pending_tasks: 10 } });
});

Deno.test("tasks: an ISO activate_at keeps its offset and a zoneless one is read as UTC", async () => {
  await withRoom(async ({ context }) => {
    const tool = new TasksTool(context, { clock });
    const cases = [
      ["2031-06-10T15:00:00Z", "2031-06-10T15:00:00.000Z"],
      ["2031-06-10T17:00:00+02:00", "2031-06-10T15:00:00.000Z"],
      ["2031-06-10T15:00:00", "2031-06-10T15:00:00.000Z"],
    ] as const;
    for (const [given, instant] of cases) {
      const out = await tool.run({ action: "create", instructions: "x", activate_at: given });
      const uuid = /uuid=(\S+)/.exec(out as string)?.[1] ?? "";
      const task = await context.client.tasks.get(uuid);
      assert.equal(new Date(task.content.activate_at).toISOString(), instant, given);
    }
    assert.equal(
      await tool.run({ action: "create", instructions: "x", activate_at: "tomorrow" }),
      "Error: activate_at 'tomorrow' is not a relative offset (like '+2h') or an ISO-8601 " +
        "timestamp (like '2026-06-10T15:00:00Z').",
    );
    assert.deepEqual(context.acts, ["task", "task", "task"]);
  });
});

Deno.test("tasks: create sends the context's key and a replay returns the same task", async () => {
  await withRoom(async ({ c, context, timeline }) => {
    const tool = new TasksTool(context, { clock });
    const mark = c.sandbox.requests.length;
    const args = { action: "create", instructions: "water the plants", activate_at: "+1d" };
    const first = await tool.run(args, { callId: "c1" });
    assert.equal(since(c, mark).find((r) => r.method === "POST")?.idempotencyKey, KEY);
    const again = await tool.run(args, { callId: "c1" });
    assert.equal(again, first);
    assert.equal((await context.client.tasks.list({ timeline }).toArray()).length, 1);
    const unkeyed = c.sandbox.requests.length;
    await tool.run(args, { callId: "c2" });
    assert.equal(since(c, unkeyed).find((r) => r.method === "POST")?.idempotencyKey, null);
  }, keyed);
});

Deno.test("tasks: list previews instructions and read shows them in full", async () => {
  await withRoom(async ({ context }) => {
    const tool = new TasksTool(context, { clock });
    assert.equal(await tool.run({ action: "list" }), "No tasks on this timeline yet.");
    const long = "a".repeat(130);
    const created = await tool.run({ action: "create", instructions: long, activate_at: "+1h" });
    const uuid = /uuid=(\S+)/.exec(created as string)?.[1] ?? "";
    const listed = await tool.run({ action: "list" }) as string;
    assert.equal(
      listed,
      "Tasks on this timeline (newest first):\n" +
        `uuid=${uuid} · status=pending · activate_at=2030-01-01T01:00:00.000Z — ${
          "a".repeat(120)
        }…`,
    );
    assert.equal(
      await tool.run({ action: "read", uuid }),
      `uuid=${uuid} · status=pending · activate_at=2030-01-01T01:00:00.000Z\n\n${long}`,
    );
    assert.equal(
      await tool.run({ action: "read" }),
      "Error: 'read' needs the task's uuid. Use 'list' to find it.",
    );
    assert.equal(
      await tool.run({ action: "create", instructions: "x" }),
      "Error: 'create' needs both 'instructions' and 'activate_at'.",
    );
    assert.equal(
      await tool.run({ action: "cancel" }),
      "Error: unknown action 'cancel'. Use 'create', 'list', or 'read'.",
    );
  });
});

Deno.test("tasks: the pending-task cap, a locked timeline and a non-viewer are relayed", async () => {
  await withRoom(async ({ c, context, agent, timeline }) => {
    const tool = new TasksTool(context, { clock });
    await tool.run({ action: "create", instructions: "one", activate_at: "+1h" });
    assert.equal(
      await tool.run({ action: "create", instructions: "two", activate_at: "+2h" }),
      "Couldn't create the task: Base has reached the pending task limit (1).",
    );
    const stranger = await c.user("stranger");
    assert.equal(
      await new TasksTool(contextFor(stranger, timeline).context).run({
        action: "create",
        instructions: "x",
        activate_at: "+1h",
      }),
      "Couldn't create the task: You are not a viewer of this timeline.",
    );
    await agent.client.timelines.lock(timeline);
    assert.match(
      await tool.run({ action: "create", instructions: "x", activate_at: "+1h" }) as string,
      /^Couldn't create the task: The timeline is locked/,
    );
    assert.match(await new TasksTool().run({ action: "list" }) as string, /not connected/);
  }, { agentExtras: { max_pending_tasks: 1 } });
});
