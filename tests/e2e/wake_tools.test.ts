/**
 * Every benign default tool end to end (docs/tools.md#the-shipped-stems,
 * docs/tools.md#platform-tools, docs/memory.md#the-memory-tool): the real `harness wake` CLI
 * against the sandbox, a scripted model that calls each tool from a peer's message, and every
 * effect checked from the OUTSIDE — the tool result text the next model request carries, the
 * sandbox's state, the journal's `tool` and `posted` lines, and the sandbox's own request log
 * (nothing reached the message endpoint without the gate's `posted` line; a credential-shaped body
 * never reached it at all).
 */
import assert from "node:assert/strict";
import { PlatformError } from "../../lib/platform/mod.ts";
import { chatCompletion, type RecordedRequest } from "../support/model_mock.ts";
import { agentPosts, say, type World, world } from "./wake_support.ts";
import { BENIGN_TOOLS, WAKE_TOOLS } from "../support/benign_tools.ts";

/** The benign default set on any provider, sorted (docs/tools.md#the-shipped-stems). */
const BENIGN = BENIGN_TOOLS;

/** An OpenAI-style key shape the gate's secret guard must refuse (`sk-` + 40 alphanumerics). */
const API_KEY = "sk-" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5kL7n";

type Call = { id: string; name: string; arguments: Record<string, unknown> };

/** The tool results (`tool_call_id` → content) a chat request carries back to the model. */
function toolResults(request: RecordedRequest): Map<string, string> {
  const messages = (request.body as {
    messages: { role: string; content: unknown; tool_call_id?: string }[];
  }).messages;
  return new Map(
    messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id!, String(m.content)]),
  );
}

/** Every tool result the model was sent during the world's life, by call id. */
function allResults(w: World): Map<string, string> {
  const all = new Map<string, string>();
  for (const request of w.model.requestsTo("chat")) {
    for (const [id, text] of toolResults(request)) all.set(id, text);
  }
  return all;
}

/** The first `uuid=<u>` in the result of call `id` that `request` carries back to the model. */
function uuidIn(request: RecordedRequest, id: string): string {
  const text = toolResults(request).get(id);
  assert.ok(text !== undefined, `no result for ${id} in the request`);
  const match = /uuid=([0-9a-f-]{36})/.exec(text);
  assert.ok(match, `no uuid in the result of ${id}: ${text}`);
  return match[1];
}

/** Scripts one step: the given tool calls. */
function step(calls: Call[]) {
  return { json: chatCompletion({ toolCalls: calls }) };
}

/** `tool name=<t> … outcome=<o>` journal lines, as [name, outcome] pairs. */
function toolLines(stderr: string): [string, string][] {
  return [...stderr.matchAll(/INFO tool name=(\S+) duration=\S+ outcome=(\S+)/g)]
    .map((m) => [m[1], m[2]]);
}

/** `posted … kind=tool` journal lines as { message, timeline }. */
function postedLines(stderr: string): { message: string; timeline: string }[] {
  return [...stderr.matchAll(/INFO posted message=(\S+) timeline=(\S+) kind=tool chars=\d+/g)]
    .map((m) => ({ message: m[1], timeline: m[2] }));
}

/** The timelines of the message POSTs the sandbox recorded from index `from` on. */
function messagePosts(w: World, from: number): string[] {
  return w.sandbox.requests.slice(from)
    .filter((r) => r.method === "POST" && /^\/timelines\/[^/]+\/messages$/.test(r.path))
    .map((r) => r.path.split("/")[2]);
}

