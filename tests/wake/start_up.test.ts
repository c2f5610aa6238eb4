/**
 * What a wake loads before it knows whether there is anything to answer. An idle wake must stay
 * cheap (bench/wake_bench.ts), so the engine, the tools, the gate's checks and the costly node:
 * built-ins stay off the start-up module graph; these tests pin that down, and the seams that
 * make it so.
 */
import assert from "node:assert/strict";
import { GUARDRAILS_FILE as GATE_FILE } from "../../lib/gate/guardrails.ts";
import type { Engine } from "../../lib/core/engine.ts";
import { DeferredGate } from "../../lib/wake/deferred_gate.ts";
import { GUARDRAILS_FILE, HOST_RULES_FILE } from "../../lib/runtime/resolve.ts";
import { HOST_RULES_FILE as LOADER_FILE } from "../../lib/config/host_rules.ts";
import { EngineSlot } from "../../lib/wake/wake_state.ts";
import type { Message } from "../../lib/platform/mod.ts";
import { staticGraph } from "../support/module_graph.ts";

Deno.test("an idle wake's start-up graph holds no engine, tool, gate or costly node: module", async () => {
  const graph = await staticGraph("lib/wake/wake.ts");
  assert.ok(graph.has("lib/platform/client.ts"), "the scan must see the platform client");
  assert.ok(graph.has("lib/core/transcript/session.ts"), "the scan must see the transcript store");
  assert.ok(
    graph.has("lib/wake/engaged_half.ts"),
    "the scan must see the door to the engaged half",
  );
  // A folder rule: the engaged half is loaded only when a turn engages.
  const engagedHalf = [...graph].filter((module) => module.startsWith("lib/wake/engaged/"));
  assert.deepEqual(engagedHalf, [], "lib/wake/engaged/ is on the idle wake's start-up graph");
  for (
    const module of [
      "lib/core/engine.ts",
      "lib/runtime/tool_set.ts",
      "lib/gate/gate.ts",
      "lib/gate/guardrails.ts",
      "lib/install/installer.ts",
      "lib/tools/shell/tool.ts",
      "lib/tools/messages.ts",
      // Escalation: loaded only when escalation.json switched a trigger on and it fired.
      "lib/wake/escalation.ts",
      "lib/tools/shared/ntfy.ts",
      "lib/home/escalations.ts",
      // The model adapters: config validates the model axes without them.
      "lib/providers/factory.ts",
      "lib/providers/openai.ts",
      "lib/providers/openrouter.ts",
      "lib/providers/anthropic.ts",
      "lib/providers/anthropic_wire.ts",
      "lib/providers/anthropic_reply.ts",
      // The host rules' parser and matcher: loaded only when host_rules.json exists.
      "lib/config/host_rules.ts",
      "lib/net/host_rules.ts",
      "lib/net/ip.ts",
      // The address fence for handed URLs: loaded when one first leaves the configured origins.
      "lib/net/handed_hop.ts",
      "lib/net/address_policy.ts",
      "lib/net/target.ts",
      "lib/net/dns.ts",
      "lib/net/pinned_transport.ts",
      "lib/net/http1.ts",
      // Working state: the notes store, its tools and the cold-start filter are engaged-only.
      "lib/home/working_state.ts",
      "lib/tools/working_state.ts",
      "lib/core/idle_filter.ts",
      // The knowledge pack: read by an engaged turn's charter, never by an idle wake.
      "lib/config/knowledge.ts",
      // The image codecs: loaded only by a request that carries an image.
      "lib/core/image_prep.ts",
      // The automatic memory provider: bound only when HARNESS_MEMORY_PROVIDER names it.
      "lib/memory/recall_provider.ts",
      "lib/memory/recall_store.ts",
      "lib/memory/palace_import.ts",
      "npm:fast-png@8.0.0",
      "npm:jpeg-js@0.4.4",
      // Each of these boots Deno's Node compatibility layer (several ms per wake).
      "node:util",
      "node:os",
      "node:fs/promises",
      "node:crypto",
      "node:process",
      "node:path",
      "node:url",
    ]
  ) {
    assert.ok(!graph.has(module), `${module} is on the idle wake's start-up graph`);
  }
});

Deno.test("no model SDK is on any start-up graph, idle or engaged: each loads on its first call", async () => {
  const sdk = (graph: Set<string>) =>
    [...graph].filter((m) => /^npm:\/?(openai|@openrouter\/sdk|@anthropic-ai\/sdk)\b/.test(m));
  const engaged = await staticGraph("lib/wake/engaged/mod.ts");
  // The scan must see the adapters, or the absence of their SDKs proves nothing.
  for (const adapter of ["openai", "openrouter", "anthropic"]) {
    assert.ok(engaged.has(`lib/providers/${adapter}.ts`), `the scan must see ${adapter}.ts`);
  }
  assert.deepEqual(sdk(engaged), []);
  assert.deepEqual(sdk(await staticGraph("lib/wake/wake.ts")), []);
});

Deno.test("an engaged turn's graph holds the shell tool only when it is opted in", async () => {
  const graph = await staticGraph("lib/wake/engaged/mod.ts");
  assert.ok(graph.has("lib/runtime/tool_set.ts"), "the scan must see the tool set");
  assert.ok(graph.has("lib/tools/messages.ts"), "the scan must see the platform tools");
  for (const module of ["lib/tools/shell/tool.ts", "lib/tools/shell/run.ts"]) {
    assert.ok(!graph.has(module), `${module} loads on every engaged turn`);
  }
});

