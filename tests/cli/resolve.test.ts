/**
 * `harness resolve` as automation runs it: JSON on stdout (sorted keys, indent 2) for a good
 * question; one stderr line, exit 1 and nothing on stdout for a bad one; exit 2 for bad usage.
 */
import assert from "node:assert/strict";
import { VERSION } from "../../lib/base/version.ts";
import { runCli } from "../support/run_cli.ts";
import { BENIGN_TOOLS } from "../support/benign_tools.ts";

const BENIGN = BENIGN_TOOLS;

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

async function resolveJson(args: string[]) {
  const result = await runCli(["resolve", ...args]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const parsed = JSON.parse(result.stdout);
  // Python's json.dumps(indent=2, sort_keys=True) for ASCII text.
  assert.equal(result.stdout, JSON.stringify(sortKeys(parsed), null, 2) + "\n");
  return parsed;
}

Deno.test("the default question answers the benign set, every stem accounted for", async () => {
  const doc = await resolveJson([]);
  assert.equal(doc.harness_version, VERSION);
  assert.equal(doc.ai_provider, "openai");
  assert.equal(doc.ai_sdk, "openai");
  assert.equal(doc.ai_sdk_surface, "responses");
  assert.equal(doc.ai_model, "");
  assert.equal(doc.active_profile, "locked");
  assert.deepEqual(doc.credentials, { assumed: [], mode: "assumed" });
  assert.deepEqual(doc.memory, { provider: "sqlite", provider_version: null, tools: ["memory"] });
  assert.deepEqual(doc.requested_stems, []);
  assert.deepEqual(doc.tools, BENIGN);
  assert.deepEqual(doc.builtins, []);
  assert.deepEqual(doc.opt_in_tools, []);
  assert.equal(Object.keys(doc.stems).length, 26);
  assert.deepEqual(doc.stems.assets, {
    assumes_credential: [],
    builtins: [],
    granted: true,
    opt_in: false,
    reason: null,
    skipped: [],
    status: "active",
    tools: ["assets"],
  });
  assert.equal(doc.excluded_stems.length, 15);
  assert.deepEqual(doc.broken, []);
  assert.deepEqual(doc.omitted.map((o: { source: string }) => o.source), ["mcp", "runtime_veto"]);
});

Deno.test("opt-in stems per provider, and shell refused under the locked profile", async () => {
  const xai = await resolveJson(["--provider", "xai", "--opt-in", "xai_search,shell"]);
  assert.deepEqual(xai.builtins, ["web_search", "x_search"]);
  // Computed before the policy filter (docs/configuration.md#resolved-config): a locked-refused
  // shell still appears.
  assert.deepEqual(xai.opt_in_tools, ["shell", "xai_search"]);
  assert.deepEqual(xai.requested_stems, ["shell", "xai_search"]);
  assert.deepEqual(xai.skipped, [{
    name: "shell",
    reason: "refused by the safe-by-default policy: needs shell",
    stem: "shell",
  }]);
  assert.equal(xai.stems.shell.status, "inactive");
  const router = await resolveJson([
    "--provider",
    "openrouter",
    "--sdk",
    "openrouter",
    "--opt-in",
    "openrouter_search,web_search",
  ]);
  assert.deepEqual(router.builtins, ["web_search"]);
  assert.equal(router.stems.web_search.status, "excluded");
  assert.equal(router.stems.web_search.reason, "not relevant to the 'openrouter' provider");
  const key = await resolveJson(["--opt-in", "send_direct_message_to_origin"]);
  assert.deepEqual(key.credentials, { assumed: ["NTFY_DM_TOKEN"], mode: "assumed" });
  const none = await resolveJson([
    "--opt-in",
    "send_direct_message_to_origin",
    "--no-assume-credentials",
  ]);
  assert.deepEqual(none.credentials, { assumed: [], mode: "absent" });
});

Deno.test("--only restricts the candidates", async () => {
  const doc = await resolveJson(["--only", "messages,web_search", "--model", "gpt-x"]);
  assert.deepEqual(doc.tools, ["memory", "messages"]);
  assert.deepEqual(doc.builtins, ["web_search"]);
  assert.equal(doc.ai_model, "gpt-x");
  assert.equal(doc.stems.assets.reason, "not in --only");
});

Deno.test("a bad question is one stderr line and exit 1, nothing on stdout", async () => {
  const cases: [string[], RegExp][] = [
    [
      ["--opt-in", "x_search"],
      /^harness resolve: No shipped tool plugin is named: x_search\. Did you mean 'xai_search' for 'x_search'\? The shipped stems are: anthropic_search, assets, /,
    ],
    [["--provider", "google"], /^harness resolve: Unknown AI_PROVIDER 'google'/],
    [["--sdk", "xai-sdk"], /^harness resolve: AI_SDK=xai-sdk reaches xAI's native endpoint/],
    [["--surface", "nope"], /^harness resolve: Unknown AI_SDK_SURFACE 'nope'/],
    [
      ["--memory-provider", "redis"],
      /^harness resolve: HARNESS_MEMORY_PROVIDER='redis' is neither 'sqlite', 'recall'/,
    ],
  ];
  for (const [args, pattern] of cases) {
    const result = await runCli(["resolve", ...args]);
    assert.equal(result.code, 1, args.join(" "));
    assert.equal(result.stdout, "");
    assert.match(result.stderr, pattern);
    assert.equal(result.stderr.trimEnd().split("\n").length, 1);
  }
});

Deno.test("a bad --profile is a usage error (exit 2)", async () => {
  const result = await runCli(["resolve", "--profile", "open"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /--profile must be locked or unlocked, got 'open'/);
});

Deno.test("anthropic: the provider picks its SDK; its search stem grants Anthropic's web search", async () => {
  const claude = await resolveJson(["--provider", "anthropic", "--opt-in", "anthropic_search"]);
  assert.deepEqual(
    [claude.ai_provider, claude.ai_sdk, claude.ai_sdk_surface],
    ["anthropic", "anthropic", "messages"],
  );
  assert.deepEqual(claude.builtins, ["web_search"]);
  assert.equal(claude.stems.anthropic_search.status, "active");
  // OpenAI's web_search stem does not activate on Anthropic, nor Anthropic's on OpenAI.
  const both = await resolveJson(["--provider", "anthropic", "--opt-in", "web_search"]);
  assert.deepEqual(both.builtins, []);
  const openai = await resolveJson(["--opt-in", "anthropic_search"]);
  assert.deepEqual(openai.builtins, []);
});
