/**
 * The declarative plugin file: every shipped stem parses, its affinity and opt-in are read from
 * the JSON as the Python harness reads them (docs/configuration.md#tool-plugin-files), requirement
 * reasons are fixed texts, and a bad file is an answer (a sentence), never a throw.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { SHIPPED_TOOL_DEFAULTS } from "../../lib/config/defaults.ts";
import {
  parsePluginFile,
  pluginOptsIn,
  pluginProviders,
  pluginRelevantTo,
  unmetReasons,
} from "../../lib/config/plugins.ts";
import { SHIPPED_STEMS } from "../../lib/config/overlay.ts";
import { BENIGN_TOOLS } from "../support/benign_tools.ts";

/** The benign default set without the memory tool, which ships no tool plugin file. */
const BENIGN = BENIGN_TOOLS.filter((stem) => stem !== "memory");

/** Stem → affinity (null = universal), as docs/tools.md#the-shipped-stems lists the stems. */
const AFFINITY: Record<string, string[] | null> = {
  web_search: ["openai"],
  xai_search: ["xai"],
  openrouter_search: ["openrouter"],
  anthropic_search: ["anthropic"],
  code_execution: ["openai", "xai"],
  generate_image: ["openai"],
  edit_image: ["openai"],
  hear_audio: ["openai"],
  grok_generate_image: ["xai"],
  grok_edit_image: ["xai"],
  grok_generate_video: ["xai"],
  xai_account_balance: ["xai"],
  system_prompt: null,
  send_direct_message_to_origin: null,
  shell: null,
};

Deno.test("the 26 shipped stems are embedded byte for byte from defaults/tools", async () => {
  const dir = new URL("../../defaults/tools/", import.meta.url);
  const files = (await readdir(dir)).filter((name) => name.endsWith(".json")).sort();
  assert.equal(files.length, 26);
  assert.deepEqual(Object.keys(SHIPPED_TOOL_DEFAULTS), files.map((f) => `tools/${f}`));
  for (const file of files) {
    assert.equal(
      SHIPPED_TOOL_DEFAULTS[`tools/${file}`],
      await readFile(new URL(file, dir), "utf8"),
    );
  }
  assert.deepEqual(SHIPPED_STEMS, files.map((f) => f.replace(/\.json$/, "")));
});

Deno.test("every shipped plugin file is valid", () => {
  for (const [rel, text] of Object.entries(SHIPPED_TOOL_DEFAULTS)) {
    const parsed = parsePluginFile(rel.slice(6), text);
    assert.ok(parsed.ok, `${rel}: ${parsed.ok ? "" : parsed.error}`);
  }
});

Deno.test("opt-in and provider affinity come from the JSON, as the shipped stems list them", () => {
  for (const stem of SHIPPED_STEMS) {
    const text = SHIPPED_TOOL_DEFAULTS[`tools/${stem}.json`];
    assert.equal(pluginOptsIn(text), !BENIGN.includes(stem), stem);
    const expected = BENIGN.includes(stem) ? null : AFFINITY[stem];
    const got = pluginProviders(text);
    assert.deepEqual(got === null ? null : [...got].sort(), expected, stem);
  }
  const grok = SHIPPED_TOOL_DEFAULTS["tools/grok_generate_video.json"];
  assert.equal(pluginRelevantTo(grok, "openai"), false);
  assert.equal(pluginRelevantTo(grok, "xai"), true);
  assert.equal(pluginRelevantTo(grok, null), true);
});

Deno.test("unparseable text is universal and benign, so the loader reports the real error", () => {
  assert.equal(pluginProviders("{not json"), null);
  assert.equal(pluginOptsIn("{not json"), false);
  assert.equal(pluginRelevantTo("{not json", "xai"), true);
});

