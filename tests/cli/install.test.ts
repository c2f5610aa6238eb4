/**
 * `harness install` as an operator runs it: a real process against a temp config home. The
 * acceptance: grant an opt-in tool, edit a prompt, re-install over a "newer version" and find
 * the edit kept with the new default beside it as `.new`.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { DEFAULT_SYSTEM_PROMPT } from "../../lib/config/defaults.ts";
import { VERSION } from "../../lib/base/version.ts";
import { runCli } from "../support/run_cli.ts";

const ENV = { AI_PROVIDER: "openai" };
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const present = (path: string) => stat(path).then(() => true, () => false);

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "harness-install-cli-"));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

Deno.test("acceptance: an edited prompt survives an upgrade, the new default beside it", async () => {
  await withDir(async (dir) => {
    const home = join(dir, "home");
    const first = await runCli(["install", "--config-home", home, "--opt-in", "system_prompt"], {
      env: ENV,
    });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `Config home: ${home}\ninstalled: 14\n`);
    assert.equal(first.stderr, "");
    assert.ok(await present(join(home, "tools/system_prompt.json")));
    const declared = JSON.parse(await readFile(join(home, ".declared.json"), "utf8"));
    assert.deepEqual(declared.opt_in, ["system_prompt"]);

    // The operator edits the persona …
    const prompt = join(home, "prompts/system-prompt.md");
    await writeFile(prompt, "You are Ada, a careful reviewer.\n");
    // … and a newer release ships a different default: the manifest still records the hash of
    // what the older release shipped, and the stamp is the older version.
    const manifestPath = join(home, ".manifest.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
    manifest["prompts/system-prompt.md"] = sha("You are the previous release's default.\n");
    await writeFile(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
    await writeFile(join(home, ".version"), "0.0.1\n");

    const upgrade = await runCli(["install", "--config-home", home], { env: ENV });
    assert.equal(upgrade.code, 0, upgrade.stderr);
    const lines = upgrade.stdout.trimEnd().split("\n");
    assert.equal(lines[0], `Config home: ${home}`);
    assert.equal(lines[1], "kept-edited: 1, unchanged: 13");
    assert.equal(
      lines[2],
      "  kept your edited prompts/system-prompt.md — new default written to " +
        "prompts/system-prompt.md.new",
    );
    assert.match(
      lines[3],
      /^ {2}kept \(granted on this config home, carried forward\): tools\/system_prompt\.json\./,
    );
    assert.match(upgrade.stderr, /^Carried forward powerful opt-in tool\(s\)/);
    assert.equal(await readFile(prompt, "utf8"), "You are Ada, a careful reviewer.\n");
    assert.equal(await readFile(`${prompt}.new`, "utf8"), DEFAULT_SYSTEM_PROMPT);
    assert.equal(await readFile(join(home, ".version"), "utf8"), `${VERSION}\n`);
    assert.equal(await present(join(home, "agent.env")), false);
    assert.equal(await present(join(home, "model_params.json")), false);
  });
});

Deno.test("the config home defaults to BASECRADLE_CONFIG_HOME; warnings go to stderr", async () => {
  await withDir(async (dir) => {
    const home = join(dir, "from-env");
    const result = await runCli(["install", "--opt-in", "assets"], {
      env: { ...ENV, BASECRADLE_CONFIG_HOME: home },
    });
    assert.equal(result.code, 0);
    assert.equal(result.stdout.split("\n")[0], `Config home: ${home}`);
    assert.match(result.stderr, /^--opt-in assets did nothing: 'assets' is a benign default/);
    assert.ok(await present(join(home, ".manifest.json")));
  });
});

Deno.test("a misspelt opt-in or revoke stem exits 1 naming the nearest stem and writes nothing", async () => {
  await withDir(async (dir) => {
    const home = join(dir, "home");
    for (const flag of ["--opt-in", "--revoke-opt-in"]) {
      const result = await runCli(["install", "--config-home", home, flag, "web_serch"], {
        env: ENV,
      });
      assert.equal(result.code, 1, flag);
      assert.equal(result.stdout, "");
      assert.match(
        result.stderr,
        /^harness install: No shipped tool plugin is named: web_serch\. Did you mean 'web_search' for 'web_serch'\?/,
      );
      assert.equal(await present(home), false, "nothing is written");
    }
  });
});

Deno.test("--provider picks the tool defaults; --all-providers conflicts with it", async () => {
  await withDir(async (dir) => {
    const home = join(dir, "home");
    const xai = await runCli(
      ["install", "--config-home", home, "--provider", "XAI", "--opt-in", "xai_search"],
      { env: ENV },
    );
    assert.equal(xai.code, 0, xai.stderr);
    assert.ok(await present(join(home, "tools/xai_search.json")));
    const declared = JSON.parse(await readFile(join(home, ".declared.json"), "utf8"));
    assert.equal(declared.provider, "xai");
    const both = await runCli(["install", "--provider", "xai", "--all-providers"], { env: ENV });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /mutually exclusive/);
    assert.equal(both.stdout, "");
  });
});

Deno.test("an unknown provider is refused before anything is pruned, from the flag or AI_PROVIDER", async () => {
  await withDir(async (dir) => {
    const home = join(dir, "home");
    const granted = await runCli(
      ["install", "--config-home", home, "--provider", "openai", "--opt-in", "web_search"],
      { env: ENV },
    );
    assert.equal(granted.code, 0, granted.stderr);
    assert.ok(await present(join(home, "tools/web_search.json")));
    const typo = await runCli(["install", "--config-home", home, "--provider", "opnai"], {
      env: ENV,
    });
    assert.equal(typo.code, 2);
    assert.match(
      typo.stderr,
      /--provider 'opnai' is unknown; expected one of \(openai, xai, openrouter, anthropic\)/,
    );
    assert.equal(typo.stdout, "");
    const fromEnv = await runCli(["install", "--config-home", home], {
      env: { AI_PROVIDER: "opnai" },
    });
    assert.equal(fromEnv.code, 1);
    assert.match(
      fromEnv.stderr,
      /^harness install: AI_PROVIDER='opnai' is unknown; .* or pass --provider\.$/m,
    );
    // The grant is still there.
    assert.ok(await present(join(home, "tools/web_search.json")));
  });
});

Deno.test("a filesystem failure is one line on stderr and exit 1", async () => {
  await withDir(async (dir) => {
    await writeFile(join(dir, "file"), "x");
    const result = await runCli(["install", "--config-home", join(dir, "file", "home")], {
      env: ENV,
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^harness install: .+\n$/);
    assert.equal(result.stdout, "");
  });
});

Deno.test("a repeated --opt-in or --revoke-opt-in adds up: every stem named is granted or revoked", async () => {
  await withDir(async (dir) => {
    const home = join(dir, "home");
    const install = (...flags: string[]) =>
      runCli(["install", "--config-home", home, ...flags], { env: ENV });
    const granted = await install("--opt-in", "shell", "--opt-in", "hear_audio,system_prompt");
    assert.equal(granted.code, 0, granted.stderr);
    for (const stem of ["shell", "hear_audio", "system_prompt"]) {
      assert.ok(await present(join(home, `tools/${stem}.json`)), `${stem} granted`);
    }
    const revoked = await install("--revoke-opt-in", "shell", "--revoke-opt-in", "hear_audio");
    assert.equal(revoked.code, 0, revoked.stderr);
    // The first occurrence is not dropped: shell is revoked as well as hear_audio.
    assert.equal(await present(join(home, "tools/shell.json")), false, "shell revoked");
    assert.equal(await present(join(home, "tools/hear_audio.json")), false, "hear_audio revoked");
    assert.ok(await present(join(home, "tools/system_prompt.json")), "the rest is kept");
    const declared = JSON.parse(await readFile(join(home, ".declared.json"), "utf8"));
    assert.deepEqual(declared.opt_in, ["system_prompt"]);
  });
});