Deno.test("the escalation sender is on no turn's start-up graph, only on its own", async () => {
  assert.ok((await staticGraph("lib/wake/escalation.ts")).has("lib/tools/shared/ntfy.ts"));
  const graph = await staticGraph("lib/wake/engaged/mod.ts");
  assert.ok(graph.has("lib/wake/engaged/escalation_trigger.ts"), "the scan must see the trigger");
  for (const module of ["lib/wake/escalation.ts", "lib/home/escalations.ts"]) {
    assert.ok(!graph.has(module), `${module} loads on every engaged turn`);
  }
});

Deno.test("the image codecs are on no start-up graph, idle or engaged, only on their own", async () => {
  const codec = (graph: Set<string>) => [...graph].filter((m) => /fast-png|jpeg-js/.test(m));
  // The scan must see the codecs where they are imported, or its absence elsewhere proves nothing.
  assert.ok(codec(await staticGraph("lib/core/image_prep.ts")).length > 0);
  for (const entry of ["lib/wake/wake.ts", "lib/wake/engaged/mod.ts", "lib/core/engine.ts"]) {
    const graph = await staticGraph(entry);
    assert.deepEqual(codec(graph), [], `a codec is on ${entry}'s start-up graph`);
    assert.ok(!graph.has("lib/core/image_prep.ts"), `image_prep.ts is on ${entry}'s graph`);
  }
});

Deno.test("the HTML entity decoder is on no start-up graph, only the page text layer's", async () => {
  const decoder = (graph: Set<string>) => [...graph].filter((m) => /^npm:entities@/.test(m));
  // The scan must see the package where it is imported, or its absence elsewhere proves nothing.
  assert.ok(decoder(await staticGraph("lib/tools/net/html_text.ts")).length > 0);
  for (const entry of ["lib/wake/wake.ts", "lib/wake/engaged/mod.ts", "lib/tools/web_fetch.ts"]) {
    const graph = await staticGraph(entry);
    assert.deepEqual(decoder(graph), [], `the decoder is on ${entry}'s start-up graph`);
    assert.ok(!graph.has("lib/tools/net/html_text.ts"), `html_text.ts is on ${entry}'s graph`);
  }
});

Deno.test("the CLI's start-up graph holds no subcommand", async () => {
  const graph = await staticGraph("main.ts");
  const commands = [...graph].filter((m) => /^lib\/cli\/(?!main|command|argv|registry)/.test(m));
  assert.deepEqual(commands, []);
  // Argument parsing is ours, so even `harness --help` never boots the Node layer.
  assert.deepEqual([...graph].filter((m) => m.startsWith("node:")), []);
});

Deno.test("the wake's guardrails file name is the gate's", () => {
  assert.equal(GUARDRAILS_FILE, GATE_FILE);
});

Deno.test("the idle wake carries the fetch path's light half: four small modules", async () => {
  // Every request passes the fetch path, so its door is on the graph: the scheme check, the
  // fence and the refusal, with lazy loading. The rules' parser and the address fence load only
  // when they are needed (asserted off the graph above).
  const graph = await staticGraph("lib/net/outbound.ts");
  assert.deepEqual([...graph].sort(), [
    "lib/base/lazy_import.ts",
    "lib/net/host_fence.ts",
    "lib/net/outbound.ts",
    "lib/net/refusal.ts",
  ]);
  const wake = await staticGraph("lib/wake/wake.ts");
  assert.ok(wake.has("lib/net/outbound.ts"), "the scan must see the fetch path");
  assert.deepEqual([...wake].filter((m) => m.startsWith("lib/net/")).sort(), [
    "lib/net/host_fence.ts",
    // The metadata list, a table: the permission narrowing checks the deny list against it.
    "lib/net/metadata_addresses.ts",
    "lib/net/outbound.ts",
    "lib/net/refusal.ts",
  ]);
});

Deno.test("the wake's host rules file name is the loader's", () => {
  assert.equal(HOST_RULES_FILE, LOADER_FILE);
});

Deno.test("EngineSlot builds once, and tallies nothing before it is built", async () => {
  let builds = 0;
  const engine = { turns: 2, steps: 5 } as unknown as Engine;
  const slot = new EngineSlot(() => {
    builds++;
    return Promise.resolve(engine);
  });
  assert.deepEqual([slot.turns, slot.steps, builds], [0, 0, 0]);
  const [a, b] = await Promise.all([slot.get(), slot.get()]);
  assert.equal(a, engine);
  assert.equal(b, engine);
  assert.deepEqual([slot.turns, slot.steps, builds], [2, 5, 1]);
});

Deno.test("DeferredGate builds the real gate on the first post, once", async () => {
  let builds = 0;
  const posted: string[] = [];
  const gate = new DeferredGate(() => {
    builds++;
    return Promise.resolve({
      post: (request) => {
        posted.push(request.body);
        return Promise.resolve({ content: { uuid: request.body } } as unknown as Message);
      },
      clear: () => Promise.reject(new Error("not used")),
    });
  });
  assert.equal(builds, 0);
  await gate.post({ timeline: "t", body: "one", kind: "tool" });
  await gate.post({ timeline: "t", body: "two", kind: "tool" });
  assert.deepEqual([builds, posted], [1, ["one", "two"]]);
});

Deno.test("the automatic memory provider loads the vendor SDK only with an embeddings model", async () => {
  const graph = await staticGraph("lib/memory/recall_provider.ts");
  assert.ok(graph.has("lib/memory/recall_store.ts"), "the scan must see the store");
  const sdk = [...graph].filter((m) => /openai|recall_embeddings/.test(m));
  assert.deepEqual(sdk, [], "the SDK is on the recall provider's start-up graph");
});
