/**
 * A Grok persona switches from the Python harness without an edit
 * (docs/models.md#ai_sdkxai-sdk-runs-on-the-openai-sdk): its `agent.env` says `AI_PROVIDER=xai`,
 * `AI_SDK=xai-sdk` (the Python harness's native gRPC adapter), with the `export` prefixes and
 * quotes the router strips, and its config home grants Live Search and the grok media tools. Read
 * as the router reads it and run as the router runs it, the wake answers through the real openai
 * SDK on xAI's Responses surface (here a wire mock standing in for api.x.ai), says so in one INFO
 * line, and `resolved-config` and `version` report what actually runs.
 */
import assert from "node:assert/strict";
import { parseAgentEnv } from "../../lib/config/agent_env.ts";
import { responsesReply } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { agentPosts, say, world } from "./wake_support.ts";

Deno.test("a Python Grok persona's agent.env wakes and answers over the openai SDK at xAI, unedited", async () => {
  await using w = await world();
  const config = w.env.BASECRADLE_CONFIG_HOME;
  // The persona's config home, as the Python harness's installer left it for an xAI agent.
  const installed = await runCli(
    ["install", "--provider", "xai", "--opt-in", "xai_search,grok_generate_image"],
    { env: w.env },
  );
  assert.equal(installed.code, 0, installed.stderr);
  // The persona's agent.env, written for the Python harness. The one line a real box lacks is
  // AI_BASE_URL, which points "api.x.ai" at the wire mock.
  const agentEnv = [
    "# Grok persona",
    "export AI_PROVIDER=xai",
    'export AI_SDK="xai-sdk"',
    "AI_MODEL='grok-4'",
    "AI_API_KEY=xai-test-0123456789abcdef",
    `HARNESS_HOME="${w.home}"`,
    `BASECRADLE_TOKEN=${w.env.BASECRADLE_TOKEN}`,
    `BASECRADLE_BASE_URL=${w.env.BASECRADLE_BASE_URL}`,
    `BASECRADLE_CONFIG_HOME=${config}`,
    `HOME=${w.home}`,
    `AI_BASE_URL=${w.model.baseURL}`,
  ].join("\n");
  await Deno.writeTextFile(`${config}/agent.env`, agentEnv + "\n");
  // The router's wake runner: an empty environment, then agent.env read literally.
  const env = parseAgentEnv(agentEnv);

  await say(w, "what's new on X about the launch?");
  w.model.reply(
    "responses",
    {
      json: responsesReply({
        toolCalls: [{
          id: "call_0",
          name: "messages",
          arguments: { action: "create", body: "Launch is trending; details in thread." },
        }],
      }),
    },
    { json: responsesReply({ text: "Answered." }) },
  );
  const wake = await runCli(["wake", "--timeline", w.timeline], { env });
  assert.equal(wake.code, 0, wake.stderr);
  assert.deepEqual(await agentPosts(w), ["Launch is trending; details in thread."]);

  // One INFO line says what runs instead, and where.
  const notices = wake.stderr.split("\n").filter((line) => line.includes("AI_SDK=xai-sdk"));
  assert.deepEqual(notices, [
    `INFO AI_SDK=xai-sdk (the Python harness's native gRPC adapter) runs on the openai SDK at ` +
    `${w.model.baseURL}, responses surface: the same xAI models, with Live Search (web_search, ` +
    "x_search), xAI code execution and the grok media tools wherever their plugins are active, " +
    "as under the xai-sdk profile.",
  ]);
  assert.match(wake.stderr, /INFO wake start timeline=\S+ provider=xai model=grok-4/);

  // The real openai SDK spoke the Responses wire, with the xai-sdk profile's tool set.
  const requests = w.model.requestsTo("responses");
  assert.equal(requests.length, 2);
  assert.equal(requests[0].headers.get("authorization"), "Bearer xai-test-0123456789abcdef");
  const body = requests[0].body as Record<string, unknown>;
  assert.equal(body.model, "grok-4");
  assert.deepEqual(body.search_parameters, {
    mode: "on",
    sources: [{ type: "web" }, { type: "x" }],
    return_citations: true,
  });
  const tools = (body.tools as { type: string; name?: string }[]).map((t) => t.name ?? t.type);
  assert.ok(tools.includes("grok_generate_image"), tools.join(", "));
  assert.ok(tools.includes("messages"), tools.join(", "));

  // resolved-config reports what runs, and what was configured.
  const resolved = await runCli(["resolved-config"], { env });
  assert.equal(resolved.code, 0, resolved.stderr);
  const doc = JSON.parse(resolved.stdout);
  assert.deepEqual(
    [doc.ai_provider, doc.ai_sdk, doc.ai_sdk_configured, doc.ai_sdk_surface, doc.ai_model],
    ["xai", "openai", "xai-sdk", "responses", "grok-4"],
  );
  assert.match(doc.ai_sdk_version, /^\d+\.\d+\.\d+$/);
  assert.deepEqual(doc.builtins, ["web_search", "x_search"]);
  assert.ok(doc.tools.includes("grok_generate_image"));

  // The version line names the SDK that runs, too.
  const version = await runCli(["version"], { env });
  assert.match(version.stdout, /^harness \S+ · openai SDK \d+\.\d+\.\d+\n$/);

  // The checks agree: the persona's config home loads as its wake loads it.
  const verify = await runCli(["verify", "--no-evidence"], { env });
  assert.equal(verify.code, 0, verify.stderr);
});

Deno.test("AI_SDK=xai-sdk still refuses a provider other than xai and a surface other than native", async () => {
  await using w = await world();
  const wrongProvider = await w.wake([], { AI_SDK: "xai-sdk", AI_PROVIDER: "openai" });
  assert.equal(wrongProvider.code, 1);
  assert.match(
    wrongProvider.stderr,
    /^ERROR harness wake: AI_SDK=xai-sdk reaches xAI's native endpoint, so it requires AI_PROVIDER=xai \(got 'openai'\)\.$/m,
  );
  const wrongSurface = await w.wake([], { AI_SDK: "xai-sdk", AI_PROVIDER: "xai" });
  assert.equal(wrongSurface.code, 1, "the world's AI_SDK_SURFACE=chat is no xai-sdk surface");
  assert.match(wrongSurface.stderr, /Unknown AI_SDK_SURFACE 'chat' for AI_SDK='xai-sdk'/);
  assert.equal(w.model.hits(), 0);
});
