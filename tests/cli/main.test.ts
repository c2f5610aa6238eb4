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

Deno.test("an unknown command exits 2 with one line: the nearest command and where help is", async () => {
  const c = capture();
  assert.equal(await main(["wkae"], c.io), 2);
  assert.equal(
    c.err(),
    "harness: unknown command 'wkae'. Did you mean 'wake'? Run 'harness --help' for the commands.\n",
  );
  assert.equal(c.out(), "");
  const far = capture();
  assert.equal(await main(["frobnicate"], far.io), 2);
  assert.equal(
    far.err(),
    "harness: unknown command 'frobnicate'. Run 'harness --help' for the commands.\n",
  );
});

Deno.test("an unknown global option exits 2 with one line", async () => {
  const c = capture();
  assert.equal(await main(["--vresion"], c.io), 2);
  assert.equal(
    c.err(),
    "harness: unknown option '--vresion'. Did you mean '--version'? Run 'harness --help' for the commands.\n",
  );
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

Deno.test("an unknown flag on any command exits 2 with one line and no usage dump", async () => {
  for (const entry of COMMANDS) {
    const c = capture();
    assert.equal(await main([entry.name, "--no-such-flag"], c.io), 2, entry.name);
    assert.equal(c.err().split("\n").length, 2, `one line for ${entry.name}: ${c.err()}`);
    includes(c.err(), `harness ${entry.name}: unknown option '--no-such-flag'.`);
    includes(c.err(), `Run 'harness ${entry.name} --help' for usage.`);
    assert.equal(c.out(), "");
  }
});

Deno.test("a misspelt flag names the flag the command has", async () => {
  const cases: [string[], string][] = [
    [["install", "--opt-n", "x"], "--opt-in"],
    [["wake", "--timline", "x"], "--timeline"],
    [["verify", "--jsn"], "--json"],
    [["mcp", "list", "--config-hom", "x"], "--config-home"],
  ];
  for (const [argv, meant] of cases) {
    const c = capture();
    assert.equal(await main(argv, c.io), 2, argv.join(" "));
    includes(c.err(), `. Did you mean '${meant}'? Run 'harness ${argv[0]} --help' for usage.\n`);
  }
});

Deno.test("--help and --version are accepted by every command", async () => {
  for (const entry of COMMANDS) {
    const c = capture();
    assert.equal(await main([entry.name, "--version"], c.io), 0, entry.name);
    assert.match(c.out(), new RegExp(`^harness (cleanup )?${VERSION.replaceAll(".", "\\.")}`));
    assert.equal(c.out().split("\n").length, 2, entry.name);
  }
});

Deno.test("a misspelt subcommand word names the nearest", async () => {
  const cases: [string[], string][] = [[["records", "stat"], "stats"], [["mcp", "lst"], "list"]];
  for (const [argv, meant] of cases) {
    const c = capture();
    assert.equal(await main(argv, c.io), 2);
    includes(c.err(), `Did you mean '${meant}'?`);
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

Deno.test("version names an SDK it does not ship as not installed; xai-sdk names the SDK that runs", async () => {
  const result = await runCli(["version"], { env: { AI_SDK: "langchain" } });
  assert.equal(result.code, 0);
  assert.equal(result.stdout, `harness ${VERSION} · langchain SDK not installed\n`);
  const grok = await runCli(["version"], { env: { AI_SDK: "xai-sdk" } });
  assert.match(
    grok.stdout,
    new RegExp(`^harness ${VERSION.replaceAll(".", "\\.")} · openai SDK \\d+\\.\\d+\\.\\d+\n$`),
  );
});

Deno.test("a usage error from a real process exits 2 with nothing on stdout", async () => {
  const result = await runCli(["version", "extra"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert(result.stderr.includes("unexpected argument 'extra'"), result.stderr);
});
