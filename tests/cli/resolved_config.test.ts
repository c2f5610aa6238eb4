/**
 * `harness resolved-config` and `harness wake --resolved-config` as real processes under the
 * production permission set: every field of docs/configuration.md#resolved-config with its null/[]
 * rules, Python's sorted indent-2 layout, no key needed, read-only, errors as one stderr line, and
 * the live `sandbox`. Every config-home file that refuses does so in `resolved-config` and in a
 * wake with the same exit code and the same line; the files with soft rules are skipped by both.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { BENIGN_TOOLS } from "../support/benign_tools.ts";
import { install } from "../../lib/install/installer.ts";
import { NET_DENY_LIST } from "../../lib/runtime/permissions.ts";

/** The fields of docs/configuration.md#resolved-config, the additive ones too, sorted. */
const FIELDS = [
  "active_profile",
  "ai_model",
  "ai_provider",
  "ai_sdk",
  "ai_sdk_configured",
  "ai_sdk_surface",
  "ai_sdk_version",
  "budget",
  "builtins",
  "escalation",
  "harness_version",
  "host_rules",
  "knowledge",
  "max_context_tokens",
  "mcp_request_timeout",
  "mcp_servers",
  "memory_backend",
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
  assert.equal(doc.memory_backend, "sqlite");
  assert.deepEqual(doc.tools, BENIGN);
  assert.deepEqual(doc.builtins, []);
  assert.deepEqual(doc.skipped, []);
  assert.deepEqual(doc.opt_in_tools, []);
  assert.equal(doc.overlay_tool_stems, null);
  assert.deepEqual(doc.mcp_servers, []);
  assert.deepEqual(doc.model_params, {});
  assert.deepEqual(doc.model_params_stripped, []);
  assert.equal(doc.runtime, `deno ${Deno.version.deno}`);
  assert.deepEqual(doc.escalation, { enabled: false, on: [] });
  assert.deepEqual(doc.host_rules, { allow: null, enforced: false, file: null, outer_fence: null });
  assert.deepEqual(doc.sandbox, {
    ffi: "denied",
    // Every metadata address of the deny list is confirmed denied in the live process.
    net_deny: { denied: NET_DENY_LIST.length, entries: NET_DENY_LIST.length, missing: [] },
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

Deno.test("host rules: reported with the outer fence, and web_search refused under them", async () => {
  await using b = await box();
  const installed = await runCli(["install", "--opt-in", "web_search"], { env: b.env });
  assert.equal(installed.code, 0, installed.stderr);
  assert.deepEqual((await resolved(b.env)).doc.builtins, ["web_search"], "active without rules");
  const file = `${b.dir}/config/host_rules.json`;
  await Deno.writeTextFile(file, '{"allow": ["API.openai.com", "basecradle.com", "::1"]}');
  const { doc } = await resolved(b.env);
  assert.deepEqual(doc.host_rules, {
    allow: ["API.openai.com", "basecradle.com", "::1"],
    enforced: true,
    file,
    // The production permission set grants every host: the flag would narrow it.
    outer_fence: { allow_net: "api.openai.com,basecradle.com,[::1]", narrowed: false },
  });
  assert.deepEqual(doc.builtins, []);
  assert.ok(doc.skipped.includes("web_search"));
  await Deno.writeTextFile(file, '{"allow": ["regex:([a-z0-9-]+\\\\.)*openai\\\\.com"]}');
  const open = (await resolved(b.env)).doc.host_rules;
  assert.deepEqual(open.outer_fence, { allow_net: null, narrowed: false });
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

// ---------------------------------------------------------------------------------------------
// A config-home file that is wrong refuses the same way in `resolved-config` and in a wake
// (docs/configuration.md#when-a-file-is-wrong): exit 1, and one line naming file, key and fix
// that is word for word the same after each command's prefix.

/** A TCP port nothing listens on, so a wake that got past its configuration would fail loudly. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

const TIMELINE = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b";

/** What a wake needs to get as far as its configuration, and no further (no platform runs). */
function wakeEnv(b: { dir: string; env: Record<string, string> }): Record<string, string> {
  return {
    ...b.env,
    HARNESS_HOME: `${b.dir}/home`,
    AI_MODEL: "m",
    AI_API_KEY: "sk-test-key",
    BASECRADLE_TOKEN: "platform-token",
    BASECRADLE_EMAIL: "",
    BASECRADLE_PASSWORD: "",
    BASECRADLE_BASE_URL: `http://127.0.0.1:${closedPort()}`,
    HARNESS_LOG_LEVEL: "",
  };
}

/** The refusal each command prints: `resolved-config`'s one line, the wake's `ERROR harness wake:` line. */
async function refusals(b: { dir: string; env: Record<string, string> }, extra = {}) {
  const [report, wake] = await Promise.all([
    runCli(["resolved-config"], { env: { ...b.env, ...extra } }),
    runCli(["wake", "--timeline", TIMELINE], { env: { ...wakeEnv(b), ...extra } }),
  ]);
  assert.equal(report.code, 1, report.stderr);
  assert.equal(report.stdout, "");
  const reportLines = report.stderr.trimEnd().split("\n");
  assert.equal(reportLines.length, 1, report.stderr);
  assert.ok(reportLines[0].startsWith("harness resolved-config: "), report.stderr);
  assert.equal(wake.code, 1, wake.stderr);
  const wakeLines = wake.stderr.split("\n").filter((line) =>
    line.startsWith("ERROR harness wake: ")
  );
  assert.equal(wakeLines.length, 1, wake.stderr);
  const reason = reportLines[0].slice("harness resolved-config: ".length);
  assert.equal(wakeLines[0].slice("ERROR harness wake: ".length), reason, wake.stderr);
  assert.match(wake.stderr, /ERROR wake failed timeline=\S+ error=/);
  assert.doesNotMatch(wake.stderr, /\bwake start\b/, "refused before the wake began");
  return reason;
}

interface Refusal {
  readonly name: string;
  /** Lays the bad file into the config home `config`. */
  readonly setup: (config: string) => Promise<void>;
  /** Extra variables for both commands. */
  readonly env?: Record<string, string>;
  /** The whole reason, given the config home. */
  readonly reason: (config: string) => RegExp;
}

const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const REFUSALS: readonly Refusal[] = [
  {
    name: "model_params.json that is not JSON",
    setup: (c) => Deno.writeTextFile(`${c}/model_params.json`, "{oops"),
    reason: (c) =>
      new RegExp(
        `^${esc(`${c}/model_params.json`)} is not valid JSON: .*\\. Fix: correct the syntax ` +
          "\\(JSON has no comments or trailing commas\\), or delete the file to pass no " +
          "parameters\\.$",
      ),
  },
  {
    name: "model_params.json with a key the openrouter SDK does not take",
    setup: (c) => Deno.writeTextFile(`${c}/model_params.json`, '{"temprature": 0.2}'),
    env: { AI_PROVIDER: "openrouter", AI_SDK: "openrouter" },
    reason: (c) =>
      new RegExp(
        `^${esc(`${c}/model_params.json`)} key 'temprature' is not a parameter the openrouter ` +
          "SDK's chat\\.send accepts, .* Fix: spell it as one of chat\\.send's request keys",
      ),
  },
  {
    name: "search_params.json that is not an object, while its tool is off",
    setup: (c) => Deno.writeTextFile(`${c}/search_params.json`, "[1]"),
    reason: (c) =>
      new RegExp(
        `^${esc(`${c}/search_params.json`)} must be a JSON object \\(.*\\) but its top level ` +
          'is an array\\. Fix: write one object such as \\{"max_results": 5\\}',
      ),
  },
  {
    name: "guardrails.json with an unknown key",
    setup: (c) => Deno.writeTextFile(`${c}/guardrails.json`, '{"max_lenght": 400}'),
    reason: (c) =>
      new RegExp(
        `^Guardrails file ${esc(`${c}/guardrails.json`)} is invalid at 'max_lenght': unknown ` +
          "key\\. Fix: the keys are max_length, forbidden_patterns, secret_guard, " +
          "max_refusals_per_turn and tone",
      ),
  },
  {
    name: "guardrails.json with a pattern that does not compile",
    setup: (c) =>
      Deno.writeTextFile(`${c}/guardrails.json`, '{"forbidden_patterns": [{"pattern": "("}]}'),
    reason: (c) =>
      new RegExp(
        `^Guardrails file ${esc(`${c}/guardrails.json`)} is invalid at ` +
          "'forbidden_patterns\\[0\\]\\.pattern': not a valid regular expression .*\\. Fix: ",
      ),
  },
  {
    name: "host_rules.json with an entry that carries a port",
    setup: (c) => Deno.writeTextFile(`${c}/host_rules.json`, '{"allow": ["api.openai.com:443"]}'),
    reason: (c) =>
      new RegExp(
        `^${esc(`${c}/host_rules.json`)} entry allow\\[0\\] "api\\.openai\\.com:443" carries a ` +
          "port; host rules match a host on every port\\. Fix: write the host alone",
      ),
  },
  {
    name: "a prompt file that is not UTF-8, in an installed home",
    setup: async (c) => {
      await install({ configHome: c, provider: "openai" });
      await Deno.writeFile(`${c}/prompts/system-prompt.md`, new Uint8Array([0xff, 0xfe, 0x41]));
    },
    reason: (c) =>
      new RegExp(
        `^Prompt file ${esc(`${c}/prompts/system-prompt.md`)} could not be read: .*\\. Fix its ` +
          "permissions or encoding \\(UTF-8\\), or delete it to leave that part out\\.$",
      ),
  },
  {
    name: "a tools/ folder that is a file, in an installed home",
    setup: async (c) => {
      await install({ configHome: c, provider: "openai" });
      await Deno.remove(`${c}/tools`, { recursive: true });
      await Deno.writeTextFile(`${c}/tools`, "not a folder");
    },
    reason: (c) =>
      new RegExp(
        `^The folder of tool plugin files ${esc(`${c}/tools`)} could not be read: .*\\. Fix: ` +
          "make it a readable directory",
      ),
  },
];

for (const refusal of REFUSALS) {
  Deno.test(`${refusal.name}: resolved-config and a wake both exit 1 with the same line`, async () => {
    await using b = await box();
    const config = `${b.dir}/config`;
    await Deno.mkdir(config, { recursive: true });
    await refusal.setup(config);
    const reason = await refusals(b, refusal.env);
    assert.match(reason, refusal.reason(config));
  });
}

Deno.test("soft rules agree too: a broken plugin file or MCP config is skipped, never fatal", async () => {
  await using b = await box();
  const config = `${b.dir}/config`;
  await install({ configHome: config, provider: "openai" });
  await Deno.writeTextFile(`${config}/tools/zz_mine.json`, '{"format": 1, "plugins": []}');
  await Deno.writeTextFile(`${config}/mcp/broken.json`, "{not json");
  const { doc } = await resolved(b.env);
  assert.ok(doc.skipped.includes("zz_mine.json"), JSON.stringify(doc.skipped));
  assert.ok(doc.skipped.includes("broken"), JSON.stringify(doc.skipped));
  assert.deepEqual(doc.mcp_servers, []);
  assert.deepEqual(doc.tools, BENIGN);
  // The wake resolves the same way and says so; it then fails only on the platform, closed here.
  const wake = await runCli(["wake", "--timeline", TIMELINE], { env: wakeEnv(b) });
  assert.match(wake.stderr, /WARNING Skipping tool plugin file zz_mine\.json: /);
  assert.doesNotMatch(wake.stderr, /harness wake: .*zz_mine|harness wake: .*broken/);
});

Deno.test("mempalace and recall report the automatic provider that serves them, with its version", async () => {
  await using b = await box();
  for (const name of ["mempalace", "Recall"]) {
    const { doc } = await resolved({ ...b.env, HARNESS_MEMORY_PROVIDER: name });
    assert.equal(doc.memory_provider, name.toLowerCase());
    assert.equal(doc.memory_provider_version, doc.harness_version);
    assert.equal(doc.memory_backend, "recall");
    assert.ok(doc.tools.includes("memory_search"), doc.tools.join(","));
    assert.ok(!doc.tools.includes("memory"), "the explicit tool belongs to sqlite");
  }
});

Deno.test("AI_PROVIDER=anthropic: its SDK and version, and a model_params key it refuses", async () => {
  await using b = await box();
  const env = { ...b.env, AI_PROVIDER: "anthropic" };
  const { doc } = await resolved(env);
  assert.deepEqual([doc.ai_provider, doc.ai_sdk, doc.ai_sdk_surface], [
    "anthropic",
    "anthropic",
    "messages",
  ]);
  const lock = JSON.parse(await Deno.readTextFile(new URL("../../deno.lock", import.meta.url)));
  const pinned = Object.keys(lock.specifiers).find((k) => k.startsWith("npm:@anthropic-ai/sdk@"));
  assert.equal(doc.ai_sdk_version, pinned?.split("@").at(-1));
  await Deno.mkdir(`${b.dir}/config`, { recursive: true });
  await Deno.writeTextFile(`${b.dir}/config/model_params.json`, '{"temprature": 0.2}');
  for (const args of [["resolved-config"], ["wake", "--resolved-config"]]) {
    const result = await runCli(args, { env });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      /model_params\.json key 'temprature' is not a request parameter of Anthropic's Messages API/,
    );
  }
});
