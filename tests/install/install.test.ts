/**
 * The installer's reconcile table
 * (docs/configuration.md#what-the-reconcile-does-to-each-shipped-default), one row at a time, plus
 * idempotency, the bookkeeping file formats and the files it must never create or touch.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { ALL_SHIPPED_DEFAULTS, DEFAULT_SYSTEM_PROMPT } from "../../lib/config/defaults.ts";
import { install } from "../../lib/install/installer.ts";
import {
  exists,
  hashOf,
  manifestOf,
  patchManifest,
  read,
  tempHome,
  write,
} from "../config/install_support.ts";
import { BENIGN_TOOLS } from "../support/benign_tools.ts";

/** The benign default set without the memory tool, which ships no tool plugin file. */
const BENIGN_RELS = BENIGN_TOOLS.filter((stem) => stem !== "memory").map((stem) =>
  `tools/${stem}.json`
);
const PROMPTS = ["prompts/initialize.md", "prompts/system-prompt.md"];
const SP = "prompts/system-prompt.md";
const OLD = "You are an older default.\n";

async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const { home, cleanup } = await tempHome();
  try {
    await body(home);
  } finally {
    await cleanup();
  }
}

Deno.test("a fresh install lays down prompts + the benign tools, and the bookkeeping", async () => {
  await withHome(async (home) => {
    const report = await install({ configHome: home, provider: "openai", version: "9.9.9" });
    assert.deepEqual(report.of("installed"), [...PROMPTS, ...BENIGN_RELS].sort());
    assert.equal(report.summary(), `Config home: ${home}\ninstalled: 13`);
    assert.deepEqual(report.warnings, []);
    for (const dir of ["prompts", "tools", "mcp"]) assert.ok(await exists(home, dir), dir);
    assert.equal(await read(home, SP), DEFAULT_SYSTEM_PROMPT);
    for (const never of ["agent.env", "model_params.json", "search_params.json"]) {
      assert.equal(await exists(home, never), false, never);
    }
    // .manifest.json: sorted keys, indent 2, sha256 of the shipped text, trailing newline.
    const manifestText = await read(home, ".manifest.json");
    const expected: Record<string, string> = {};
    for (const rel of [...PROMPTS, ...BENIGN_RELS].sort()) {
      expected[rel] = hashOf(ALL_SHIPPED_DEFAULTS[rel]);
    }
    assert.equal(manifestText, JSON.stringify(expected, null, 2) + "\n");
    assert.equal(
      await read(home, ".declared.json"),
      JSON.stringify(
        { contract: 1, files: [...PROMPTS, ...BENIGN_RELS].sort(), opt_in: [], provider: "openai" },
        null,
        2,
      ) + "\n",
    );
    assert.equal(await read(home, ".version"), "9.9.9\n");
  });
});

Deno.test("a second run is all `unchanged` and rewrites nothing but the same bytes", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai", optIn: ["web_search"] });
    const before = await Promise.all(
      [".manifest.json", ".declared.json", ".version", SP].map((rel) => read(home, rel)),
    );
    const again = await install({ configHome: home, provider: "openai", optIn: ["web_search"] });
    assert.deepEqual(Object.values(again.actions).filter((a) => a !== "unchanged"), []);
    assert.equal(again.summary(), `Config home: ${home}\nunchanged: 14`);
    const after = await Promise.all(
      [".manifest.json", ".declared.json", ".version", SP].map((rel) => read(home, rel)),
    );
    assert.deepEqual(after, before);
  });
});

Deno.test("refreshed: an unedited older default is replaced by the new one", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai" });
    // Simulate the previous release: its text on disk and its hash in the manifest.
    await write(home, SP, OLD);
    await patchManifest(home, { [SP]: hashOf(OLD) });
    const report = await install({ configHome: home, provider: "openai" });
    assert.deepEqual(report.of("refreshed"), [SP]);
    assert.equal(await read(home, SP), DEFAULT_SYSTEM_PROMPT);
    assert.equal((await manifestOf(home))[SP], hashOf(DEFAULT_SYSTEM_PROMPT));
    assert.equal(await exists(home, `${SP}.new`), false);
  });
});

Deno.test("kept-edited: an edited file is kept and the new default written beside it", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai" });
    await write(home, SP, "My own persona.\n");
    await patchManifest(home, { [SP]: hashOf(OLD) });
    const report = await install({ configHome: home, provider: "openai" });
    assert.deepEqual(report.of("kept-edited"), [SP]);
    assert.deepEqual(report.newFiles, [SP]);
    assert.equal(await read(home, SP), "My own persona.\n");
    assert.equal(await read(home, `${SP}.new`), DEFAULT_SYSTEM_PROMPT);
    assert.ok(
      report.summary().split("\n").includes(
        `  kept your edited ${SP} — new default written to ${SP}.new`,
      ),
    );
    // The manifest now records the new shipped text: the next run is quiet.
    const next = await install({ configHome: home, provider: "openai" });
    assert.equal(next.actions[SP], "unchanged");
    assert.deepEqual(next.newFiles, []);
    assert.equal(await read(home, SP), "My own persona.\n");
  });
});

