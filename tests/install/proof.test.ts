/**
 * `harness verify`'s prover and the claims manifest, against real config homes the installer
 * lays down in temp directories.
 */
import assert from "node:assert/strict";
import { install } from "../../lib/install/installer.ts";
import {
  evidenceText,
  PROOF_NOTES,
  proveConfigHome,
  reportDocument,
} from "../../lib/install/proof.ts";
import { capabilityManifestText } from "../../lib/install/capability_manifest.ts";
import { shellQuote } from "../../lib/pycompat/shlex.ts";
import { VERSION } from "../../lib/base/version.ts";
import { runCli } from "../support/run_cli.ts";

const noEnv = (_: string) => undefined;

async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "verify-" });
  try {
    await body(`${dir}/config`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const checks = (report: { findings: readonly { check: string }[] }) =>
  report.findings.map((f) => f.check);

Deno.test("proof: a fresh install is green and records .verified.json", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai", optIn: ["web_search"] });
    const report = await proveConfigHome({
      configHome: home,
      env: noEnv,
      now: () => new Date("2026-08-18T10:11:12.345Z"),
    });
    assert.deepEqual(checks(report), []);
    assert.equal(report.activeProviderSource, "default");
    assert.deepEqual(report.granted, ["web_search"]);
    assert.equal(report.evidence, `${home}/.verified.json`);
    const evidence = await Deno.readTextFile(`${home}/.verified.json`);
    assert.equal(
      evidence,
      `{\n  "checked": "2026-08-18T10:11:12+00:00",\n  "contract": 1,\n  "declared_files": ${report.declaredFiles.length},\n  "harness_version": "${VERSION}",\n  "ok": true,\n  "opt_in": [\n    "web_search"\n  ],\n  "provider": "openai"\n}\n`,
    );
    assert.equal(evidence, evidenceText(report, new Date("2026-08-18T10:11:12.9Z")));
    const doc = reportDocument(report);
    assert.deepEqual(Object.keys(doc).sort(), [
      "active_provider",
      "active_provider_source",
      "config_home",
      "declared_files",
      "declared_provider",
      "distribution_version",
      "evidence",
      "findings",
      "harness_version",
      "notes",
      "ok",
      "opt_in",
    ]);
    assert.deepEqual(doc.notes, PROOF_NOTES);
  });
});

Deno.test("proof: unproven is red — no install, no declaration, unknown contract", async () => {
  await withHome(async (home) => {
    const none = await proveConfigHome({ configHome: home, env: noEnv });
    assert.deepEqual(checks(none), ["config-home-not-installed"]);
    assert.equal(none.evidence, null);
    await install({ configHome: home, provider: "openai" });
    await Deno.remove(`${home}/.declared.json`);
    assert.deepEqual(checks(await proveConfigHome({ configHome: home, env: noEnv })), [
      "declaration-missing",
    ]);
    await Deno.writeTextFile(`${home}/.declared.json`, '{"contract": 2, "files": []}');
    const future = await proveConfigHome({ configHome: home, env: noEnv });
    assert.deepEqual(checks(future), ["declaration-contract-unknown"]);
    assert.match(future.findings[0].detail, /contract 2; this harness understands 1/);
  });
});

Deno.test("proof: a stripped grant, a vanished file, a stale stamp and a wrong pin", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "openai", optIn: ["web_search"] });
    await Deno.remove(`${home}/tools/web_search.json`);
    await Deno.remove(`${home}/prompts/initialize.md`);
    await Deno.writeTextFile(`${home}/.version`, "0.0.1\n");
    // An operator's edit is never a finding.
    await Deno.writeTextFile(`${home}/prompts/system-prompt.md`, "You are Ada.\n");
    const report = await proveConfigHome({ configHome: home, env: noEnv, expectVersion: "9.9.9" });
    assert.deepEqual(checks(report), [
      "package-pin-mismatch",
      "config-home-stale",
      "opt-in-missing",
      "overlay-file-missing",
    ]);
    assert.equal(report.findings[2].subject, "web_search");
    assert.equal(report.findings[3].subject, "prompts/initialize.md");
    assert.equal(report.evidence, null);
    assert.equal(await Deno.stat(`${home}/.verified.json`).then(() => true, () => false), false);
  });
});

