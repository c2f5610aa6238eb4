import assert from "node:assert/strict";
import { main, topUsage } from "../../lib/cli/main.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { VERSION } from "../../lib/base/version.ts";
import { runCli } from "../support/run_cli.ts";

function includes(haystack: string, needle: string) {
  assert.ok(haystack.includes(needle), `expected ${JSON.stringify(needle)} in:\n${haystack}`);
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

Deno.test("--help lists every implemented command on stdout and exits 0", async () => {
  const c = capture();
  assert.equal(await main(["--help"], c.io), 0);
  for (const entry of COMMANDS) includes(c.out(), `  ${entry.name}`);
  assert.equal(c.err(), "");
});

Deno.test("no arguments prints usage on stderr and exits 2", async () => {
  const c = capture();
  assert.equal(await main([], c.io), 2);
  assert.equal(c.err(), topUsage());
  assert.equal(c.out(), "");
});

Deno.test("an unknown command exits 2 naming it, with usage on stderr", async () => {
  const c = capture();
  assert.equal(await main(["frobnicate"], c.io), 2);
  includes(c.err(), "unknown command 'frobnicate'");
  includes(c.err(), "Usage: harness <command>");
  assert.equal(c.out(), "");
});

Deno.test("an unknown global option exits 2", async () => {
  const c = capture();
  assert.equal(await main(["--frob"], c.io), 2);
  includes(c.err(), "unknown option '--frob'");
});

Deno.test("every command answers --help with its own usage on stdout", async () => {
  for (const entry of COMMANDS) {
    const c = capture();
    assert.equal(await main([entry.name, "--help"], c.io), 0, entry.name);
    assert.match(c.out(), new RegExp(`^Usage: harness ${entry.name}`));
    const viaHelp = capture();
    assert.equal(await main(["help", entry.name], viaHelp.io), 0);
    assert.equal(viaHelp.out(), c.out());
  }
});

Deno.test("an unknown flag on a command exits 2 with that command's usage", async () => {
  for (const entry of COMMANDS) {
    const c = capture();
    assert.equal(await main([entry.name, "--no-such-flag"], c.io), 2, entry.name);
    includes(c.err(), `harness ${entry.name}:`);
    includes(c.err(), "--no-such-flag");
    includes(c.err(), `Usage: harness ${entry.name}`);
  }
});

Deno.test("version prints one parseable line as a real process", async () => {
  const result = await runCli(["version"], { env: { AI_SDK: "openai" } });
  assert.equal(result.code, 0);
  assert.match(
    result.stdout,
    new RegExp(`^harness ${VERSION} · openai SDK \\d+\\.\\d+\\.\\d+\\n$`),
  );
  const flag = await runCli(["--version"], { env: { AI_SDK: "openai" } });
  assert.equal(flag.stdout, result.stdout);
});

Deno.test("version names an SDK it does not ship as not installed", async () => {
  const result = await runCli(["version"], { env: { AI_SDK: "xai-sdk" } });
  assert.equal(result.code, 0);
  assert.equal(result.stdout, `harness ${VERSION} · xai-sdk SDK not installed\n`);
});

Deno.test("a usage error from a real process exits 2 with nothing on stdout", async () => {
  const result = await runCli(["version", "extra"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert(result.stderr.includes("unexpected argument 'extra'"), result.stderr);
});
