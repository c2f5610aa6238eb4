/**
 * Provider-aware installs (prune pristine mismatched tools, keep edited ones) and the opt-in
 * grant lifecycle: grant, grandfather, restore, revoke (docs/configuration.md#install-and-upgrade,
 * docs/configuration.md#powerful-tools-are-opt-in).
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { install } from "../../lib/install/installer.ts";
import { exists, manifestOf, read, tempHome, write } from "../config/install_support.ts";

async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const { home, cleanup } = await tempHome();
  try {
    await body(home);
  } finally {
    await cleanup();
  }
}

const declared = async (home: string) => JSON.parse((await read(home, ".declared.json")) ?? "{}");

Deno.test("--all-providers lays every granted default down and declares provider null", async () => {
  await withHome(async (home) => {
    const report = await install({
      configHome: home,
      provider: null,
      optIn: ["xai_search", "web_search", "grok_generate_video"],
    });
    for (const stem of ["xai_search", "web_search", "grok_generate_video", "assets"]) {
      assert.ok(await exists(home, `tools/${stem}.json`), stem);
    }
    assert.equal(await exists(home, "tools/shell.json"), false);
    assert.equal(report.of("installed").length, 16);
    const decl = await declared(home);
    assert.equal(decl.provider, null);
    assert.deepEqual(decl.opt_in, ["grok_generate_video", "web_search", "xai_search"]);
  });
});

Deno.test("a provider switch prunes pristine mismatched tools and keeps edited ones", async () => {
  await withHome(async (home) => {
    await install({
      configHome: home,
      provider: null,
      optIn: ["xai_search", "grok_generate_video", "web_search"],
    });
    await write(home, "tools/grok_generate_video.json", '{"edited": true}\n');
    await rm(join(home, "tools/web_search.json"));
    const report = await install({ configHome: home, provider: "xai" });
    // The only openai-only file was deleted by hand: dropped from the manifest, not pruned.
    assert.deepEqual(report.of("pruned"), []);
    assert.equal(report.actions["tools/web_search.json"], "kept-deleted");
    assert.equal(report.actions["tools/xai_search.json"], "unchanged");
    const toOpenai = await install({ configHome: home, provider: "openai" });
    assert.deepEqual(toOpenai.of("pruned"), ["tools/xai_search.json"]);
    assert.equal(await exists(home, "tools/xai_search.json"), false);
    // Edited: left alone, its manifest entry kept.
    assert.equal(toOpenai.actions["tools/grok_generate_video.json"], undefined);
    assert.equal(await read(home, "tools/grok_generate_video.json"), '{"edited": true}\n');
    const manifest = await manifestOf(home);
    assert.ok("tools/grok_generate_video.json" in manifest);
    assert.ok(!("tools/xai_search.json" in manifest));
    // web_search is still granted (deleting a file is not a revoke, #374): back on openai.
    assert.equal(toOpenai.actions["tools/web_search.json"], "installed");
    assert.equal((await declared(home)).provider, "openai");
  });
});

Deno.test("a deleted mismatched default is dropped from the manifest as kept-deleted", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: null, optIn: ["xai_search"] });
    await rm(join(home, "tools/xai_search.json"));
    const report = await install({
      configHome: home,
      provider: "openai",
      revokeOptIn: ["xai_search"],
    });
    assert.ok(!("tools/xai_search.json" in await manifestOf(home)));
    assert.equal(report.actions["tools/xai_search.json"], undefined);
    await install({ configHome: home, provider: null, optIn: ["xai_search"] });
    await rm(join(home, "tools/xai_search.json"));
    await write(home, ".declared.json", "{}"); // forget the grant: only the file counted
    const pruned = await install({ configHome: home, provider: "openai" });
    assert.equal(pruned.actions["tools/xai_search.json"], "kept-deleted");
    assert.ok(!("tools/xai_search.json" in await manifestOf(home)));
  });
});

Deno.test("opt-in: granted at install, then carried forward loudly on later runs", async () => {
  await withHome(async (home) => {
    const first = await install({ configHome: home, provider: "openai", optIn: ["system_prompt"] });
    assert.equal(first.actions["tools/system_prompt.json"], "installed");
    assert.deepEqual(first.grandfathered, []);
    assert.deepEqual((await declared(home)).opt_in, ["system_prompt"]);
    const later = await install({ configHome: home, provider: "openai" });
    assert.equal(later.actions["tools/system_prompt.json"], "unchanged");
    assert.deepEqual(later.grandfathered, ["tools/system_prompt.json"]);
    assert.ok(
      later.summary().split("\n").includes(
        "  kept (granted on this config home, carried forward): tools/system_prompt.json. These " +
          "powerful tools are off by default for new agents; retire one with --revoke-opt-in " +
          "<stem> (deleting the file does not drop the grant).",
      ),
    );
    assert.match(later.warnings.join("\n"), /Carried forward powerful opt-in tool\(s\)/);
  });
});

Deno.test("a powerful file present on disk is a grant (a Python-era scaffold is grandfathered)", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai" });
    await write(home, "tools/web_search.json", '{"hand": "copied"}\n');
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(report.actions["tools/web_search.json"], "kept-edited");
    assert.deepEqual(report.grandfathered, ["tools/web_search.json"]);
    assert.deepEqual((await declared(home)).opt_in, ["web_search"]);
  });
});

Deno.test("restored: a granted tool that went missing is put back and said so", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai", optIn: ["web_search"] });
    await rm(join(home, "tools/web_search.json"));
    const report = await install({ configHome: home, provider: "openai" });
    assert.equal(report.actions["tools/web_search.json"], "restored");
    assert.ok(await exists(home, "tools/web_search.json"));
    assert.ok(
      report.summary().split("\n").includes(
        "  RESTORED granted opt-in tool(s) that had gone missing: tools/web_search.json. " +
          "Something removed them since the last reconcile — use --revoke-opt-in if the removal " +
          "was intended.",
      ),
    );
  });
});

Deno.test("revoke: a pristine file is deleted, the grant dropped and not re-laid", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai", optIn: ["web_search", "system_prompt"] });
    const report = await install({
      configHome: home,
      provider: "openai",
      revokeOptIn: ["web_search.py"],
    });
    assert.equal(report.actions["tools/web_search.json"], "revoked");
    assert.equal(await exists(home, "tools/web_search.json"), false);
    assert.ok(!("tools/web_search.json" in await manifestOf(home)));
    assert.deepEqual((await declared(home)).opt_in, ["system_prompt"]);
    const next = await install({ configHome: home, provider: "openai" });
    assert.equal(next.actions["tools/web_search.json"], undefined);
    assert.equal(await exists(home, "tools/web_search.json"), false);
  });
});

Deno.test("revoke: an edited file is kept with a WARNING", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai", optIn: ["web_search"] });
    await write(home, "tools/web_search.json", '{"mine": 1}\n');
    const report = await install({
      configHome: home,
      provider: "openai",
      revokeOptIn: ["web_search"],
    });
    assert.equal(await read(home, "tools/web_search.json"), '{"mine": 1}\n');
    assert.equal(report.actions["tools/web_search.json"], undefined);
    assert.ok(!("tools/web_search.json" in await manifestOf(home)));
    assert.match(
      report.warnings.join("\n"),
      /Kept your edited tools\/web_search\.json although --revoke-opt-in web_search was given/,
    );
  });
});

Deno.test("unknown and benign stems in --opt-in/--revoke-opt-in only warn", async () => {
  await withHome(async (home) => {
    const report = await install({
      configHome: home,
      provider: "openai",
      optIn: ["bogus", "assets"],
      revokeOptIn: ["lock"],
    });
    assert.equal(report.warnings.length, 3);
    assert.match(
      report.warnings[0],
      /^--opt-in bogus did nothing: 'bogus' is not a shipped tool-plugin stem\. The opt-in stems are: anthropic_search, code_execution, edit_image,/,
    );
    assert.match(report.warnings[1], /^--opt-in assets did nothing: 'assets' is a benign default/);
    assert.match(report.warnings[2], /^--revoke-opt-in lock did nothing/);
    // A benign grant is recorded (as the reference does); an unknown stem is not.
    assert.deepEqual((await declared(home)).opt_in, ["assets"]);
    assert.ok(await exists(home, "tools/lock.json"));
  });
});
