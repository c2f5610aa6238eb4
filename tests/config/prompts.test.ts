/**
 * Prompts (docs/configuration.md#the-config-home, docs/configuration.md#prompts): comment
 * stripping, config-home resolution, source order.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_INITIALIZE, DEFAULT_SYSTEM_PROMPT } from "../../lib/config/defaults.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import {
  loadCharter,
  loadPrompts,
  promptsInstalled,
  resolveConfigHome,
  stripHtmlComments,
} from "../../lib/config/prompts.ts";

Deno.test("stripHtmlComments: inline, multi-line, several, then the whole text is trimmed", () => {
  assert.equal(stripHtmlComments("a <!-- note --> b"), "a  b");
  assert.equal(stripHtmlComments("<!--\nline one\nline two\n-->\nHello"), "Hello");
  assert.equal(stripHtmlComments("x<!-- 1 -->y<!-- 2 -->z"), "xyz");
  assert.equal(stripHtmlComments("  \n\nbody\n\n  "), "body");
  assert.equal(stripHtmlComments("<!-- only a note -->"), "");
  assert.equal(stripHtmlComments(""), "");
});

Deno.test("stripHtmlComments is non-greedy: text between two comments survives", () => {
  assert.equal(stripHtmlComments("<!-- a -->keep<!-- b -->"), "keep");
  assert.equal(stripHtmlComments("<!-- a --> <!-- b -->"), "");
});

Deno.test("stripHtmlComments keeps the line breaks around a comment (no blank-line collapsing)", () => {
  // The comment's characters go, its line's newlines stay: two blank lines remain in between.
  assert.equal(stripHtmlComments("one\n<!-- note -->\ntwo"), "one\n\ntwo");
  assert.equal(stripHtmlComments("one\n\n<!-- x\ny -->\n\ntwo"), "one\n\n\n\ntwo");
});

Deno.test("stripHtmlComments leaves an unclosed or malformed comment alone", () => {
  assert.equal(stripHtmlComments("a <!-- never closed"), "a <!-- never closed");
  assert.equal(stripHtmlComments("a <!- not one -> b"), "a <!- not one -> b");
  assert.equal(stripHtmlComments("a --> b"), "a --> b");
});

Deno.test("resolveConfigHome: flag, then BASECRADLE_CONFIG_HOME, then $HOME/.config/basecradle", () => {
  const env = { configHome: "/etc/bc", home: "/home/a" };
  assert.equal(resolveConfigHome(env, "/flag/home"), "/flag/home");
  assert.equal(resolveConfigHome(env, "  "), "/etc/bc", "a blank flag counts as unset");
  assert.equal(resolveConfigHome(env), "/etc/bc");
  assert.equal(resolveConfigHome({ home: "/home/a" }), "/home/a/.config/basecradle");
  assert.equal(
    resolveConfigHome({ configHome: "", home: "/home/a" }),
    "/home/a/.config/basecradle",
  );
});

Deno.test("resolveConfigHome expands ~ with HOME", () => {
  assert.equal(resolveConfigHome({ configHome: "~/cfg", home: "/home/a" }), "/home/a/cfg");
  assert.equal(resolveConfigHome({ home: "/home/a" }, "~"), "/home/a");
  assert.equal(resolveConfigHome({ home: "/home/a" }, "~/x/y"), "/home/a/x/y");
  assert.equal(resolveConfigHome({ home: "/h" }, "/abs/~/x"), "/abs/~/x", "only a leading ~");
});

Deno.test("resolveConfigHome without HOME: a ConfigError when HOME is needed", () => {
  assert.equal(resolveConfigHome({ configHome: "/etc/bc" }), "/etc/bc");
  assert.throws(
    () => resolveConfigHome({}),
    (e) => e instanceof ConfigError && /HOME/.test(e.message),
  );
  assert.throws(
    () => resolveConfigHome({ configHome: "~/cfg" }),
    (e) => e instanceof ConfigError && e.message.includes("~/cfg"),
  );
});

/** A temporary config home; `files` maps relative paths to contents. */
async function home(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "bc-config-"));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(join(root, rel, ".."), { recursive: true });
    await writeFile(join(root, rel), text);
  }
  return root;
}

const INSTALLED = JSON.stringify({ "prompts/initialize.md": "a", "prompts/system-prompt.md": "b" });

Deno.test("installed home: its files win over the defaults and HARNESS_SYSTEM_PROMPT", async () => {
  const root = await home({
    ".manifest.json": INSTALLED,
    "prompts/system-prompt.md": "<!-- operator -->\nI am Ada.\n",
    "prompts/initialize.md": "Guidance.<!-- hidden -->",
  });
  try {
    const prompts = await loadPrompts({ configHome: root, env: { systemPrompt: "legacy" } });
    assert.deepEqual(prompts, {
      systemPrompt: "I am Ada.",
      initialize: "Guidance.",
      source: "config-home",
    });
  } finally {
    await rm(root, { recursive: true });
  }
});

