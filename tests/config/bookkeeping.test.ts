/**
 * `.manifest.json` read back (docs/configuration.md#bookkeeping-files): missing is silently
 * empty; unreadable, not JSON, not an object or with a non-string hash reads as empty (or without
 * that entry) and says so in one WARNING naming the file, what happens and the fix — and the
 * runtime resolution passes that WARNING to its journal and falls back to the defaults.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseEnv } from "../../lib/config/env.ts";
import { install } from "../../lib/install/installer.ts";
import { MANIFEST_NAME, readManifest } from "../../lib/config/bookkeeping.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { resolveRuntime } from "../../lib/runtime/resolve.ts";
import { tempHome, write } from "./install_support.ts";

async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const { home, cleanup } = await tempHome();
  try {
    await body(home);
  } finally {
    await cleanup();
  }
}

const CONSEQUENCE = "it reads as empty, so this config home counts as never installed and the " +
  "embedded default prompts and tool plugins are used instead of its files. Fix: run " +
  "'harness install' to rebuild it.";

Deno.test("a missing manifest is empty and says nothing", () =>
  withHome(async (home) => {
    const journal = new MemoryJournal();
    assert.deepEqual(await readManifest(home, journal), {});
    assert.deepEqual(journal.lines, []);
  }));

Deno.test("a corrupt manifest reads as empty with one WARNING naming the file and the fix", () =>
  withHome(async (home) => {
    const path = join(home, MANIFEST_NAME);
    const cases: [string, string][] = [
      ['{"prompts/initialize.md": "ab', "is not valid JSON ("],
      ["[]", "must be a JSON object but its top level is an array;"],
      ["42", "must be a JSON object but its top level is a number;"],
      ["null", "must be a JSON object but its top level is null;"],
    ];
    for (const [text, problem] of cases) {
      await write(home, MANIFEST_NAME, text);
      const journal = new MemoryJournal();
      assert.deepEqual(await readManifest(home, journal), {}, text);
      assert.equal(journal.lines.length, 1, text);
      assert.ok(
        journal.lines[0].startsWith(`WARNING Installer manifest ${path} ${problem}`),
        journal.lines[0],
      );
      assert.ok(journal.lines[0].endsWith(CONSEQUENCE), journal.lines[0]);
    }
  }));

Deno.test("an unreadable manifest (a directory) is said too", () =>
  withHome(async (home) => {
    await Deno.mkdir(join(home, MANIFEST_NAME), { recursive: true });
    const journal = new MemoryJournal();
    assert.deepEqual(await readManifest(home, journal), {});
    assert.match(
      journal.lines[0],
      /^WARNING Installer manifest .*\.manifest\.json could not be read \(EISDIR[^)]*\); it reads as empty/,
    );
  }));

Deno.test("entries whose hash is not a string are dropped and named", () =>
  withHome(async (home) => {
    await write(
      home,
      MANIFEST_NAME,
      '{"prompts/initialize.md": "aa", "tools/assets.json": 7, "tools/users.json": null}',
    );
    const journal = new MemoryJournal();
    assert.deepEqual(await readManifest(home, journal), { "prompts/initialize.md": "aa" });
    assert.deepEqual(journal.lines, [
      `WARNING Installer manifest ${join(home, MANIFEST_NAME)} has 2 entries whose hash is not ` +
      "a string (tools/assets.json, tools/users.json); they are ignored, so those files count " +
      "as never laid down. Fix: run 'harness install' to rebuild it.",
    ]);
  }));

Deno.test("the runtime resolution logs a corrupt manifest and resolves the defaults", () =>
  withHome(async (home) => {
    await install({ configHome: home, provider: "openai", optIn: ["system_prompt"] });
    await write(home, "prompts/system-prompt.md", "You are Ada.");
    const env = parseEnv({ BASECRADLE_CONFIG_HOME: home, HOME: home });
    const installed = await resolveRuntime(env, { reconcile: false });
    assert.equal(installed.prompts.systemPrompt, "You are Ada.");
    assert.ok(installed.tools.tools.includes("system_prompt_edit"));

    await write(home, MANIFEST_NAME, "{torn");
    const journal = new MemoryJournal();
    const runtime = await resolveRuntime(env, { reconcile: false, journal });
    assert.equal(runtime.prompts.source, "defaults");
    assert.equal(runtime.tools.overlayToolStems, null);
    assert.ok(!runtime.tools.tools.includes("system_prompt_edit"));
    const warnings = journal.lines.filter((l) => l.startsWith("WARNING Installer manifest"));
    assert.equal(warnings.length, 1, journal.lines.join("\n"));
    assert.ok(warnings[0].endsWith(CONSEQUENCE));
  }));
