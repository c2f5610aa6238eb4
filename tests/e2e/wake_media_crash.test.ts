/**
 * A media generation is a paid, non-idempotent effect (docs/operating.md#the-delivery-guarantee):
 * a wake SIGKILLed after the generation returned but before its upload was recorded leaves the
 * call with an unknown outcome, and the recovery wake never calls the generation endpoint again.
 * The kill lands while the generated image's upload is held by a sandbox delay fault.
 */
import assert from "node:assert/strict";
import { INTERRUPTED } from "../../lib/core/transcript/heal.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { say, session, spawnWake, waitFor, world } from "./wake_support.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

Deno.test("crash (c) media: killed while the generated image uploads ⇒ never generated again", async () => {
  await using w = await world();
  const installed = await runCli(["install", "--opt-in", "generate_image"], { env: w.env });
  assert.equal(installed.code, 0, installed.stderr);
  await say(w, "draw me a lighthouse");
  const generate = {
    json: chatCompletion({
      toolCalls: [{
        id: "call_img",
        name: "generate_image",
        arguments: { prompt: "a lighthouse" },
      }],
    }),
  };
  // The dying wake: the generation answers at once; the upload of its bytes is held.
  w.model.reply("chat", generate);
  w.model.reply("images", { json: { data: [{ b64_json: btoa(String.fromCharCode(...PNG)) }] } });
  w.sandbox.addFault({
    path: `^/timelines/${w.timeline}/assets$`,
    method: "POST",
    delay_ms: 30_000,
  });
  const dying = spawnWake(w);
  await waitFor(
    "the generated image's upload to reach the sandbox",
    () =>
      w.sandbox.pending.some((r) =>
        r.method === "POST" && r.path === `/timelines/${w.timeline}/assets`
      ),
    20_000,
    dying.stderr,
  );
  assert.equal(w.model.hits("images"), 1);
  await dying.kill();

  // The recovery: the interrupted generation is not re-run; the model is told its outcome is
  // unknown and finishes the turn.
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{
          id: "call_say",
          name: "messages",
          arguments: { action: "create", body: "The drawing may not have gone through." },
        }],
      }),
    },
    { json: chatCompletion({ content: "Told ada." }) },
  );
  const recovery = await w.wake();
  assert.equal(recovery.code, 0, recovery.stderr);
  assert.equal(w.model.hits("images"), 1, "the generation endpoint was called again");
  assert.doesNotMatch(recovery.stderr, /re-issued tool=generate_image/);
  const results = (await session(w)).filter((m) =>
    m.role === "tool" && m.tool_call_id === "call_img"
  );
  assert.deepEqual(results.map((m) => m.content), [INTERRUPTED]);
  const idle = await w.wake();
  assert.equal(idle.code, 0, idle.stderr);
  assert.equal(w.model.hits("images"), 1);
});