Deno.test("installed home: a deleted prompt reads as empty, never resurrected", async () => {
  const root = await home({ ".manifest.json": INSTALLED, "prompts/initialize.md": "G" });
  try {
    const prompts = await loadPrompts({ configHome: root, env: { systemPrompt: "legacy" } });
    assert.equal(prompts.systemPrompt, "");
    assert.equal(prompts.initialize, "G");
    assert.equal(prompts.source, "config-home");
  } finally {
    await rm(root, { recursive: true });
  }
});

Deno.test("never-installed home: HARNESS_SYSTEM_PROMPT, else the embedded defaults", async () => {
  // Prompt files without a manifest are not an install: the defaults (or legacy var) apply.
  const root = await home({ "prompts/system-prompt.md": "stray", "prompts/initialize.md": "x" });
  try {
    const legacy = await loadPrompts({ configHome: root, env: { systemPrompt: " Be terse. " } });
    assert.equal(legacy.systemPrompt, "Be terse.");
    assert.equal(legacy.initialize, stripHtmlComments(DEFAULT_INITIALIZE));
    assert.equal(legacy.source, "HARNESS_SYSTEM_PROMPT");
    const defaults = await loadPrompts({ configHome: root, env: {} });
    assert.equal(defaults.systemPrompt, stripHtmlComments(DEFAULT_SYSTEM_PROMPT));
    assert.equal(defaults.source, "defaults");
    assert.ok(!defaults.initialize.includes("<!--"), "operator notes never reach the model");
    const blank = await loadPrompts({ configHome: root, env: { systemPrompt: "  " } });
    assert.equal(blank.source, "defaults");
  } finally {
    await rm(root, { recursive: true });
  }
});

Deno.test("no config home at all, or a missing directory, means never installed", async () => {
  assert.equal((await loadPrompts({})).source, "defaults");
  assert.equal((await loadPrompts({ configHome: "/nonexistent/bc-home" })).source, "defaults");
});

Deno.test("manifest: only a prompts/ key counts; malformed or non-object ⇒ empty", async () => {
  const cases: Array<[string, boolean]> = [
    [INSTALLED, true],
    [JSON.stringify({ "tools/messages.py": "h" }), false],
    [JSON.stringify({}), false],
    ['["prompts/initialize.md"]', false],
    ["{not json", false],
    ["null", false],
  ];
  for (const [manifest, expected] of cases) {
    const root = await home({ ".manifest.json": manifest });
    try {
      assert.equal(await promptsInstalled(root), expected, manifest);
    } finally {
      await rm(root, { recursive: true });
    }
  }
});

Deno.test("an unreadable prompt file is a ConfigError naming the file", async () => {
  const root = await home({ ".manifest.json": INSTALLED, "prompts/initialize.md": "G" });
  // A directory where the file should be cannot be read, whoever runs the test (root included).
  await mkdir(join(root, "prompts/system-prompt.md"));
  try {
    await assert.rejects(
      loadPrompts({ configHome: root }),
      (e) => e instanceof ConfigError && e.message.includes(join(root, "prompts/system-prompt.md")),
    );
  } finally {
    await rm(root, { recursive: true });
  }
});

Deno.test("a prompt file that is not UTF-8 is a ConfigError naming the file", async () => {
  const root = await home({ ".manifest.json": INSTALLED, "prompts/system-prompt.md": "P" });
  await writeFile(join(root, "prompts/initialize.md"), new Uint8Array([0x47, 0xff, 0xfe]));
  try {
    await assert.rejects(
      loadPrompts({ configHome: root }),
      (e) => e instanceof ConfigError && /initialize\.md.*UTF-8/.test(e.message),
    );
  } finally {
    await rm(root, { recursive: true });
  }
});

Deno.test("charter: either file present ⇒ joined stripped texts; neither ⇒ the legacy variable", async () => {
  const both = await home({
    "prompts/system-prompt.md": "Persona.<!-- n -->",
    "prompts/initialize.md": "Guide.",
  });
  const blank = await home({ "prompts/system-prompt.md": "<!-- only notes -->" });
  const none = await home({});
  try {
    assert.equal(
      await loadCharter({ configHome: both, env: { systemPrompt: "L" } }),
      "Persona.\n\nGuide.",
    );
    assert.equal(await loadCharter({ configHome: blank, env: { systemPrompt: "L" } }), "");
    assert.equal(await loadCharter({ configHome: none, env: { systemPrompt: "L" } }), "L");
    assert.equal(await loadCharter({ configHome: none, env: {} }), undefined);
    assert.equal(await loadCharter({ env: { systemPrompt: "L" } }), "L");
  } finally {
    for (const root of [both, blank, none]) await rm(root, { recursive: true });
  }
});