Deno.test("every benign tool end to end, behind the gate", async () => {
  await using w = await world();
  const ask = await say(w, "@ada please exercise every tool you have");

  // ---- Wake 1: everything but webhook_events, lock and delete. -------------------------------
  let second = "";
  let asset = "";
  let task = "";
  let endpoint = "";
  w.model.reply(
    "chat",
    step([
      { id: "mem_w", name: "memory", arguments: { action: "write", key: "color", value: "teal" } },
      { id: "me", name: "users", arguments: { action: "me" } },
      { id: "u_list", name: "users", arguments: { action: "list" } },
      { id: "u_read", name: "users", arguments: { action: "read", user: "@bob" } },
      { id: "trust", name: "trust", arguments: { action: "grant", user: "@bob" } },
      { id: "tl_new", name: "timelines", arguments: { action: "create", name: "scratch" } },
      { id: "m_list", name: "messages", arguments: { action: "list" } },
      {
        id: "a_new",
        name: "assets",
        arguments: { action: "create", filename: "notes.txt", content: "hello from ada\n" },
      },
      {
        id: "t_new",
        name: "tasks",
        arguments: { action: "create", instructions: "check in with bob", activate_at: "+1h" },
      },
      {
        id: "ep_new",
        name: "webhook_endpoints",
        arguments: { action: "create", description: "ci hook" },
      },
      { id: "fetch", name: "web_fetch", arguments: { url: "https://127.0.0.1/" } },
    ]),
    (request) => {
      second = uuidIn(request, "tl_new");
      asset = uuidIn(request, "a_new");
      task = uuidIn(request, "t_new");
      endpoint = uuidIn(request, "ep_new");
      return step([
        { id: "mem_s", name: "memory", arguments: { action: "search", query: "teal" } },
        { id: "tl_read", name: "timelines", arguments: { action: "read", timeline: second } },
        { id: "tl_list", name: "timelines", arguments: { action: "list" } },
        {
          id: "tl_add",
          name: "timelines",
          arguments: { action: "add_participant", timeline: second, user: "@bob" },
        },
        { id: "m_read", name: "messages", arguments: { action: "read", uuid: ask.content.uuid } },
        { id: "a_list", name: "assets", arguments: { action: "list" } },
        { id: "a_read", name: "assets", arguments: { action: "read", uuid: asset } },
        { id: "t_list", name: "tasks", arguments: { action: "list" } },
        { id: "t_read", name: "tasks", arguments: { action: "read", uuid: task } },
        { id: "ep_list", name: "webhook_endpoints", arguments: { action: "list" } },
        { id: "leak", name: "messages", arguments: { action: "create", body: `key: ${API_KEY}` } },
        {
          id: "side",
          name: "messages",
          arguments: { action: "create", body: "scratch notes", timeline: second },
        },
        {
          id: "reply",
          name: "messages",
          arguments: { action: "create", body: "Done: every tool exercised." },
        },
      ]);
    },
    { json: chatCompletion({ content: "Exercised the tools." }) },
  );
  const before1 = w.sandbox.requests.length;
  const first = await w.wake();
  assert.equal(first.code, 0, first.stderr);

  // The default set: exactly the twelve benign tools, and the four working-state tools every
  // wake has, are offered to the model.
  const offered = (w.model.requestsTo("chat")[0].body as {
    tools: { function: { name: string } }[];
  }).tools.map((t) => t.function.name).sort();
  assert.deepEqual(offered, WAKE_TOOLS);

  // Each result, as the model read it in the next request.
  let r = allResults(w);
  assert.equal(r.get("mem_w"), "Remembered 'color'.");
  assert.match(r.get("me")!, new RegExp(`^You are @ada \\(Ada\\) · ai, uuid=${w.agent.uuid}\\.`));
  assert.match(r.get("u_list")!, /^Users on the platform:\n.*@bob \(Bob\) · human · mutual trust/);
  assert.match(r.get("u_read")!, new RegExp(`@bob .*uuid=${w.peer.uuid}\nTrust: mutual trust$`));
  assert.match(r.get("trust")!, /^You now trust @bob .* trust is now mutual both ways/);
  assert.equal(r.get("tl_new"), `Created timeline 'scratch' (uuid=${second}). You own it.`);
  assert.match(
    r.get("m_list")!,
    new RegExp(`uuid=${ask.content.uuid} · @bob · \\S+ — @ada please`),
  );
  assert.match(r.get("a_new")!, /^Uploaded 'notes\.txt' \(15 bytes\)\. uuid=\S+ · filename=/);
  assert.match(r.get("t_new")!, /^Scheduled a task\. uuid=\S+ · status=pending · activate_at=/);
  assert.match(r.get("ep_new")!, /^Created webhook endpoint \(uuid=\S+\)\. Its ingest URL/);
  // web_fetch ran and its address guard held: a refusal, no connection (nothing listens there).
  assert.equal(
    r.get("fetch"),
    "Couldn't fetch 'https://127.0.0.1/': refused: 127.0.0.1 is a " +
      "loopback address.",
  );
  assert.equal(r.get("mem_s"), "Memories matching 'teal':\ncolor: teal");
  assert.match(r.get("tl_read")!, /^Timeline 'scratch' \(uuid=\S+\) · locked=False\nOwner: @ada/);
  assert.match(r.get("tl_list")!, new RegExp(`uuid=${second} · 'scratch' · locked=False`));
  assert.match(r.get("tl_list")!, new RegExp(`uuid=${w.timeline} · 'chat'`));
  assert.equal(r.get("tl_add"), `Added @bob to timeline 'scratch' (uuid=${second}).`);
  assert.match(r.get("m_read")!, /\n\n@ada please exercise every tool you have$/);
  assert.match(r.get("a_list")!, new RegExp(`uuid=${asset} · filename='notes\\.txt' · 15 bytes`));
  assert.match(r.get("a_read")!, /text\/plain\n\nhello from ada\n$/);
  assert.match(
    r.get("t_list")!,
    new RegExp(`uuid=${task} · status=pending .* — check in with bob`),
  );
  assert.match(
    r.get("t_read")!,
    new RegExp(`^uuid=${task} · status=pending .*\n\ncheck in with bob$`),
  );
  assert.match(r.get("ep_list")!, new RegExp(`uuid=${endpoint} · enabled · .* — ci hook`));
  assert.match(
    r.get("leak")!,
    /^Couldn't create a message: the outbound gate blocked it \(failed check: secret_guard\)\./,
  );
  assert.ok(!r.get("leak")!.includes(API_KEY)); // the refusal never quotes the secret
  const sideMsg = /uuid is (\S+)\.$/.exec(r.get("side")!)![1];
  const replyMsg = /uuid is (\S+)\.$/.exec(r.get("reply")!)![1];
  assert.match(r.get("side")!, new RegExp(`^Posted to timeline ${second}\\.`));
  assert.match(r.get("reply")!, new RegExp(`^Posted to timeline ${w.timeline}\\.`));

  // The journal: one `tool` line per call, every one ok but the fetch web_fetch refused and the
  // guarded post: the model read both refusals as answers, and the lines say what happened.
  const lines1 = toolLines(first.stderr);
  assert.equal(lines1.length, 24);
  assert.deepEqual(lines1.filter(([, o]) => o !== "ok"), [
    ["web_fetch", "refused"],
    ["messages", "blocked"],
  ]);
  assert.match(first.stderr, /WARNING post blocked timeline=\S+ kind=tool check=secret_guard/);
  assert.doesNotMatch(first.stderr, new RegExp(API_KEY));

  // The gate stands before every post: each message POST the sandbox saw is a `posted` line,
  // and the refused body never reached the endpoint (3 creates, 2 POSTs).
  const posted1 = postedLines(first.stderr);
  assert.deepEqual(posted1, [
    { message: sideMsg, timeline: second },
    { message: replyMsg, timeline: w.timeline },
  ]);
  assert.deepEqual(messagePosts(w, before1), posted1.map((p) => p.timeline));
  const keyed = w.sandbox.requests.slice(before1)
    .filter((q) => q.method === "POST" && q.path.endsWith("/messages"));
  assert.ok(keyed.every((q) => q.status === 201 && q.idempotencyKey), "every post is keyed");
  assert.match(first.stderr, /wake end timeline=\S+ outcome=ok turns=1 steps=3\/24 posted=2/);

  // The sandbox's state shows every effect.
  assert.deepEqual(await agentPosts(w), ["Done: every tool exercised."]);
  assert.equal((await w.peer.client.messages.get(sideMsg)).content.body, "scratch notes");
  const scratch = (await w.peer.client.timelines.get(second)).timeline;
  assert.equal(scratch.owner.uuid, w.agent.uuid);
  assert.deepEqual(scratch.participants.map((p) => p.uuid), [w.peer.uuid]);
  const file = await w.peer.client.assets.get(asset);
  assert.equal(file.content.file?.filename, "notes.txt");
  const blob = await w.peer.client.assets.download(file);
  assert.equal(new TextDecoder().decode(blob.bytes), "hello from ada\n");
  const due = await w.peer.client.tasks.get(task);
  assert.equal(due.content.status, "pending");
  assert.equal(due.content.instructions, "check in with bob");
  const delay = Date.parse(due.content.activate_at) - Date.now();
  assert.ok(delay > 3_500_000 && delay <= 3_600_000, `activate_at is +1h, got ${delay} ms`);
  const hooks = await w.agent.client.webhookEndpoints.list({ timeline: w.timeline }).toArray();
  assert.deepEqual(hooks.map((h) => [h.content.uuid, h.content.description]), [
    [endpoint, "ci hook"],
  ]);
  for (const timeline of [w.timeline, second]) {
    const all = await w.peer.client.messages.list({ timeline }).toArray();
    assert.ok(all.every((m) => !m.content.body.includes("sk-")), "the key reached the platform");
  }

  // ---- Between wakes: an external delivery to the endpoint the agent created. ---------------
  const delivery = await w.peer.client.webhookEvents.ingest(
    hooks[0].content.ingest_url,
    '{"build":"green"}',
    { contentType: "application/json" },
  );
  assert.equal(delivery.status, 201, delivery.body);

  // ---- Wake 2 (on the event): webhook_events, then lock and delete on the second timeline. ---
  let event = "";
  let lockedMidWake: boolean | undefined;
  w.model.reply(
    "chat",
    step([{ id: "ev_list", name: "webhook_events", arguments: { action: "list" } }]),
    (request) => {
      event = uuidIn(request, "ev_list");
      return step([
        { id: "ev_read", name: "webhook_events", arguments: { action: "read", uuid: event } },
        { id: "lock_bare", name: "lock", arguments: { timeline: second } },
      ]);
    },
    step([{ id: "lock_ok", name: "lock", arguments: { timeline: second, confirm: second } }]),
    async () => {
      lockedMidWake = (await w.peer.client.timelines.get(second)).timeline.locked;
      return step([
        { id: "del_bare", name: "delete", arguments: { timeline: second } },
        { id: "del_ok", name: "delete", arguments: { timeline: second, confirm: second } },
      ]);
    },
    { json: chatCompletion({ content: "Checked the build hook; cleaned up scratch." }) },
  );
  const before2 = w.sandbox.requests.length;
  // As a router does: the event that woke the agent rides as --event (a first event wake without
  // a trigger only sets the baseline).
  const [received] = await w.agent.client.webhookEvents.list({ timeline: w.timeline }).toArray();
  const again = await w.wake(["--event", received.content.uuid]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /wake end timeline=\S+ outcome=ok turns=1 steps=5\/24 posted=0/);
  r = allResults(w);
  assert.match(
    r.get("ev_list")!,
    new RegExp(
      `uuid=${event} · received=\\S+ · content_type=application/json.* — \\{"build":"green"\\}`,
    ),
  );
  assert.match(r.get("ev_read")!, /\n\nPayload:\n\{"build":"green"\}$/);
  assert.equal(
    r.get("lock_bare"),
    `Refused to lock timeline 'scratch' (uuid=${second}), which currently has 1 item(s). No ` +
      "confirm was passed. Locking permanently freezes the timeline's content and there is NO " +
      "unlock (reopening is an operator-only action); it is NOT how you list, leave, or delete " +
      `a timeline. If you really mean to lock THIS timeline, call lock again with confirm=${second}.`,
  );
  assert.match(r.get("lock_ok")!, new RegExp(`^Locked timeline 'scratch' \\(uuid=${second}\\)\\.`));
  assert.equal(lockedMidWake, true);
  assert.match(
    r.get("del_bare")!,
    new RegExp(
      `^Refused to delete timeline 'scratch' \\(uuid=${second}\\), which currently ` +
        `has 1 item\\(s\\)\\. No confirm was passed\\. .* call delete again with confirm=${second}\\.$`,
    ),
  );
  assert.match(r.get("del_ok")!, new RegExp(`^Deleted timeline 'scratch' \\(uuid=${second}\\)\\.`));
  assert.deepEqual(toolLines(again.stderr), [
    ["webhook_events", "ok"],
    ["webhook_events", "ok"],
    ["lock", "refused"], // no confirm: refused with a preview
    ["lock", "ok"],
    ["delete", "refused"],
    ["delete", "ok"],
  ]);
  // Deleted ⇒ 404; the main timeline is untouched and still usable; nothing was posted.
  const gone = await w.peer.client.timelines.get(second).then(() => undefined, (e) => e);
  assert.ok(gone instanceof PlatformError, String(gone));
  assert.equal(gone.status, 404);
  assert.equal((await w.peer.client.timelines.get(w.timeline)).timeline.locked, false);
  assert.deepEqual(postedLines(again.stderr), []);
  assert.deepEqual(messagePosts(w, before2), []);

  // Every tool of the default set ran at least once across the two wakes.
  const ran = new Set([...toolLines(first.stderr), ...toolLines(again.stderr)].map(([n]) => n));
  assert.deepEqual([...ran].sort(), BENIGN);
});
