/**
 * The auto-reconcile on the first wake after an upgrade
 * (docs/configuration.md#install-and-upgrade): only an installed home whose `.version` differs is
 * reconciled; a never-installed home is left alone; a failure is a WARNING and never stops the
 * wake.
 */
import assert from "node:assert/strict";
import { install } from "../../lib/install/installer.ts";
import { autoReconcile } from "../../lib/install/reconcile.ts";
import type { Journal, Level } from "../../lib/journal/journal.ts";
import { exists, hashOf, patchManifest, read, tempHome, write } from "../config/install_support.ts";

function recorder(): { journal: Journal; lines: [Level, string][] } {
  const lines: [Level, string][] = [];
  return {
    lines,
    journal: {
      event() {},
      text: (level, message) => lines.push([level, message]),
      enabled: () => true,
    },
  };
}

Deno.test("a home stamped by another version is reconciled once, with an INFO summary", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await install({ configHome: home, provider: "openai", version: "0.0.1" });
    await write(home, "prompts/system-prompt.md", "older\n");
    await patchManifest(home, { "prompts/system-prompt.md": hashOf("older\n") });
    const { journal, lines } = recorder();
    const report = await autoReconcile(home, "openai", journal, "0.2.0");
    assert.equal(report?.actions["prompts/system-prompt.md"], "refreshed");
    assert.equal(await read(home, ".version"), "0.2.0\n");
    assert.equal(lines.length, 1);
    assert.equal(lines[0][0], "INFO");
    assert.equal(
      lines[0][1],
      `Config home ${home} reconciled to basecradle-harness-deno 0.2.0 after an upgrade: ` +
        `Config home: ${home} | refreshed: 1, unchanged: 12`,
    );
    // Same version now: nothing runs.
    assert.equal(await autoReconcile(home, "openai", journal, "0.2.0"), null);
    assert.equal(lines.length, 1);
  } finally {
    await cleanup();
  }
});

Deno.test("a never-installed home is left alone", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await write(home, "agent.env", "X=1\n");
    const { journal, lines } = recorder();
    assert.equal(await autoReconcile(home, "openai", journal, "0.2.0"), null);
    assert.equal(await exists(home, "tools"), false);
    assert.equal(await exists(home, ".version"), false);
    assert.deepEqual(lines, []);
  } finally {
    await cleanup();
  }
});

Deno.test("a failing reconcile is a WARNING and the wake goes on", async () => {
  const { home, cleanup } = await tempHome();
  try {
    // An installed home whose tools/ is a file: the reconcile cannot create the directory.
    await write(home, ".manifest.json", `{"tools/assets.json": "${hashOf("older")}"}\n`);
    await write(home, "tools", "not a directory\n");
    const { journal, lines } = recorder();
    assert.equal(await autoReconcile(home, "openai", journal, "0.2.0"), null);
    assert.equal(lines.length, 1);
    assert.equal(lines[0][0], "WARNING");
    assert.match(
      lines[0][1],
      /^Config-home upgrade reconcile failed; continuing with the existing overlay\. \S/,
    );
    assert.equal(await read(home, "tools"), "not a directory\n");
  } finally {
    await cleanup();
  }
});
