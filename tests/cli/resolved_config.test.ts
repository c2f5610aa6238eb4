/**
 * `harness resolved-config` and `harness wake --resolved-config` as real processes under the
 * production permission set: every field of docs/configuration.md#resolved-config with its null/[]
 * rules, Python's sorted indent-2 layout, no key needed, read-only, errors as one stderr line, and
 * the live `sandbox`.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { BENIGN_TOOLS } from "../support/benign_tools.ts";

/** The fields of docs/configuration.md#resolved-config, the additive ones too, sorted. */
const FIELDS = [
  "active_profile",
  "ai_model",
  "ai_provider",
  "ai_sdk",
  "ai_sdk_surface",
  "ai_sdk_version",
  "builtins",
  "harness_version",
  "max_context_tokens",
  "mcp_request_timeout",
  "mcp_servers",
  "memory_provider",
  "memory_provider_version",
  "model_params",
  "model_params_stripped",
  "opt_in_tools",
  "overlay_tool_stems",
  "platform_sdk_version",
  "runtime",
  "sandbox",
  "skipped",
  "tools",
];

const BENIGN = BENIGN_TOOLS;

/** A throwaway HOME with its config home beneath; no model key, no platform. */
async function box(): Promise<{ dir: string; env: Record<string, string> } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "resolved-config-" });
  return {
    dir,
    // Blank values read as unset, so the parent's environment cannot leak a setting in.
    env: {
      HOME: dir,
      BASECRADLE_CONFIG_HOME: `${dir}/config`,
      AI_API_KEY: "",
      AI_MODEL: "",
      AI_PROVIDER: "",
      AI_SDK: "",
      AI_SDK_SURFACE: "",
      HARNESS_PROFILE: "",
      HARNESS_MEMORY_PROVIDER: "",
      HARNESS_MAX_CONTEXT_TOKENS: "",
      HARNESS_MCP_TIMEOUT: "",
      HARNESS_HOME: "",
    },
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }).catch(() => {}),
  };
}

async function resolved(env: Record<string, string>, args = ["resolved-config"]) {
  const result = await runCli(args, { env });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  return { text: result.stdout, doc: JSON.parse(result.stdout) };
}

Deno.test("a default env prints every field, sorted, indent 2, with no key needed", async () => {
  await using b = await box();
  const { text, doc } = await resolved(b.env);
  assert.deepEqual(Object.keys(doc), FIELDS);
  // Python's json.dumps(indent=2, sort_keys=True): the JS layout, floats spelled as floats.
  const pythonLayout = JSON.stringify(doc, null, 2).replace(
    '"mcp_request_timeout": 20',
    '"mcp_request_timeout": 20.0',
  );
  assert.equal(text, `${pythonLayout}\n`);
  assert.equal(doc.ai_provider, "openai");
  assert.equal(doc.ai_sdk, "openai");
  assert.equal(doc.ai_sdk_surface, "responses");
  assert.match(doc.ai_sdk_version, /^\d+\.\d+\.\d+/);
  assert.equal(typeof doc.platform_sdk_version, "string");
  assert.equal(doc.platform_sdk_version, doc.harness_version);
  assert.equal(doc.ai_model, null);
  assert.equal(doc.active_profile, "locked");
  assert.equal(doc.max_context_tokens, null);
  assert.equal(doc.memory_provider, "sqlite");
  assert.equal(doc.memory_provider_version, null);
  assert.deepEqual(doc.tools, BENIGN);
  assert.deepEqual(doc.builtins, []);
  assert.deepEqual(doc.skipped, []);
  assert.deepEqual(doc.opt_in_tools, []);
  assert.equal(doc.overlay_tool_stems, null);
  assert.deepEqual(doc.mcp_servers, []);
  assert.deepEqual(doc.model_params, {});
  assert.deepEqual(doc.model_params_stripped, []);
  assert.equal(doc.runtime, `deno ${Deno.version.deno}`);
  assert.deepEqual(doc.sandbox, {
    ffi: "denied",
    net_deny: ["169.254.0.0/16", "100.100.100.200", "[fd00:ec2::254]"],
    run: "denied",
    write: "granted",
  });
  // Read-only: nothing appeared in the config home.
  assert.equal(await Deno.stat(`${b.dir}/config`).catch(() => null), null);
});

Deno.test("env values come through: model, context tokens, timeout, params verbatim", async () => {
  await using b = await box();
  await Deno.mkdir(`${b.dir}/config`, { recursive: true });
  await Deno.writeTextFile(
    `${b.dir}/config/model_params.json`,
    '{"temperature": 1.0, "reasoning": {"effort": "low"}, "model": "x"}',
  );
  const { text, doc } = await resolved({
    ...b.env,
    AI_MODEL: "gpt-x",
    HARNESS_MAX_CONTEXT_TOKENS: "0",
    HARNESS_MCP_TIMEOUT: "45",
  });
  assert.equal(doc.ai_model, "gpt-x");
  assert.equal(doc.max_context_tokens, 0);
  assert.equal(doc.mcp_request_timeout, 45);
  assert.match(text, /"mcp_request_timeout": 45\.0,/);
  assert.match(text, /"temperature": 1\.0\n/);
  assert.deepEqual(Object.keys(doc.model_params), ["model", "reasoning", "temperature"]);
  assert.deepEqual(doc.model_params_stripped, ["model"]);
});