Deno.test("a plugin's name defaults to its tool or built-in, and `name` overrides it", () => {
  const parsed = parsePluginFile(
    "code_execution.json",
    SHIPPED_TOOL_DEFAULTS["tools/code_execution.json"],
  );
  assert.ok(parsed.ok);
  assert.deepEqual(
    parsed.value.plugins.map((p) => [p.name, p.tool ?? p.builtin, p.stem, p.optIn]),
    [
      ["code_execution", "code_interpreter", "code_execution", true],
      ["code_attach", "code_attach", "code_execution", true],
      ["code_execution", "code_execution", "code_execution", true],
    ],
  );
  const hear = parsePluginFile("hear_audio.json", SHIPPED_TOOL_DEFAULTS["tools/hear_audio.json"]);
  assert.ok(hear.ok);
  assert.equal(hear.value.plugins[0].name, "listen");
});

Deno.test("a broken file is a one-line reason, never a throw", () => {
  const cases: [string, RegExp][] = [
    ["{", /^not valid JSON: /],
    ["[]", /expected object/],
    [`{"format": 2, "plugins": [{"tool": "assets"}]}`, /^format: /],
    [`{"format": 1, "plugins": []}`, /plugins: must list at least one plugin/],
    [`{"format": 1, "plugins": [{"tool": "assets", "builtin": "web_search"}]}`, /exactly one/],
    [`{"format": 1, "plugins": [{}]}`, /exactly one of 'tool' or 'builtin'/],
    [`{"format": 1, "plugins": [{"tool": "nope"}]}`, /unknown tool 'nope'; this runtime's tools/],
    [`{"format": 1, "plugins": [{"builtin": "nope"}]}`, /unknown built-in 'nope'/],
    [`{"format": 1, "plugins": [{"tool": "assets", "note": "a\\nb"}]}`, /note must be one line/],
    [`{"format": 1, "plugins": [{"builtin": "web_search", "options": {}}]}`, /'options' apply/],
    [`{"format": 1, "plugins": [{"tool": "assets", "requires": {"vendr": "x"}}]}`, /vendr/],
    [`{"format": 1, "plugins": [{"tool": "assets", "name": "bad name"}]}`, /^plugins\.0\.name: /],
    [`{"format": 1, "plugins": [{"tool": "assets", "extra": 1}]}`, /extra/],
  ];
  for (const [text, pattern] of cases) {
    const parsed = parsePluginFile("x.json", text);
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) {
      assert.match(parsed.error, pattern, text);
      assert.ok(!parsed.error.includes("\n"), text);
    }
  }
});

Deno.test("options ride along to the tool", () => {
  const parsed = parsePluginFile(
    "fetch.json",
    `{"format": 1, "plugins": [{"tool": "web_fetch", "name": "fetch", "options": {"timeoutMs": 5}}]}`,
  );
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.value.plugins[0].options, { timeoutMs: 5 });
  assert.equal(parsed.value.plugins[0].name, "fetch");
  assert.equal(parsed.value.optIn, false);
});

Deno.test("requirement reasons are the documented texts, in a fixed order, all unmet ones listed", () => {
  const ctx = { provider: "xai", sdk: "openai", surface: "chat", env: {} };
  assert.deepEqual(
    unmetReasons({
      vendor: "openai",
      sdk: "openrouter",
      surface: "responses",
      openai_key: true,
      env_set: ["NTFY_DM_TOKEN"],
    }, ctx),
    [
      "needs the 'openai' provider (AI_PROVIDER=openai)",
      "needs the 'openrouter' SDK (AI_SDK=openrouter)",
      "needs the OpenAI 'responses' surface",
      "needs the openai provider (AI_PROVIDER=openai) and an API key (AI_API_KEY)",
      "needs NTFY_DM_TOKEN set",
    ],
  );
  const openai = { provider: "openai", sdk: "openai", surface: "responses", env: {} };
  assert.deepEqual(unmetReasons({ openai_key: true }, { ...openai, env: { AI_API_KEY: "k" } }), []);
  assert.equal(
    unmetReasons({ openai_key: true }, { ...openai, env: { AI_API_KEY: "" } }).length,
    1,
  );
  assert.deepEqual(unmetReasons({}, ctx), []);
});
