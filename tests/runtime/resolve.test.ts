/**
 * resolveRuntime: the one resolution the wake and resolved-config share — default tool set,
 * installed overlay with an opt-in, reconcile only when asked, params errors naming the file,
 * search_params validated always and used only when its built-in is active, guardrails.json
 * parsed for the gate or refused, unreadable config folders named, and the resolution's log
 * lines. In-process,
 * so `narrow` stays off (a revocation would outlive the test).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseEnv } from "../../lib/config/env.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import { install } from "../../lib/install/installer.ts";
import { GUARDRAILS_FILE, resolveRuntime } from "../../lib/runtime/resolve.ts";
import {
  GUARDRAILS_FILE as GATE_GUARDRAILS_FILE,
  GuardrailsError,
} from "../../lib/gate/guardrails.ts";
import type { Journal } from "../../lib/journal/journal.ts";
import { VERSION } from "../../lib/base/version.ts";
import { read, tempHome, write } from "../config/install_support.ts";
import { BENIGN_TOOLS } from "../support/benign_tools.ts";

const BENIGN = BENIGN_TOOLS;

/** A journal that keeps `<LEVEL> <text>` lines. */
function recording(): Journal & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    event: (level, head) => lines.push(`${level} ${head}`),
    text: (level, message) => lines.push(`${level} ${message}`),
    enabled: () => true,
  };
}

function envFor(home: string, extra: Record<string, string> = {}) {
  return parseEnv({ BASECRADLE_CONFIG_HOME: home, HOME: home, ...extra });
}

Deno.test("a never-installed home resolves the benign defaults plus memory", async () => {
  const { home, cleanup } = await tempHome();
  try {
    const runtime = await resolveRuntime(envFor(home), { reconcile: false });
    assert.deepEqual(runtime.tools.tools, BENIGN);
    assert.deepEqual(runtime.tools.builtins, []);
    assert.equal(runtime.tools.overlayToolStems, null);
    assert.equal(runtime.memory.name, "sqlite");
    assert.deepEqual(runtime.memoryTools.map((t) => t.name), ["memory"]);
    assert.deepEqual(runtime.mcpServers, []);
    assert.equal(runtime.permissions, null);
    assert.deepEqual(runtime.modelParams.raw, {});
    assert.deepEqual(runtime.searchParams, {});
    assert.equal(runtime.policy.profile, "locked");
    assert.equal(runtime.configHome, home);
    assert.equal(runtime.prompts.source, "defaults");
    // Nothing was written: resolution is read-only without reconcile.
    assert.equal(await read(home, ".version"), undefined);
  } finally {
    await cleanup();
  }
});

Deno.test("an installed home with system_prompt granted activates both self-authorship tools", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await install({ configHome: home, provider: "openai", optIn: ["system_prompt"] });
    const runtime = await resolveRuntime(envFor(home), { reconcile: false });
    assert.deepEqual(
      runtime.tools.tools,
      [...BENIGN, "system_prompt_edit", "system_prompt_read"].sort(),
    );
    assert.deepEqual(runtime.tools.optInTools, ["system_prompt"]);
    assert.ok(runtime.tools.overlayToolStems?.includes("system_prompt"));
    const edit = runtime.tools.activeTools.find((t) => t.name === "system_prompt_edit");
    assert.match(edit?.note ?? "", /confirm must equal the hash/);
    assert.equal(runtime.prompts.source, "config-home");
  } finally {
    await cleanup();
  }
});

Deno.test("reconcile runs only when asked, and only on a stale installed home", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await install({ configHome: home, provider: "openai", version: "0.0.1" });
    const readOnly = await resolveRuntime(envFor(home), { reconcile: false });
    assert.equal(readOnly.reconciled, null);
    assert.equal((await read(home, ".version"))?.trim(), "0.0.1");
    const journal = recording();
    const woke = await resolveRuntime(envFor(home), { reconcile: true, journal });
    assert.ok(woke.reconciled);
    assert.equal((await read(home, ".version"))?.trim(), VERSION);
    assert.ok(journal.lines.some((l) => /^INFO Config home .* reconciled to /.test(l)));
    // Current now: the next wake leaves it alone.
    const again = await resolveRuntime(envFor(home), { reconcile: true });
    assert.equal(again.reconciled, null);
  } finally {
    await cleanup();
  }
});

Deno.test("a malformed model_params.json refuses with the file's path", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await write(home, "model_params.json", "{not json");
    await assert.rejects(
      resolveRuntime(envFor(home), { reconcile: false }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes(join(home, "model_params.json")) &&
        error.message.includes("is not valid JSON"),
    );
  } finally {
    await cleanup();
  }
});

Deno.test("model_params are split for the SDK; stripped keys are logged", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await write(home, "model_params.json", '{"temperature": 0.3, "model": "x", "tools": []}');
    const journal = recording();
    const runtime = await resolveRuntime(envFor(home), { reconcile: false, journal });
    assert.deepEqual(runtime.modelParams.params, { temperature: 0.3 });
    assert.deepEqual(runtime.modelParams.stripped, ["model", "tools"]);
    assert.equal(journal.lines.filter((l) => l.startsWith("WARNING model_params.json")).length, 2);
  } finally {
    await cleanup();
  }
});

