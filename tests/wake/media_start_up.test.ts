/**
 * The media tools stay off every start-up graph: they are opt-in and paid, so an engaged turn
 * without them must not load their code (nor, through it, the openai SDK a second way). The tool
 * set reaches them only by a lazy load, and only when the resolution activated one.
 */
import assert from "node:assert/strict";
import type { ActiveTool } from "../../lib/config/tool_resolution.ts";
import { loadOptionalFactories } from "../../lib/runtime/tool_set.ts";
import { staticGraph } from "../support/module_graph.ts";

Deno.test("no wake graph, idle or engaged, holds the media tools", async () => {
  assert.ok(
    (await staticGraph("lib/tools/media/openai_media.ts")).has("lib/tools/media/common.ts"),
  );
  for (const entry of ["lib/wake/wake.ts", "lib/wake/engaged/mod.ts", "lib/runtime/tool_set.ts"]) {
    const media = [...await staticGraph(entry)].filter((m) => m.startsWith("lib/tools/media/"));
    assert.deepEqual(media, [], `media code is on ${entry}'s start-up graph`);
  }
});

const active = (tool: string): ActiveTool => ({
  tool,
  name: tool,
  options: {},
  stem: tool,
  note: null,
});

Deno.test("the media factories exist only when a media tool resolved, over the given environment", async () => {
  assert.deepEqual(Object.keys(await loadOptionalFactories([active("messages")])), []);
  const env = (name: string) =>
    ({ AI_PROVIDER: "openai", AI_API_KEY: "sk-x", AI_BASE_URL: "http://127.0.0.1:1/v1" })[name];
  const openai = await loadOptionalFactories([active("generate_image")], env);
  assert.deepEqual(Object.keys(openai).sort(), ["edit_image", "generate_image", "listen"]);
  const xai = await loadOptionalFactories([active("grok_generate_video")], env);
  assert.deepEqual(
    Object.keys(xai).sort(),
    ["grok_edit_image", "grok_generate_image", "grok_generate_video"],
  );
});

Deno.test("no wake graph, idle or engaged, holds the direct-message or balance tool", async () => {
  for (const entry of ["lib/wake/wake.ts", "lib/wake/engaged/mod.ts", "lib/runtime/tool_set.ts"]) {
    const graph = await staticGraph(entry);
    assert.ok(
      !graph.has("lib/tools/direct_message.ts"),
      `direct_message.ts is on ${entry}'s graph`,
    );
  }
});

Deno.test("the direct-message factory exists only when it resolved, with the given environment's URL", async () => {
  assert.deepEqual(Object.keys(await loadOptionalFactories([active("messages")])), []);
  const env = (name: string) =>
    ({ NTFY_DM_TOKEN: "t", NTFY_DM_URL: "http://127.0.0.1:1/dm" })[name];
  const dm = await loadOptionalFactories([active("send_direct_message_to_origin")], env);
  assert.deepEqual(Object.keys(dm), ["send_direct_message_to_origin"]);
  const balance = await loadOptionalFactories([active("xai_account_balance")], env);
  assert.deepEqual(Object.keys(balance), ["xai_account_balance"]);
});
