/**
 * Installing over a config home the Python harness scaffolded: `tools/<stem>.py` files and a
 * manifest of Python-era hashes. Unedited `.py` defaults migrate to `.json`; edited ones are
 * kept beside the new `.json`; deleted ones stay deleted; operator Python plugins are reported
 * and never touched.
 */
import assert from "node:assert/strict";
import { install } from "../../lib/install/installer.ts";
import { readOverlay } from "../../lib/config/overlay_read.ts";
import { resolveTools } from "../../lib/config/tool_resolution.ts";
import { exists, hashOf, manifestOf, read, tempHome, write } from "../config/install_support.ts";

const PY = (stem: string) => `# Default tool plugin: ${stem}\nPLUGIN = ToolPlugin(impl=X)\n`;

/** A home as Python 0.105.0 left it: its prompts and .py plugins, hashes in the manifest. */
async function pythonHome(home: string, stems: string[], optIn: string[] = []): Promise<void> {
  const manifest: Record<string, string> = {};
  const prompt = "You are a helpful peer on BaseCradle.";
  await write(home, "prompts/system-prompt.md", prompt);
  manifest["prompts/system-prompt.md"] = hashOf(prompt);
  for (const stem of stems) {
    await write(home, `tools/${stem}.py`, PY(stem));
    manifest[`tools/${stem}.py`] = hashOf(PY(stem));
  }
  await write(home, ".manifest.json", JSON.stringify(manifest, null, 2) + "\n");
  await write(
    home,
    ".declared.json",
    JSON.stringify({
      contract: 1,
      files: Object.keys(manifest).sort(),
      opt_in: optIn,
      provider: "openai",
    }),
  );
  await write(home, ".version", "0.105.0\n");
}

Deno.test("unedited Python-era defaults migrate to .json; the prompt refreshes", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await pythonHome(home, ["assets", "messages", "lock", "web_search"], ["web_search"]);
    const report = await install({ configHome: home, provider: "openai" });
    assert.deepEqual(report.of("migrated"), [
      "tools/assets.py",
      "tools/lock.py",
      "tools/messages.py",
      "tools/web_search.py",
    ]);
    for (const stem of ["assets", "messages", "lock", "web_search"]) {
      assert.equal(await exists(home, `tools/${stem}.py`), false, stem);
      assert.ok(await exists(home, `tools/${stem}.json`), stem);
      assert.equal(report.actions[`tools/${stem}.json`], "installed");
    }
    // Stems the Python home never had are new defaults here, and laid down.
    assert.equal(report.actions["tools/users.json"], "installed");
    assert.equal(report.actions["prompts/system-prompt.md"], "refreshed");
    const manifest = await manifestOf(home);
    assert.ok(Object.keys(manifest).every((rel) => !rel.endsWith(".py")));
    assert.match(
      report.summary(),
      /migrated unedited Python-era plugin file\(s\) to this runtime's \.json form: tools\/assets\.py, tools\/lock\.py/,
    );
    const again = await install({ configHome: home, provider: "openai" });
    assert.deepEqual(
      Object.values(again.actions).filter((a) => a !== "unchanged"),
      [],
    );
  } finally {
    await cleanup();
  }
});

Deno.test("an edited Python-era default is kept beside the new .json and named", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await pythonHome(home, ["lock", "tasks"]);
    await write(home, "tools/lock.py", "# my lock tweaks\n");
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(report.actions["tools/lock.py"], "kept-legacy");
    assert.equal(await read(home, "tools/lock.py"), "# my lock tweaks\n");
    assert.equal(report.actions["tools/lock.json"], "installed");
    assert.ok(
      report.summary().split("\n").includes(
        "  kept your edited Python-era tools/lock.py — this runtime cannot run Python; " +
          "tools/lock.json now provides the stem: port your edits into it, then delete the .py",
      ),
    );
    // The loader reads the .json and reports the .py.
    const overlay = await readOverlay(home);
    const answer = resolveTools({
      provider: "openai",
      sdk: "openai",
      surface: "responses",
      profile: "locked",
      overlay,
    });
    assert.ok(answer.tools.includes("lock"));
    assert.ok(answer.skipped.some((s) => s.name === "lock.py"));
  } finally {
    await cleanup();
  }
});

Deno.test("a Python-era default the operator deleted stays deleted", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await pythonHome(home, ["assets", "delete"]);
    await Deno.remove(`${home}/tools/delete.py`);
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(report.actions["tools/delete.json"], "kept-deleted");
    assert.equal(await exists(home, "tools/delete.json"), false);
    assert.ok(!("tools/delete.py" in await manifestOf(home)));
  } finally {
    await cleanup();
  }
});

Deno.test("Python-era opt-in files: present ⇒ granted; mismatched pristine ⇒ pruned; revoke", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await pythonHome(home, ["assets", "xai_search", "web_search", "system_prompt"]);
    const report = await install({
      configHome: home,
      provider: "openai",
      revokeOptIn: ["system_prompt"],
    });
    assert.equal(report.actions["tools/xai_search.py"], "pruned");
    assert.equal(report.actions["tools/web_search.py"], "migrated");
    assert.equal(report.actions["tools/system_prompt.py"], "revoked");
    assert.equal(await exists(home, "tools/system_prompt.py"), false);
    assert.equal(await exists(home, "tools/system_prompt.json"), false);
    assert.deepEqual(report.grandfathered, ["tools/web_search.json"]);
    const decl = JSON.parse((await read(home, ".declared.json")) ?? "{}");
    assert.deepEqual(decl.opt_in, ["web_search", "xai_search"]);
  } finally {
    await cleanup();
  }
});

Deno.test("an operator's own Python plugin is untouched and reported", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await pythonHome(home, ["assets"]);
    await write(home, "tools/polymarket_paper.py", "PLUGIN = mine\n");
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(await read(home, "tools/polymarket_paper.py"), "PLUGIN = mine\n");
    assert.deepEqual(report.pythonPlugins, ["tools/polymarket_paper.py"]);
    const answer = resolveTools({
      provider: "openai",
      sdk: "openai",
      surface: "responses",
      profile: "locked",
      overlay: await readOverlay(home),
    });
    const skip = answer.skipped.find((s) => s.name === "polymarket_paper.py");
    assert.match(skip?.reason ?? "", /port it to an MCP server/);
  } finally {
    await cleanup();
  }
});
