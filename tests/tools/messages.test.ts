/** The `messages` tool against the real sandbox: list, read, create through the gate, refusals. */
import { strict as assert } from "node:assert";
import { parseGuardrails } from "../../lib/gate/mod.ts";
import { MessagesTool } from "../../lib/tools/messages.ts";
import { withWorld } from "../gate/support.ts";
import { asUser } from "../support/cleared.ts";

const CALL = { callId: "call_1" };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

Deno.test("messages: unbound, it says it is not connected to a timeline", async () => {
  const tool = new MessagesTool();
  const text = await tool.run({ action: "list" });
  assert.match(text, /^Error: the 'messages' tool is not connected to a timeline/);
});

Deno.test("messages: the declaration matches the documented tool", () => {
  const spec = new MessagesTool().spec();
  assert.equal(spec.name, "messages");
  const props = spec.parameters.properties as Record<string, { enum?: string[] }>;
  assert.deepEqual(Object.keys(props), ["action", "uuid", "body", "timeline"]);
  assert.deepEqual(props.action.enum, ["list", "read", "create"]);
  assert.deepEqual(spec.parameters.required, ["action"]);
});

Deno.test("messages: create posts through the gate, keyed, records speech, logs `posted`", () =>
  withWorld(async ({ context, tl, c, ada, journal }) => {
    const key = "5b1e6c2a-8f0d-5c3b-9e47-0a1b2c3d4e5f";
    const ctx = context({ keys: { call_1: key } });
    const tool = new MessagesTool();
    tool.bind(ctx);
    const text = await tool.run({ action: "create", body: "On it, ada." }, CALL);
    const m = text.match(
      new RegExp(`^Posted to timeline ${tl}\\. The new message's uuid is (${UUID.source})\\.$`),
    );
    assert.ok(m, text);
    const uuid = m[1];
    assert.deepEqual(ctx.keyRequests, [{ kind: "message", callId: "call_1" }]);
    assert.deepEqual(ctx.acts, ["message"]);
    const posts = c.sandbox.requests.filter((r) => r.method === "POST" && /messages$/.test(r.path));
    assert.deepEqual(posts.map((r) => [r.path, r.idempotencyKey]), [
      [`/timelines/${tl}/messages`, key],
    ]);
    assert.equal((await ada.client.messages.get(uuid)).content.body, "On it, ada.");
    assert.deepEqual(journal.lines, [
      `INFO posted message=${uuid} timeline=${tl} kind=tool chars=11`,
    ]);

    // A re-issued call (recovery) carries the same key: the platform answers the original.
    const replay = await tool.run({ action: "create", body: "On it, ada." }, CALL);
    assert.equal(replay, text);
    assert.equal((await ada.client.messages.list({ timeline: tl }).toArray()).length, 1);
  }));

Deno.test("messages: create without a call id or anchor sends no Idempotency-Key", () =>
  withWorld(async ({ context, c }) => {
    const tool = new MessagesTool(context());
    assert.match(await tool.run({ action: "create", body: "one" }), /^Posted to timeline/);
    assert.match(await tool.run({ action: "create", body: "two" }, CALL), /^Posted/);
    const keys = c.sandbox.requests.filter((r) => r.method === "POST" && /messages$/.test(r.path))
      .map((r) => r.idempotencyKey);
    assert.deepEqual(keys, [null, null]);
  }));

Deno.test("messages: create to another timeline (cross-timeline) posts there", () =>
  withWorld(async ({ context, tl, vega }) => {
    const support = (await vega.client.timelines.create({ name: "Support" })).timeline.uuid;
    const ctx = context();
    const tool = new MessagesTool(ctx);
    const text = await tool.run({ action: "create", body: "Need help", timeline: support }, CALL);
    assert.match(text, new RegExp(`^Posted to timeline ${support}\\.`));
    const there = await vega.client.messages.list({ timeline: support }).toArray();
    assert.deepEqual(there.map((m) => m.content.body), ["Need help"]);
    assert.deepEqual(await vega.client.messages.list({ timeline: tl }).toArray(), []);
    const listed = await tool.run({ action: "list", timeline: support });
    assert.match(listed, /@vega · .* — Need help$/);
  }));