Deno.test("proof: the provider comes from the argument, AI_PROVIDER, agent.env, else default", async () => {
  await withHome(async (home) => {
    await install({ configHome: home, provider: "xai" });
    const assumed = await proveConfigHome({ configHome: home, env: noEnv, record: false });
    assert.deepEqual(checks(assumed), ["provider-mismatch"]);
    assert.match(assumed.findings[0].detail, /the default was assumed/);
    await Deno.writeTextFile(
      `${home}/agent.env`,
      "AI_PROVIDER=openai\n# switched\nexport AI_PROVIDER='XAI'\n",
    );
    const fromFile = await proveConfigHome({ configHome: home, env: noEnv, record: false });
    assert.deepEqual([checks(fromFile), fromFile.activeProviderSource], [[], "agent.env"]);
    const fromEnv = await proveConfigHome({
      configHome: home,
      env: (name) => name === "AI_PROVIDER" ? "openai" : undefined,
      record: false,
    });
    assert.equal(fromEnv.activeProviderSource, "environment");
    assert.match(fromEnv.findings[0].detail, /\(read from environment\)/);
    const fromArg = await proveConfigHome({
      configHome: home,
      env: noEnv,
      provider: "XAI",
      record: false,
    });
    assert.deepEqual([checks(fromArg), fromArg.activeProviderSource], [[], "argument"]);
  });
});

Deno.test("proof: a newer build's defaults make the overlay stale and missing", async () => {
  await withHome(async (home) => {
    await install({
      configHome: home,
      provider: null,
      defaults: { "prompts/a.md": "old\n", "prompts/b.md": "b\n" },
    });
    const report = await proveConfigHome({
      configHome: home,
      env: noEnv,
      defaults: { "prompts/a.md": "new\n", "prompts/b.md": "b\n", "prompts/c.md": "c\n" },
    });
    assert.deepEqual(checks(report), ["default-not-installed", "overlay-stale"]);
    assert.match(report.findings[0].detail, /never laid down here: prompts\/c\.md$/);
    assert.match(report.findings[1].detail, /older release: prompts\/a\.md$/);
  });
});

Deno.test("claims: the manifest's exact bytes, rows in contract order", async () => {
  await withHome(async (home) => {
    await install({
      configHome: home,
      provider: null,
      defaults: {
        "prompts/system-prompt.md": "x\n",
        "tools/assets.json": "{}",
        "tools/web_search.json": '{"opt_in": true}',
      },
      optIn: ["web_search"],
    });
    const text = await capabilityManifestText({
      configHome: home,
      subject: "ada",
      script: (name) => name,
    });
    const dep = (claim: string) =>
      `    {\n      "claim": "${claim}",\n      "class": "dependency",\n      "evidence": "${home}/.verified.json",\n      "prove": {\n        "cmd": "basecradle-harness-verify --config-home ${home}",\n        "kind": "probe"\n      },\n      "ttl_hours": null\n    }`;
    const grammar =
      `    {\n      "claim": "log-grammar:billing_blocked",\n      "class": "rare",\n      "evidence": "journal:basecradle-log-grammar",\n      "prove": {\n        "cmd": "basecradle-harness-log-grammar billing_blocked",\n        "kind": "probe"\n      },\n      "ttl_hours": 1\n    }`;
    const rows = [
      "harness-config-home",
      "harness-package-pin",
      "overlay-tool:assets",
      "overlay-tool:web_search",
      "overlay-prompt:system-prompt.md",
    ].map(dep);
    assert.equal(
      text,
      `{\n  "claims": [\n${
        [...rows, grammar].join(",\n")
      }\n  ],\n  "component": "basecradle-harness",\n  "contract": 1,\n  "subject": "agent:ada"\n}`,
    );
  });
});

Deno.test("claims: no config home still emits the unconditional rows; paths are shell-quoted", async () => {
  const text = await capabilityManifestText({
    configHome: "/srv/agent's home/é",
    subject: "ada",
    script: (name) => `/opt/my bin/${name}`,
  });
  const doc = JSON.parse(text);
  assert.deepEqual(doc.claims.map((row: { claim: string }) => row.claim), [
    "harness-config-home",
    "harness-package-pin",
    "log-grammar:billing_blocked",
  ]);
  assert.equal(
    doc.claims[0].prove.cmd,
    `'/opt/my bin/basecradle-harness-verify' --config-home '/srv/agent'"'"'s home/é'`,
  );
  assert.ok(text.includes("\\u00e9"), "non-ASCII is escaped, as Python writes it");
  assert.equal(shellQuote(""), "''");
  assert.equal(shellQuote("/a/b-c_d.e:f,g@h%i+j=k"), "/a/b-c_d.e:f,g@h%i+j=k");
});

Deno.test("harness verify --json prints the report and keeps the exit code", async () => {
  await withHome(async (home) => {
    const result = await runCli(["verify", "--json", "--config-home", home]);
    assert.equal(result.code, 1);
    const doc = JSON.parse(result.stdout);
    assert.equal(doc.ok, false);
    assert.equal(doc.findings[0].check, "config-home-not-installed");
    assert.equal(doc.config_home, home);
  });
});
