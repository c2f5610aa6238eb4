/**
 * A create the platform committed but whose answer was lost (a 502 or 500 after the write, a 201
 * whose body is cut short, a connection dropped mid-answer) is never said twice
 * (docs/operating.md#the-delivery-guarantee). The harness re-sends it under the same
 * Idempotency-Key until the platform answers definitely — the sandbox then replays the original —
 * and the model is never told it failed. When no definite answer comes at all, the model is told
 * the outcome is unknown, the item's claim stays in flight, and the next wake's recovery re-sends
 * the create under the same key and settles it. Every trial counts what the peer finally sees.
 */
import assert from "node:assert/strict";
import type { FaultSpec } from "../../lib/sandbox/mod.ts";
import { OUTCOME_UNKNOWN } from "../../lib/core/types/outcome_unknown.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { SideBySide } from "../support/side_by_side.ts";
import {
  agentPosts,
  chatMessages,
  claimOf,
  mark,
  NO_CATCH_UP,
  say,
  type World,
  world,
} from "./wake_support.ts";

/** Each trial has its own world; most of its time is the wake's start-up and re-send back-off. */
const sideBySide = new SideBySide(6);

/** The ways a committed create's answer is lost. */
const SHAPES: ReadonlyArray<readonly [string, Omit<FaultSpec, "path" | "count" | "method">]> = [
  ["a 502 after the write", { status: 502, commit: true }],
  ["a 500 after the write", { status: 500, commit: true }],
  ["a 503 after the write", { status: 503, commit: true }],
  ["a 201 with a truncated body", { body: "truncate" }],
  ["a connection cut mid-answer", { body: "cut" }],
];

/** One kind of keyed create: the tool call that makes it, and what the platform holds after. */
interface CreateKind {
  readonly name: string;
  readonly path: (w: World) => string;
  readonly call: Record<string, unknown> & { name: string };
  /** How many of these the agent made, read back from the platform. */
  count(w: World): Promise<number>;
}

const KINDS: readonly CreateKind[] = [
  {
    name: "message",
    path: (w) => `^/timelines/${w.timeline}/messages$`,
    call: { name: "messages", action: "create", body: "the one reply" },
    count: async (w) => (await agentPosts(w)).length,
  },
  {
    name: "asset",
    path: (w) => `^/timelines/${w.timeline}/assets$`,
    call: { name: "assets", action: "create", filename: "notes.txt", content: "hello" },
    count: async (w) =>
      (await w.peer.client.assets.list({ timeline: w.timeline }).toArray())
        .filter((a) => a.user.uuid === w.agent.uuid).length,
  },
  {
    name: "task",
    path: (w) => `^/timelines/${w.timeline}/tasks$`,
    call: { name: "tasks", action: "create", instructions: "check in", activate_at: "+1d" },
    count: async (w) =>
      (await w.agent.client.tasks.list({ timeline: w.timeline }).toArray()).length,
  },
  {
    name: "webhook endpoint",
    path: (w) => `^/timelines/${w.timeline}/webhook_endpoints$`,
    call: { name: "webhook_endpoints", action: "create", description: "ci hook" },
    count: async (w) =>
      (await w.agent.client.webhookEndpoints.list({ timeline: w.timeline }).toArray()).length,
  },
];

/** Scripts one turn: the create call, then a closing line. */
function scriptCreate(w: World, kind: CreateKind): void {
  const { name, ...args } = kind.call;
  w.model.reply(
    "chat",
    { json: chatCompletion({ toolCalls: [{ id: "call_0", name, arguments: args }] }) },
    { json: chatCompletion({ content: "Done." }) },
    // A create that is not speech leaves a one-on-one turn unanswered: the nudge asks once more.
    { json: chatCompletion({ content: "Done." }) },
  );
}

/** The tool result the model was shown for the create (the second request's last tool turn). */
function toolResultShown(w: World, request: number): string {
  const shown = chatMessages(w.model, request).filter((m) => m.role === "tool");
  return String(shown.at(-1)?.content ?? "");
}