Deno.test("messages: a gate refusal names the check, posts nothing, records nothing", () =>
  withWorld(async ({ context, tl, journal, messagePosts }) => {
    const ctx = context({ keys: { call_1: "5b1e6c2a-8f0d-5c3b-9e47-0a1b2c3d4e5f" } });
    const tool = new MessagesTool(ctx);
    const secret = "xai-Qw3rTy7uI9oP1aS5dF8g";
    const text = await tool.run({ action: "create", body: `my key: ${secret}` }, CALL);
    assert.match(text, /^Couldn't create a message: the outbound gate blocked it/);
    assert.match(text, /failed check: secret_guard/);
    assert.match(text, /an xAI API key/);
    assert.ok(!text.includes(secret));
    assert.equal(messagePosts(), 0);
    assert.deepEqual(ctx.acts, []);
    assert.deepEqual(journal.lines, [
      `WARNING post blocked timeline=${tl} kind=tool check=secret_guard`,
    ]);

    const long = await tool.run({ action: "create", body: "z".repeat(41) }, CALL);
    assert.match(long, /failed check: max_length\)\. max_length — the message is 41 characters/);
  }, { guardrails: parseGuardrails('{"max_length": 40}', "g.json") }));

Deno.test("messages: a locked timeline ⇒ `Couldn't create a message: <detail>` and ERROR post failed", () =>
  withWorld(async ({ context, tl, ada, journal }) => {
    await ada.client.timelines.lock(tl);
    const ctx = context();
    const text = await new MessagesTool(ctx).run({ action: "create", body: "hello" }, CALL);
    const detail = "The timeline is locked and is not accepting new content.";
    assert.equal(text, `Couldn't create a message: ${detail}`);
    assert.deepEqual(ctx.acts, []);
    assert.deepEqual(journal.lines, [
      `ERROR post failed timeline=${tl} kind=tool error="${detail}"`,
    ]);
  }));

Deno.test("messages: the post failed head is red when colour is on", () =>
  withWorld(async ({ c, ada, vega, tl }) => {
    const { MemoryJournal } = await import("../../lib/journal/mod.ts");
    const { Gate } = await import("../../lib/gate/mod.ts");
    const journal = new MemoryJournal({ env: () => undefined });
    await ada.client.timelines.lock(tl);
    const tool = new MessagesTool({
      client: vega.client,
      gate: new Gate({ client: vega.client, journal }),
      timeline: tl,
      self: { uuid: vega.uuid, handle: vega.handle },
      journal,
      idempotencyKey: () => Promise.resolve(undefined),
      recordAct: () => {},
    });
    await tool.run({ action: "create", body: "hello" }, CALL);
    assert.equal(c.sandbox.requests.at(-1)?.status, 403);
    assert.ok(journal.lines[0].startsWith("ERROR \x1b[31mpost failed\x1b[0m timeline="));
  }));

Deno.test("messages: a timeline the agent cannot view is refused with the platform's detail", () =>
  withWorld(async ({ c, context }) => {
    const eve = await c.user("eve");
    const hidden = (await eve.client.timelines.create({ name: "Private" })).timeline.uuid;
    const secretMessage = await eve.client.messages.create(
      hidden,
      asUser("message", { body: "private" }),
    );
    const tool = new MessagesTool(context());
    assert.equal(
      await tool.run({ action: "create", body: "hi", timeline: hidden }, CALL),
      "Couldn't create a message: You are not a viewer of this timeline.",
    );
    assert.equal(
      await tool.run({ action: "read", uuid: secretMessage.content.uuid }),
      "Couldn't read messages: You are not a viewer of this timeline.",
    );
  }));

