/**
 * The demo model through our own OpenAIProvider on both surfaces, and a whole turn through the
 * core Harness: the loop ends in two steps with the `messages` tool called exactly once.
 */
import { strict as assert } from "node:assert";
import { Harness } from "../../lib/core/harness.ts";
import { Message } from "../../lib/core/types/message.ts";
import { Tool, type ToolSpec } from "../../lib/core/types/tool.ts";
import { OpenAIProvider, type OpenAISurface } from "../../lib/providers/mod.ts";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { DEMO_MODEL_ID } from "../../lib/sandbox/model/mod.ts";

const SURFACES: readonly OpenAISurface[] = ["chat", "responses"];

const BATCH = "[2026-01-01T09:00:00.000Z] ada: Could you say hello to everyone here?";

const SPEECH: ToolSpec = {
  name: "messages",
  description: "Post to the timeline.",
  parameters: { type: "object", properties: { action: { type: "string" } } },
};

/** A stand-in for the real messages tool: records every body it is asked to post. */
class RecordingMessages extends Tool {
  readonly name = "messages";
  readonly description = "List, read or create messages on this timeline.";
  override readonly parameters = {
    type: "object",
    properties: { action: { type: "string" }, body: { type: "string" } },
    required: ["action"],
  };
  readonly bodies: string[] = [];

  run(args: { action: string; body?: string }): string {
    if (args.action !== "create" || typeof args.body !== "string") {
      throw new Error(`unexpected call ${JSON.stringify(args)}`);
    }
    this.bodies.push(args.body);
    return `Posted to timeline demo. The new message's uuid is m${this.bodies.length}.`;
  }
}

async function withProvider(
  surface: OpenAISurface,
  fn: (provider: OpenAIProvider, sandbox: Sandbox) => Promise<void>,
): Promise<void> {
  const sandbox = await Sandbox.start();
  try {
    const provider = new OpenAIProvider({
      model: DEMO_MODEL_ID,
      apiKey: "x",
      baseURL: sandbox.modelUrl,
      surface,
    });
    await fn(provider, sandbox);
  } finally {
    await sandbox.close();
  }
}

for (const surface of SURFACES) {
  Deno.test(`OpenAIProvider/${surface}: tool call, then narration, text without tools`, async () => {
    await withProvider(surface, async (provider) => {
      const conversation = [Message.system("charter"), Message.user(BATCH)];
      const first = await provider.chat(conversation, [SPEECH]);
      assert.equal(first.content, null);
      assert.equal(first.toolCalls?.length, 1);
      const call = first.toolCalls![0];
      assert.equal(call.name, "messages");
      assert.match(call.id, /^call_[0-9a-f]{24}$/);
      assert.equal(call.arguments.action, "create");
      assert.match(
        String(call.arguments.body),
        /^\(sandbox demo model\) @ada thanks for the question — I read 7 words, starting "Could you say hello to everyone …"\./,
      );
      assert.ok((first.usage?.tokensIn ?? 0) > 0, "usage reported");
      assert.ok((first.usage?.tokensOut ?? 0) > 0);
      assert.equal(first.usage?.tokensTotal, first.usage!.tokensIn! + first.usage!.tokensOut!);
      assert.equal(provider.lastTokensIn, first.usage?.tokensIn);

      // same request ⇒ same answer (the model is stateless)
      assert.deepEqual(await provider.chat(conversation, [SPEECH]), first);

      const after = [...conversation, first, Message.tool(call.id, "Posted.")];
      const second = await provider.chat(after, [SPEECH]);
      assert.equal(second.toolCalls, undefined);
      assert.equal(second.content, "Answered @ada's question on the timeline.");

      const reserve = await provider.chat(conversation);
      assert.equal(reserve.toolCalls, undefined);
      assert.match(reserve.content ?? "", /no messages tool was offered/);

      assert.equal(await provider.contextLimit(), 128_000);
      assert.deepEqual(provider.contextLimitSource, { kind: "reported", via: "models.retrieve" });
    });
  });

  Deno.test(`Harness/${surface}: a turn ends in 2 steps with messages called once`, async () => {
    await withProvider(surface, async (provider, sandbox) => {
      const speech = new RecordingMessages();
      const harness = new Harness(provider, { systemPrompt: "You are a peer.", tools: [speech] });
      const result = await harness.turn(BATCH);
      assert.equal(result.steps, 2);
      assert.equal(result.kind, "narration");
      assert.equal(result.text, "Answered @ada's question on the timeline.");
      assert.deepEqual(result.toolCalls.map((c) => [c.name, c.outcome]), [["messages", "ok"]]);
      assert.equal(speech.bodies.length, 1);
      assert.match(speech.bodies[0], /^\(sandbox demo model\) @ada thanks for the question/);
      assert.equal(result.usage.calls, 2);
      assert.ok(result.usage.tokensIn > 0 && result.usage.tokensOut > 0);
      const calls = sandbox.requests.filter((r) => r.path.startsWith("/_sandbox/model/"));
      assert.equal(calls.length, 2);

      // A second turn on the same session answers the new question, once, again.
      const next = await harness.turn("[2026-01-01T09:10:00.000Z] ada: thanks!");
      assert.equal(next.steps, 2);
      assert.equal(speech.bodies.length, 2);
      assert.match(
        speech.bodies[1],
        /@ada thanks for the message — I read 1 word, starting "thanks!"/,
      );
    });
  });
}
