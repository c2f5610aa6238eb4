/**
 * No exit path prints a credential (docs/security.md#secrets). Every command is run as a real
 * process with the harness's secret variables set to random values that have no recognisable
 * shape (so only the registered-literal scrubbing can catch them), while the platform, the model
 * vendor, a config file's path or a malformed value echoes them back in the error the command
 * reports. Nothing of any secret may reach stdout or stderr, and each path must really have run
 * (its exit code and its own line are asserted too).
 */
import assert from "node:assert/strict";
import { json, problem, startStub } from "../support/http_stub.ts";
import { chatCompletion, openaiError } from "../support/model_mock.ts";
import { type CliResult, runCli } from "../support/run_cli.ts";
import { say, world } from "./wake_support.ts";

const TIMELINE = "01900000-0000-7000-8000-0000000000c1";

function random(prefix: string, length = 28): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return prefix + [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
}

/** The harness's secret variables, each a fresh random value of no known credential shape. */
function secrets(): Record<string, string> {
  return {
    AI_API_KEY: random("k"),
    BASECRADLE_TOKEN: random("t", 32),
    NOC_PROBE_SECRET: random("p"),
    XAI_MANAGEMENT_KEY: random("x"),
    NTFY_DM_TOKEN: random("n"),
  };
}

/** Every secret value, and the sentence a hostile server would echo them in. */
function echo(s: Record<string, string>): string {
  return `rejected credentials ${Object.values(s).join(" and ")} for this request`;
}

function assertClean(result: CliResult, s: Record<string, string>, what: string): void {
  for (const [name, value] of Object.entries(s)) {
    assert.ok(!result.stdout.includes(value), `${what}: ${name} on stdout:\n${result.stdout}`);
    assert.ok(!result.stderr.includes(value), `${what}: ${name} on stderr:\n${result.stderr}`);
  }
}

/** A platform that answers every request 401, its problem detail echoing every secret. */
async function echoingPlatform(s: Record<string, string>, status = 401) {
  return await startStub(() => problem(status, "unauthorized", echo(s)));
}

async function tempHome(s: Record<string, string>): Promise<string> {
  // The secret in the path itself: every error naming a file then names it.
  const root = await Deno.makeTempDir({ prefix: "secrets-" });
  const home = `${root}/${s.BASECRADLE_TOKEN}`;
  await Deno.mkdir(home, { recursive: true });
  return home;
}

function baseEnv(s: Record<string, string>, home: string, platform: string) {
  return {
    ...s,
    HOME: home,
    HARNESS_HOME: `${home}/state`,
    BASECRADLE_CONFIG_HOME: `${home}/config`,
    BASECRADLE_BASE_URL: platform,
    AI_MODEL: "scripted",
  };
}

Deno.test("secrets: a wake refused by the platform (401 echoing every secret) prints none", async () => {
  const s = secrets();
  await using platform = await echoingPlatform(s);
  const home = await tempHome(s);
  const result = await runCli(["wake", "--timeline", TIMELINE], {
    env: baseEnv(s, home, platform.url),
  });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^ERROR harness wake: .*rejected credentials \[redacted\]/m);
  assert.match(result.stderr, /ERROR wake failed timeline=/);
  assertClean(result, s, "wake, 401");
});

Deno.test("secrets: a platform 500 with an HTML body echoing every secret prints none", async () => {
  const s = secrets();
  await using platform = await startStub(() =>
    new Response(`<html><body>upstream said ${echo(s)}</body></html>`, {
      status: 502,
      headers: { "content-type": "text/html" },
    })
  );
  const home = await tempHome(s);
  const result = await runCli(["wake", "--timeline", TIMELINE], {
    env: baseEnv(s, home, platform.url),
  });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^ERROR harness wake: /m);
  assertClean(result, s, "wake, 502");
});

Deno.test("secrets: a malformed variable whose value is a secret is refused without echoing it", async () => {
  const s = secrets();
  await using platform = await echoingPlatform(s);
  const home = await tempHome(s);
  const env = { ...baseEnv(s, home, platform.url), HARNESS_MAX_STEPS: s.AI_API_KEY };
  for (const args of [["wake", "--timeline", TIMELINE], ["resolved-config"]]) {
    const result = await runCli(args, { env });
    assert.equal(result.code, 1, `${args[0]}: ${result.stderr}`);
    assert.match(result.stderr, /HARNESS_MAX_STEPS/);
    assertClean(result, s, `${args[0]}, malformed variable`);
  }
});

Deno.test("secrets: a model vendor's 401 echoing the key and token prints neither", async () => {
  const s = secrets();
  await using w = await world();
  await say(w, "hello?");
  w.model.reply("chat", {
    status: 401,
    json: openaiError(`Incorrect API key provided: ${echo(s)}`),
  });
  const env = { ...s, BASECRADLE_TOKEN: w.env.BASECRADLE_TOKEN };
  const result = await w.wake([], env);
  const used = { ...s, BASECRADLE_TOKEN: w.env.BASECRADLE_TOKEN };
  assert.equal(w.model.hits("chat"), 1);
  assert.match(result.stderr, /Incorrect API key provided/);
  assertClean(result, used, "wake, vendor 401");
});

