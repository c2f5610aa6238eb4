/**
 * Stop at the refusal limit (docs/security.md#stop-at-the-second-refusal): once the gate refused
 * the agent's words `max_refusals_per_turn` times in a turn, every further post or create of
 * agent text is refused unscreened — the gate is not even asked, nothing is sent — with a
 * model-readable refusal that is not counted as one more; the wake's own reports still go, and
 * the next turn opens again. The gate here is the real one over a recording platform client.
 */
import assert from "node:assert/strict";
import { Gate } from "../../lib/gate/gate.ts";
import { GateRefusal } from "../../lib/gate/refusal.ts";
import { SPEAKING_CLOSED, SpeakingClosed } from "../../lib/gate/closed.ts";
import type { PlatformClient } from "../../lib/platform/mod.ts";
import { WakeContext } from "../../lib/wake/context.ts";
import { RecordingJournal } from "../core/engine_fixtures.ts";

const LEAK = "the key is sk-live0123456789abcdefghij";

/** A client that records the bodies it was asked to post (the only call a post makes). */
function recordingClient(posted: string[]): PlatformClient {
  const messages = {
    create: (_timeline: string, cleared: { body?: string; fields?: { body: string } }) => {
      const body = cleared.body ?? cleared.fields?.body ?? "";
      posted.push(body);
      return Promise.resolve({ content: { uuid: `m${posted.length}`, body } });
    },
  };
  return { messages } as unknown as PlatformClient;
}

function setup(maxRefusals?: number) {
  const posted: string[] = [];
  const journal = new RecordingJournal();
  const gate = new Gate({ client: recordingClient(posted), journal });
  const context = new WakeContext({
    client: recordingClient(posted),
    gate,
    timeline: "tl",
    self: { uuid: "agent", handle: "agent" },
    journal,
    maxRefusals,
  });
  context.beginTurn("item-1", [], 0);
  return { posted, journal, context };
}

const post = (context: WakeContext, body: string, kind: "tool" | "failure-report" = "tool") =>
  context.gate.post({ timeline: "tl", body, kind });

Deno.test("speaking closed: the second refusal closes the turn; a clean post is then refused unsent", async () => {
  const { posted, journal, context } = setup();
  await assert.rejects(post(context, LEAK), GateRefusal);
  assert.equal(context.closed, false);
  await assert.rejects(
    context.gate.clear({
      surface: "task",
      fields: { instructions: LEAK } as never,
      timeline: "tl",
    }),
    GateRefusal,
  );
  assert.equal(context.refusals, 2);
  assert.equal(context.closed, true);

  const error = await post(context, "A perfectly clean reply.").catch((e) => e);
  assert.ok(error instanceof SpeakingClosed);
  assert.ok(error instanceof GateRefusal, "tools report it as they report any refusal");
  assert.equal(error.check, SPEAKING_CLOSED);
  assert.match(error.message, /refused this turn's text 2 time\(s\).*do not try again/);
  await assert.rejects(
    context.gate.clear({ surface: "direct_message", fields: { body: "hi" } as never }),
    SpeakingClosed,
  );
  assert.deepEqual(posted, [], "nothing reached the platform");
  assert.equal(context.refusals, 2, "a closed turn's refusals are not counted again");
  assert.equal(journal.lines().filter((l) => l.startsWith("WARNING speaking closed")).length, 1);
  assert.ok(journal.lines().includes("WARNING speaking closed timeline=tl refusals=2"));
  assert.equal(
    journal.lines().filter((l) => l.includes(`check=${SPEAKING_CLOSED}`)).length,
    2,
    journal.lines().join("\n"),
  );
});

Deno.test("speaking closed: the wake's own report still goes, and the next turn opens again", async () => {
  const { posted, context } = setup();
  await assert.rejects(post(context, LEAK));
  await assert.rejects(post(context, LEAK));
  await post(context, "The turn failed; sorry.", "failure-report");
  assert.deepEqual(posted, ["The turn failed; sorry."]);
  context.endTurn();
  context.beginTurn("item-2", [], 0);
  assert.equal(context.closed, false);
  await post(context, "Hello again.");
  assert.deepEqual(posted, ["The turn failed; sorry.", "Hello again."]);
});

Deno.test("speaking closed: the limit is guardrails.json's max_refusals_per_turn", async () => {
  const { posted, context } = setup(3);
  await assert.rejects(post(context, LEAK));
  await assert.rejects(post(context, LEAK));
  assert.equal(context.closed, false);
  await post(context, "Third time, clean.");
  assert.deepEqual(posted, ["Third time, clean."]);
  await assert.rejects(post(context, LEAK));
  await assert.rejects(post(context, "clean"), SpeakingClosed);
  // A limit of one closes the turn at its first refusal.
  const strict = setup(1);
  await assert.rejects(post(strict.context, LEAK));
  assert.equal(strict.context.closed, true);
  await assert.rejects(post(strict.context, "clean"), SpeakingClosed);
});