Deno.test("search_params.json is used only when the openrouter web_search is active, validated always", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await write(home, "search_params.json", "[3]");
    await assert.rejects(
      resolveRuntime(envFor(home), { reconcile: false }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.variable === join(home, "search_params.json") &&
        /must be a JSON object .* Fix: /.test(error.message),
      "a malformed file refuses even while the tool is off",
    );
    await write(home, "search_params.json", '{"max_results": 3}');
    const off = await resolveRuntime(envFor(home), { reconcile: false });
    assert.deepEqual(off.searchParams, {});
    await install({ configHome: home, provider: "openrouter", optIn: ["openrouter_search"] });
    const on = await resolveRuntime(
      envFor(home, { AI_PROVIDER: "openrouter", AI_SDK: "openrouter" }),
      { reconcile: false },
    );
    assert.deepEqual(on.tools.builtinNames, ["web_search"]);
    assert.deepEqual(on.searchParams, { max_results: 3 });
  } finally {
    await cleanup();
  }
});

Deno.test("shell under locked is refused with an audit WARNING and a safety notice", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await install({ configHome: home, provider: "openai", optIn: ["shell"] });
    const journal = recording();
    const runtime = await resolveRuntime(envFor(home, { HARNESS_PROFILE: "bogus" }), {
      reconcile: false,
      journal,
    });
    const line = "Tool 'shell' refused by the safe-by-default policy: needs shell; not loaded.";
    assert.ok(!runtime.tools.tools.includes("shell"));
    assert.deepEqual(runtime.tools.optInTools, ["shell"]);
    assert.deepEqual(runtime.tools.safetyNotices, [line]);
    assert.ok(journal.lines.includes(`WARNING ${line}`));
    // The fail-closed profile fallback is logged too.
    assert.ok(journal.lines.some((l) => /^WARNING HARNESS_PROFILE=.*running locked/.test(l)));
  } finally {
    await cleanup();
  }
});

Deno.test("shell under unlocked follows its own runtime veto (root refuses)", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await install({ configHome: home, provider: "openai", optIn: ["shell"] });
    const runtime = await resolveRuntime(envFor(home, { HARNESS_PROFILE: "unlocked" }), {
      reconcile: false,
    });
    if (Deno.uid() === 0) {
      assert.ok(!runtime.tools.tools.includes("shell"));
      assert.match(runtime.tools.safetyNotices[0] ?? "", /refuses to load in this runtime/);
    } else {
      assert.ok(runtime.tools.tools.includes("shell"));
    }
  } finally {
    await cleanup();
  }
});

Deno.test("a broken shipped default is an ERROR line and a defect", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await install({ configHome: home, provider: "openai" });
    await write(home, "tools/tasks.json", "{ broken");
    const journal = recording();
    const runtime = await resolveRuntime(envFor(home), { reconcile: false, journal });
    assert.ok(!runtime.tools.tools.includes("tasks"));
    assert.equal(runtime.tools.defects.length, 1);
    assert.match(runtime.tools.defects[0], /^tasks\.json — failed to load: /);
    assert.ok(journal.lines.some((l) => l.startsWith("ERROR Shipped tool plugin tasks.json")));
  } finally {
    await cleanup();
  }
});

Deno.test("guardrails.json is parsed for the gate, absent is undefined, malformed refuses", async () => {
  const { home, cleanup } = await tempHome();
  try {
    const none = await resolveRuntime(envFor(home), { reconcile: false });
    assert.equal(none.guardrails, undefined, "no file: the gate's defaults");
    await write(
      home,
      GUARDRAILS_FILE,
      '{"max_length": 500, "forbidden_patterns": [{"pattern": "nightjar", "flags": "i"}]}',
    );
    const parsed = await resolveRuntime(envFor(home), { reconcile: false });
    assert.equal(parsed.guardrails?.maxLength, 500);
    assert.equal(parsed.guardrails?.file, join(home, GUARDRAILS_FILE));
    assert.ok(parsed.guardrails?.forbiddenPatterns[0].regex.test("Project NIGHTJAR"));
    await write(home, GUARDRAILS_FILE, '{"max_lenght": 500}');
    await assert.rejects(
      resolveRuntime(envFor(home), { reconcile: false }),
      (error: unknown) =>
        error instanceof GuardrailsError &&
        error.message ===
          `Guardrails file ${join(home, GUARDRAILS_FILE)} is invalid at 'max_lenght': unknown ` +
            "key. Fix: the keys are max_length, forbidden_patterns, secret_guard, " +
            "max_refusals_per_turn and tone; remove any other",
    );
  } finally {
    await cleanup();
  }
});

Deno.test("the runtime's guardrails file name is the gate's", () => {
  assert.equal(GUARDRAILS_FILE, GATE_GUARDRAILS_FILE);
});

Deno.test("an unreadable tools/ or mcp/ folder refuses, naming the folder and the fix", async () => {
  const { home, cleanup } = await tempHome();
  try {
    await install({ configHome: home, provider: "openai" });
    await Deno.remove(join(home, "mcp"), { recursive: true });
    await write(home, "mcp", "a file where the folder belongs");
    await assert.rejects(
      resolveRuntime(envFor(home), { reconcile: false }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.variable === join(home, "mcp") &&
        error.message.startsWith(
          `The folder of MCP server configs ${join(home, "mcp")} could not be read: `,
        ) &&
        error.message.endsWith(
          "Fix: make it a readable directory (the harness runs as the agent's user), or remove it.",
        ),
    );
    await Deno.remove(join(home, "mcp"));
    await Deno.remove(join(home, "tools"), { recursive: true });
    await write(home, "tools", "a file where the folder belongs");
    await assert.rejects(
      resolveRuntime(envFor(home), { reconcile: false }),
      (error: unknown) =>
        error instanceof ConfigError && error.variable === join(home, "tools") &&
        error.message.startsWith(`The folder of tool plugin files ${join(home, "tools")} `),
    );
  } finally {
    await cleanup();
  }
});