Deno.test("an installed home with --opt-in system_prompt reports the overlay and the opt-in", async () => {
  await using b = await box();
  const installed = await runCli(["install", "--opt-in", "system_prompt"], { env: b.env });
  assert.equal(installed.code, 0, installed.stderr);
  const version = await Deno.readTextFile(`${b.dir}/config/.version`);
  // A stale stamp must survive: resolved-config never reconciles.
  await Deno.writeTextFile(`${b.dir}/config/.version`, "0.0.1\n");
  const { doc } = await resolved(b.env);
  assert.deepEqual(doc.tools, [...BENIGN, "system_prompt_edit", "system_prompt_read"].sort());
  assert.deepEqual(doc.opt_in_tools, ["system_prompt"]);
  assert.ok(Array.isArray(doc.overlay_tool_stems));
  assert.ok(doc.overlay_tool_stems.includes("system_prompt"));
  assert.ok(doc.overlay_tool_stems.includes("messages"));
  assert.deepEqual(doc.overlay_tool_stems, [...doc.overlay_tool_stems].sort());
  assert.equal(await Deno.readTextFile(`${b.dir}/config/.version`), "0.0.1\n");
  assert.notEqual(version, "0.0.1\n");
});

Deno.test("a malformed model_params.json exits 1 with one stderr line and no stdout", async () => {
  await using b = await box();
  await Deno.mkdir(`${b.dir}/config`, { recursive: true });
  await Deno.writeTextFile(`${b.dir}/config/model_params.json`, "[1, 2]");
  for (const args of [["resolved-config"], ["wake", "--resolved-config"]]) {
    const result = await runCli(args, { env: b.env });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    const lines = result.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, result.stderr);
    const prefix = args[0] === "wake" ? "harness wake: " : "harness resolved-config: ";
    assert.ok(lines[0].startsWith(prefix), lines[0]);
    assert.match(lines[0], /model_params\.json must be a JSON object .* an array\./);
  }
});

Deno.test("a bad env is one stderr line too", async () => {
  await using b = await box();
  const result = await runCli(["resolved-config"], { env: { ...b.env, AI_PROVIDER: "nope" } });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^harness resolved-config: Unknown AI_PROVIDER 'nope'.*\n$/);
});

Deno.test("sandbox.run is denied under locked and granted under unlocked", async () => {
  await using b = await box();
  const locked = await resolved({ ...b.env, HARNESS_PROFILE: "locked" });
  assert.equal(locked.doc.sandbox.run, "denied");
  assert.equal(locked.doc.active_profile, "locked");
  const unlocked = await resolved({ ...b.env, HARNESS_PROFILE: "unlocked" });
  assert.equal(unlocked.doc.sandbox.run, "granted");
  assert.equal(unlocked.doc.sandbox.ffi, "denied");
  assert.equal(unlocked.doc.active_profile, "unlocked");
});

Deno.test("wake --resolved-config is the same document and ignores --timeline", async () => {
  await using b = await box();
  const direct = await resolved(b.env);
  const viaWake = await resolved(b.env, ["wake", "--resolved-config", "--timeline", "not-a-uuid"]);
  assert.equal(viaWake.text, direct.text);
});

Deno.test("shell opted in: skipped under locked, and under unlocked only its root veto bars it", async () => {
  await using b = await box();
  const installed = await runCli(["install", "--opt-in", "shell"], { env: b.env });
  assert.equal(installed.code, 0, installed.stderr);
  const locked = await resolved(b.env);
  assert.ok(!locked.doc.tools.includes("shell"));
  assert.ok(locked.doc.skipped.includes("shell"));
  assert.deepEqual(locked.doc.opt_in_tools, ["shell"]);
  const unlocked = await resolved({ ...b.env, HARNESS_PROFILE: "unlocked" });
  const root = Deno.uid() === 0;
  assert.equal(unlocked.doc.tools.includes("shell"), !root);
  assert.equal(unlocked.doc.skipped.includes("shell"), root);
});

Deno.test("an MCP drop-in is listed; unapproved, it is skipped, spawns nothing and keeps no run", async () => {
  await using b = await box();
  await Deno.mkdir(`${b.dir}/config/mcp`, { recursive: true });
  await Deno.writeTextFile(
    `${b.dir}/config/mcp/notes.json`,
    JSON.stringify({ command: "node", args: ["does-not-exist.js"] }),
  );
  const { doc } = await resolved({ ...b.env, HARNESS_PROFILE: "locked" });
  assert.deepEqual(doc.mcp_servers, ["notes"]);
  assert.ok(doc.skipped.includes("notes"), JSON.stringify(doc.skipped));
  assert.deepEqual(doc.tools, BENIGN);
  assert.equal(doc.sandbox.run, "denied");
});