Deno.test("secrets: a tool call whose arguments carry a secret is journalled without it", async () => {
  const s = secrets();
  await using w = await world();
  await say(w, "fetch it");
  const url = `http://127.0.0.1:1/?q=${w.env.AI_API_KEY}&t=${w.env.BASECRADLE_TOKEN}`;
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{ id: "call_0", name: "web_fetch", arguments: { url } }],
      }),
    },
    { json: chatCompletion({ content: `tried ${w.env.AI_API_KEY}` }) },
    // The one-on-one nudge asks once more; the agent stays silent again.
    { json: chatCompletion({ content: `tried ${w.env.AI_API_KEY}` }) },
  );
  const result = await w.wake([], { NOC_PROBE_SECRET: s.NOC_PROBE_SECRET });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /INFO tool name=web_fetch/);
  assert.match(result.stderr, /unspoken .*text="tried \[redacted\]"/);
  assertClean(result, {
    AI_API_KEY: w.env.AI_API_KEY,
    BASECRADLE_TOKEN: w.env.BASECRADLE_TOKEN,
  }, "wake, tool");
});

Deno.test("secrets: cleanup --sweep against a platform echoing every secret prints none", async () => {
  const s = secrets();
  await using platform = await echoingPlatform(s);
  const home = await tempHome(s);
  const env = baseEnv(s, home, platform.url);
  await Deno.mkdir(`${env.HARNESS_HOME}/sessions`, { recursive: true });
  await Deno.writeTextFile(
    `${env.HARNESS_HOME}/sessions/timeline%3A${TIMELINE}.json`,
    '{"messages": []}',
  );
  const result = await runCli(["cleanup", "--sweep"], { env });
  assert.ok(platform.requests.length > 0, "the sweep asked the platform");
  assertClean(result, s, "cleanup --sweep");
});

Deno.test("secrets: install, resolved-config, mcp and records name files without the secret in their path", async () => {
  const s = secrets();
  await using platform = await echoingPlatform(s);
  const home = await tempHome(s);
  const env = baseEnv(s, home, platform.url);

  const installed = await runCli(["install"], { env });
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout + installed.stderr, /\[redacted\]/); // it names the config home
  assertClean(installed, s, "install");

  await Deno.writeTextFile(`${env.BASECRADLE_CONFIG_HOME}/model_params.json`, "{ not json");
  const resolved = await runCli(["resolved-config"], { env });
  assert.equal(resolved.code, 1, resolved.stderr);
  assert.match(resolved.stderr, /model_params\.json/);
  assertClean(resolved, s, "resolved-config");
  await Deno.remove(`${env.BASECRADLE_CONFIG_HOME}/model_params.json`);

  await Deno.writeTextFile(`${env.BASECRADLE_CONFIG_HOME}/mcp/broken.json`, "{ not json");
  const mcp = await runCli(["mcp", "list"], { env });
  assert.match(mcp.stdout + mcp.stderr, /broken/);
  assertClean(mcp, s, "mcp list");

  await Deno.mkdir(`${env.HARNESS_HOME}/records`, { recursive: true });
  await Deno.writeTextFile(`${env.HARNESS_HOME}/records/${TIMELINE}.jsonl`, "{ torn\n");
  const records = await runCli(["records", "verify"], { env });
  assert.notEqual(records.code, 0, records.stdout + records.stderr);
  assertClean(records, s, "records verify");

  const failedInstall = await runCli(["install"], {
    env: { ...env, BASECRADLE_CONFIG_HOME: `/proc/${s.AI_API_KEY}/config` },
  });
  assert.equal(failedInstall.code, 1, failedInstall.stderr);
  assert.match(failedInstall.stderr, /^harness install: /m);
  assertClean(failedInstall, s, "install, unwritable home");
});

Deno.test("secrets: the demo with a vendor echoing the key prints none of it", async () => {
  const s = secrets();
  await using vendor = await startStub(() =>
    json(openaiError(`Incorrect API key provided: ${echo(s)}`), 401)
  );
  const result = await runCli(["demo"], {
    env: { ...s, AI_MODEL: "gpt-test", AI_BASE_URL: `${vendor.url}/v1`, HOME: await tempHome(s) },
  });
  assert.ok(vendor.requests.length > 0, "the demo's wake called the vendor");
  assert.match(result.stdout, /Incorrect API key provided/);
  assertClean(result, s, "demo");
});

Deno.test("secrets: poll mode against a platform echoing every secret prints none", async () => {
  const s = secrets();
  await using platform = await echoingPlatform(s);
  const home = await tempHome(s);
  const result = await runCli(["poll", "--timeline", TIMELINE], {
    env: baseEnv(s, home, platform.url),
  });
  assert.equal(result.code, 1, result.stderr);
  assertClean(result, s, "poll");
});