Deno.test("messages: list shows newest first with uuid, handle, time and a 160-char preview", () =>
  withWorld(async ({ context, ada, vega, tl }) => {
    const tool = new MessagesTool(context());
    assert.equal(await tool.run({ action: "list" }), "No messages on this timeline yet.");
    const long = `${"word ".repeat(31)}tail-of-a-long-message`; // 155 + 22 chars
    const first = await ada.client.messages.create(tl, asUser("message", { body: long }));
    const second = await vega.client.messages.create(tl, asUser("message", { body: "short 😀" }));
    const text = await tool.run({ action: "list" });
    // The preview keeps 160 characters, drops trailing space, then marks the cut.
    const preview = `${long.slice(0, 160).trimEnd()}…`;
    assert.equal(
      text,
      [
        "Messages on this timeline (newest first):",
        `uuid=${second.content.uuid} · @vega · ${second.created_at} — short 😀`,
        `uuid=${first.content.uuid} · @ada · ${first.created_at} — ${preview}`,
      ].join("\n"),
    );
  }));

Deno.test("messages: list caps at 50 and says so only when a 51st exists", () =>
  withWorld(async ({ context, ada, tl }) => {
    const tool = new MessagesTool(context());
    for (let i = 1; i <= 50; i++) {
      await ada.client.messages.create(tl, asUser("message", { body: `m${i}` }));
    }
    const fifty = (await tool.run({ action: "list" })).split("\n");
    assert.equal(fifty.length, 51);
    assert.match(fifty[1], /— m50$/);
    assert.ok(!fifty.at(-1)!.startsWith("(showing"));
    await ada.client.messages.create(tl, asUser("message", { body: "m51" }));
    const capped = (await tool.run({ action: "list" })).split("\n");
    assert.equal(capped.length, 52);
    assert.match(capped[1], /— m51$/);
    assert.match(capped[50], /— m2$/);
    assert.equal(capped[51], "(showing the 50 most recent; there may be more)");
  }));

Deno.test("messages: read = header, blank line, full body", () =>
  withWorld(async ({ context, ada, tl }) => {
    const body = `line one\n\n${"x".repeat(400)}`;
    const m = await ada.client.messages.create(tl, asUser("message", { body }));
    const text = await new MessagesTool(context()).run({ action: "read", uuid: m.content.uuid });
    assert.equal(text, `uuid=${m.content.uuid} · @ada · ${m.created_at}\n\n${body}`);
  }));

Deno.test("messages: read of an unknown uuid relays the platform's refusal", () =>
  withWorld(async ({ context }) => {
    const text = await new MessagesTool(context()).run({
      action: "read",
      uuid: "0195f0e0-0000-7000-8000-00000000dead",
    });
    assert.match(text, /^Couldn't read messages: \S/);
  }));

Deno.test("messages: argument errors are texts the model can act on", () =>
  withWorld(async ({ context, messagePosts }) => {
    const ctx = context();
    const tool = new MessagesTool(ctx);
    assert.equal(
      await tool.run({ action: "delete" }),
      "Error: unknown action 'delete'. Use 'list', 'read', or 'create'.",
    );
    assert.equal(
      await tool.run({}),
      "Error: 'action' is required. Use 'list', 'read', or 'create'.",
    );
    assert.equal(
      await tool.run({ action: "read" }),
      "Error: 'read' needs the message's uuid. Use 'list' to find it.",
    );
    assert.equal(
      await tool.run({ action: "create", body: "" }, CALL),
      "Error: 'create' needs a 'body' — the text of the message to post.",
    );
    // The create asked for its key before rejecting the call: its ordinal is consumed.
    assert.deepEqual(ctx.keyRequests, [{ kind: "message", callId: "call_1" }]);
    assert.equal(
      await tool.run({ action: "create", body: 42 }),
      "Error: 'body' must be a string. Use 'list', 'read', or 'create'.",
    );
    assert.equal(
      await tool.run("list"),
      "Error: the arguments must be an object with an 'action'. Use 'list', 'read', or 'create'.",
    );
    assert.equal(messagePosts(), 0);
  }));