/** Keys the sandbox saw on the agent's keyed creates of this kind (the peer's posts carry none). */
function keys(w: World, kind: CreateKind): (string | null)[] {
  const path = new RegExp(kind.path(w));
  return w.sandbox.requests.filter((r) =>
    r.method === "POST" && path.test(r.path) && r.idempotencyKey !== null
  ).map((r) => r.idempotencyKey);
}

for (const kind of KINDS) {
  for (const [shape, fault] of SHAPES) {
    Deno.test(
      sideBySide.test(`lost ${kind.name} create (${shape}): re-sent under its key, made once`, async () => {
        await using w = await world(NO_CATCH_UP);
        await say(w, "please do it");
        w.sandbox.addFault({ path: kind.path(w), method: "POST", count: 1, ...fault });
        scriptCreate(w, kind);
        const result = await w.wake();
        assert.equal(result.code, 0, result.stderr);
        assert.equal(await kind.count(w), 1, "exactly one on the platform");
        const sent = keys(w, kind);
        assert.equal(sent.length, 2, "sent twice: the lost one and its re-send");
        assert.ok(sent[0] !== null && sent[0] === sent[1], "both under the same key");
        const told = toolResultShown(w, 1);
        assert.doesNotMatch(told, /Couldn't|failed|Error/, told);
        assert.doesNotMatch(result.stderr, /create unsettled|post failed/);
      }),
    );
  }
}

for (const [shape, fault] of SHAPES) {
  Deno.test(
    sideBySide.test(`an unanswerable message create (${shape} every time): unknown, then settled by the next wake`, async () => {
      await using w = await world(NO_CATCH_UP);
      const m = await say(w, "please reply");
      w.sandbox.addFault({ path: KINDS[0].path(w), method: "POST", count: 3, ...fault });
      scriptCreate(w, KINDS[0]);
      const first = await w.wake();
      assert.equal(first.code, 0, first.stderr);
      // The model was told the outcome is unknown, never that it failed.
      assert.equal(toolResultShown(w, 1), OUTCOME_UNKNOWN);
      assert.match(first.stderr, /WARNING create unsettled timeline=\S+ what=message attempts=3/);
      assert.doesNotMatch(first.stderr, /post failed/);
      // The item is left as a crash between POST and record would leave it.
      assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "in-flight");
      assert.equal(await mark(w, "messages"), undefined);
      const committed = await agentPosts(w);
      assert.ok(committed.length <= 1, "at most the one committed write");

      // The next wake re-sends it under the same key (the sandbox replays the original).
      const asked = w.model.hits("chat");
      const second = await w.wake();
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stderr, /re-issued/);
      assert.equal(w.model.hits("chat"), asked, "the settling wake asks the model nothing");
      assert.deepEqual(await agentPosts(w), ["the one reply"]);
      const sent = keys(w, KINDS[0]);
      assert.equal(new Set(sent).size, 1, "every send under one key");
      assert.equal((await claimOf(w, "messages", m.content.uuid))?.phase, "done");
      const [newest] = await w.peer.client.messages.list({ timeline: w.timeline, limit: 1 })
        .toArray();
      assert.equal(await mark(w, "messages"), newest.content.uuid, "the mark passed the item");

      const idle = await w.wake();
      assert.equal(idle.code, 0, idle.stderr);
      assert.match(idle.stderr, /turns=0 steps=0\/24 posted=0/);
      assert.deepEqual(await agentPosts(w), ["the one reply"]);
    }),
  );
}

Deno.test(
  sideBySide.test("a definite refusal (4xx with a problem body) is reported as a failure, sent once", async () => {
    await using w = await world(NO_CATCH_UP);
    await say(w, "please reply");
    w.sandbox.addFault({ path: KINDS[0].path(w), method: "POST", count: 1, status: 422 });
    scriptCreate(w, KINDS[0]);
    const result = await w.wake();
    assert.equal(result.code, 0, result.stderr);
    assert.match(toolResultShown(w, 1), /^Couldn't create a message: /);
    assert.equal(keys(w, KINDS[0]).length, 1, "a definite answer is never re-sent");
    assert.deepEqual(await agentPosts(w), []);
  }),
);
