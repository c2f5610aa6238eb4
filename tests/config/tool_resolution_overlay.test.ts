/**
 * Tool resolution from a config home's `tools/` overlay (docs/configuration.md#tool-plugin-files):
 * the overlay is authoritative once installed, a later plugin replaces an earlier one of its name,
 * a broken shipped default is a defect while a broken operator file is a soft skip, and Python-era
 * files are understood by stem.
 */
import assert from "node:assert/strict";
import { SHIPPED_TOOL_DEFAULTS } from "../../lib/config/defaults.ts";
import { readOverlay } from "../../lib/config/overlay_read.ts";
import { resolveTools, type ResolveToolsInput } from "../../lib/config/tool_resolution.ts";
import { tempHome, write } from "./install_support.ts";

const shipped = (stem: string) => SHIPPED_TOOL_DEFAULTS[`tools/${stem}.json`];

function resolve(files: Record<string, string>, overrides: Partial<ResolveToolsInput> = {}) {
  return resolveTools({
    provider: "openai",
    sdk: "openai",
    surface: "responses",
    profile: "locked",
    overlay: { files },
    memoryTools: ["memory"],
    ...overrides,
  });
}

Deno.test("the overlay is the whole candidate set: present files load, absent stems do not", () => {
  const answer = resolve({
    "messages.json": shipped("messages"),
    "web_search.json": shipped("web_search"),
  });
  assert.deepEqual(answer.tools, ["memory", "messages"]);
  // Presence grants: an opt-in file in the overlay is active with no --opt-in.
  assert.deepEqual(answer.builtins, ["web_search"]);
  assert.deepEqual(answer.optInTools, ["web_search"]);
  assert.equal(answer.stems.assets.status, "excluded");
  assert.equal(answer.stems.assets.reason, "no tools/assets.json in the config home");
  assert.deepEqual(answer.overlayToolStems, ["messages", "web_search"]);
  assert.deepEqual(resolve({}).tools, ["memory"]);
  assert.deepEqual(resolve({}).overlayToolStems, []);
});

Deno.test("a later active plugin claiming a name replaces the earlier one", () => {
  const mine =
    `{"format": 1, "plugins": [{"tool": "web_fetch", "name": "messages", "note": "mine"}]}`;
  const answer = resolve({ "messages.json": shipped("messages"), "zz_override.json": mine });
  const claimed = answer.activeTools.filter((tool) => tool.name === "messages");
  assert.deepEqual(claimed.map((t) => [t.tool, t.stem, t.note]), [[
    "web_fetch",
    "zz_override",
    "mine",
  ]]);
  assert.deepEqual(answer.skipped, [{
    name: "messages",
    stem: "messages",
    reason: "overridden by a later plugin claiming 'messages'",
  }]);
  assert.equal(answer.stems.messages.status, "inactive");
  assert.equal(answer.stems.zz_override.status, "active");
});

Deno.test("an inactive later plugin does not displace an active earlier one", () => {
  const gated = `{"format": 1, "plugins": [{"tool": "assets", "requires": {"env_set": ["NOPE"]}}]}`;
  const xaiOnly = `{"format": 1, "plugins": [{"tool": "assets", "requires": {"vendor": "xai"}}]}`;
  const answer = resolve({
    "assets.json": shipped("assets"),
    "b_assets.json": gated,
    "c_assets.json": xaiOnly,
  });
  assert.deepEqual(answer.tools, ["assets", "memory"]);
  assert.equal(answer.activeTools[0].stem, "assets");
  assert.equal(answer.stems.b_assets.status, "inactive");
  assert.equal(answer.stems.b_assets.reason, "needs NOPE set");
  // The name is claimed, so no INFO line for it.
  assert.deepEqual(answer.inactive, []);
  // Provider-mismatched operator files are not even loaded, but their stems are walked.
  assert.equal(answer.stems.c_assets.status, "excluded");
  assert.deepEqual(answer.overlayToolStems, ["assets", "b_assets", "c_assets"]);
  const alone = resolve({ "b_assets.json": gated, "d.json": gated.replace("assets", "users") });
  assert.deepEqual(alone.inactive, [
    "Tool plugin 'assets' inactive: needs NOPE set.",
    "Tool plugin 'users' inactive: needs NOPE set.",
  ]);
});