Deno.test("kept-deleted: a deleted default is never resurrected", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai" });
    await rm(join(home, "tools/lock.json"));
    await patchManifest(home, { "tools/lock.json": hashOf("older lock") });
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(report.actions["tools/lock.json"], "kept-deleted");
    assert.equal(await exists(home, "tools/lock.json"), false);
    // Deleted with the shipped text unchanged: `unchanged`, still not written.
    await rm(join(home, "tools/trust.json"));
    const again = await install({ configHome: home, provider: "openai" });
    assert.equal(again.actions["tools/trust.json"], "unchanged");
    assert.equal(again.actions["tools/lock.json"], "unchanged");
    assert.equal(await exists(home, "tools/trust.json"), false);
  });
});

Deno.test("already-current: the file already equals the new default", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai" });
    await patchManifest(home, { [SP]: hashOf(OLD) });
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(report.actions[SP], "already-current");
  });
});

Deno.test("unchanged: an unchanged default leaves the operator's copy alone, edited or not", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai" });
    await write(home, SP, "edited\n");
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(report.actions[SP], "unchanged");
    assert.equal(await read(home, SP), "edited\n");
    assert.equal(await exists(home, `${SP}.new`), false);
  });
});

Deno.test("a default new in this release is installed; one already present is judged", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai" });
    await rm(join(home, "tools/users.json"));
    await write(home, "tools/tasks.json", '{"mine": true}\n');
    await patchManifest(home, { "tools/users.json": undefined, "tools/tasks.json": undefined });
    await patchManifest(home, { "tools/assets.json": undefined });
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(report.actions["tools/users.json"], "installed");
    assert.equal(report.actions["tools/assets.json"], "already-current");
    assert.equal(report.actions["tools/tasks.json"], "kept-edited");
    assert.equal(await read(home, "tools/tasks.json"), '{"mine": true}\n');
    assert.ok(await exists(home, "tools/tasks.json.new"));
  });
});

Deno.test("an upgrade across versions: every row at once, with a newer shipped set", async () => {
  await withHome(async (home) => {
    const v1 = { ...ALL_SHIPPED_DEFAULTS, [SP]: OLD, "prompts/initialize.md": "old init\n" };
    await install({ configHome: home, provider: "openai", defaults: v1, version: "1.0.0" });
    await write(home, "prompts/initialize.md", "my init\n");
    await rm(join(home, "tools/delete.json"));
    const v2 = {
      ...ALL_SHIPPED_DEFAULTS,
      "tools/delete.json": ALL_SHIPPED_DEFAULTS["tools/delete.json"].replace("timeline", "space"),
    };
    const report = await install({ configHome: home, provider: "openai", defaults: v2 });
    assert.equal(report.actions[SP], "refreshed");
    assert.equal(report.actions["prompts/initialize.md"], "kept-edited");
    assert.equal(report.actions["tools/delete.json"], "kept-deleted");
    assert.equal(report.actions["tools/assets.json"], "unchanged");
    assert.equal(
      report.summary().split("\n")[1],
      "kept-deleted: 1, kept-edited: 1, refreshed: 1, unchanged: 10",
    );
  });
});

Deno.test("operator files are never touched, and agent.env/model_params.json never created", async () => {
  await withHome(async (home) => {
    const mine: Record<string, string> = {
      "agent.env": "AI_PROVIDER=openai\n",
      "model_params.json": '{"temperature": 0.2}\n',
      "search_params.json": '{"engine": "exa"}\n',
      "tools/mine.json": '{"format": 1, "plugins": [{"tool": "assets"}]}\n',
      "tools/old_custom.py": "PLUGIN = None\n",
      "prompts/extra.md": "notes\n",
      "mcp/server.json": "{}\n",
    };
    for (const [rel, text] of Object.entries(mine)) await write(home, rel, text);
    await install({ configHome: home, provider: null, optIn: ["web_search", "xai_search"] });
    await install({ configHome: home, provider: "xai", revokeOptIn: ["xai_search"] });
    const report = await install({ configHome: home, provider: "openai" });
    for (const [rel, text] of Object.entries(mine)) assert.equal(await read(home, rel), text, rel);
    assert.ok(Object.keys(report.actions).every((rel) => !(rel in mine)));
    assert.deepEqual(report.pythonPlugins, ["tools/old_custom.py"]);
    assert.match(
      report.summary(),
      /not loaded \(Python plugins this runtime cannot run\): tools\/old_custom\.py\. Port each to an MCP server/,
    );
  });
});