Deno.test("a broken shipped default is an ERROR and a Tool defect; a broken operator file a soft skip", () => {
  const answer = resolve({ "assets.json": "{oops", "mine.json": `{"format": 1}` });
  assert.equal(answer.errors.length, 1);
  assert.match(
    answer.errors[0],
    /^Shipped tool plugin assets\.json failed to load: not valid JSON: .*This is a defect/,
  );
  assert.equal(answer.defects.length, 1);
  assert.match(answer.defects[0], /^assets\.json — failed to load: not valid JSON/);
  assert.equal(answer.stems.assets.status, "broken");
  assert.match(answer.stems.assets.reason ?? "", /^shipped default failed to load: not valid JSON/);
  assert.ok(
    answer.skipped.some((s) =>
      s.name === "assets.json" && s.reason.startsWith("shipped default failed")
    ),
  );
  assert.equal(answer.stems.mine.status, "broken");
  assert.deepEqual(answer.warnings, [
    "Skipping tool plugin file mine.json: plugins: Invalid input: expected array, received undefined",
  ]);
  assert.deepEqual(answer.broken.map((b) => b.file), ["assets.json", "mine.json"]);
  assert.deepEqual(answer.tools, ["memory"]);
});

Deno.test("Python-era files: a shipped stem's .py stands for its plugin; others are reported", () => {
  const answer = resolve({
    "assets.py": "from basecradle_harness import AssetsTool\n",
    "lock.py": "edited python",
    "lock.json": shipped("lock"),
    "polymarket.py": "PLUGIN = ...",
    "memory.py": "PLUGIN = ...",
    "web_search.py": "PLUGIN = ...",
    "notes.txt": "not a plugin",
    "lock.json.new": "not a plugin",
  });
  assert.deepEqual(answer.tools, ["assets", "lock", "memory"]);
  assert.deepEqual(answer.builtins, ["web_search"]);
  assert.deepEqual(answer.overlayToolStems, [
    "assets",
    "lock",
    "memory",
    "polymarket",
    "web_search",
  ]);
  const reasons = Object.fromEntries(answer.skipped.map((s) => [s.name, s.reason]));
  assert.match(reasons["lock.py"], /^a Python-era plugin file; lock\.json provides this stem now/);
  assert.match(
    reasons["polymarket.py"],
    /this runtime cannot run Python — port it to an MCP server/,
  );
  assert.match(reasons["memory.py"], /retired Python-era default/);
  assert.equal(answer.stems.polymarket.status, "excluded");
  assert.equal(answer.stems.lock.status, "active");
  assert.deepEqual(answer.excludedStems.map((e) => e.stem).filter((s) => s === "lock"), []);
  assert.ok(answer.warnings.some((w) => w.startsWith("Skipping tool plugin file polymarket.py: ")));
});

Deno.test("readOverlay: null until tools are installed, then tools/ is authoritative", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await write(home, "tools/assets.json", shipped("assets"));
    assert.equal(await readOverlay(home), null);
    await write(home, ".manifest.json", `{"prompts/initialize.md": "x"}`);
    assert.equal(await readOverlay(home), null);
    await write(home, ".manifest.json", `{"tools/assets.json": "x"}`);
    await write(home, "tools/assets.json.new", "ignored");
    const overlay = await readOverlay(home);
    assert.deepEqual(Object.keys(overlay?.files ?? {}), ["assets.json"]);
    const empty = await tempHome();
    await write(empty.home, ".manifest.json", `{"tools/assets.json": "x"}`);
    assert.deepEqual(await readOverlay(empty.home), { files: {} });
    await empty.cleanup();
  } finally {
    await cleanup();
  }
});
