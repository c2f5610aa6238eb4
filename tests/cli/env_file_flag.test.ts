/**
 * `--env-file PATH` (docs/operating.md#shared-flags): every command that reads the environment
 * takes it and loads the agent.env before it runs, as the router would have; the file's values
 * replace inherited ones; an unreadable file is one line and exit 1; a line the format cannot
 * read is a WARNING by number, never by content; the secrets it brings are scrubbed like any.
 */
import assert from "node:assert/strict";
import { main } from "../../lib/cli/main.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { runCli } from "../support/run_cli.ts";
import { say, scriptReply, world } from "../e2e/wake_support.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

/** Commands whose every input is a flag: they refuse the flag as unknown. */
const PURE = ["resolve", "completions"];

Deno.test("every command that reads the environment accepts --env-file; the pure ones refuse it", async () => {
  const file = await Deno.makeTempFile({ suffix: ".env" });
  try {
    for (const entry of COMMANDS) {
      const c = capture();
      const code = await main([entry.name, "--env-file", file, "--help"], c.io);
      if (PURE.includes(entry.name)) {
        assert.equal(code, 2, entry.name);
        assert.match(c.err(), /unknown option '--env-file'/, entry.name);
        assert.doesNotMatch(c.out(), /--env-file/, entry.name);
      } else {
        assert.equal(code, 0, `${entry.name}: ${c.err()}`);
        assert.match(c.out(), /\n {2}--env-file PATH {2}load PATH, an agent\.env/, entry.name);
      }
    }
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("the file's values reach the command, replacing inherited ones, as the router reads them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "env-file-" });
  try {
    await Deno.mkdir(`${dir}/home`);
    await Deno.writeTextFile(
      `${dir}/agent.env`,
      `# the agent's env\nexport HARNESS_HOME="${dir}/home"\nAI_SDK='openrouter'\n`,
    );
    const status = await runCli(["status", "--env-file", `${dir}/agent.env`], {
      env: { HARNESS_HOME: "/nonexistent/inherited" },
    });
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.stdout, `no timelines under ${dir}/home\n`);
    assert.equal(status.stderr, "");
    // --version reads the environment too (the SDK it names), so the file is loaded first.
    const version = await runCli(["wake", "--version", "--env-file", `${dir}/agent.env`], {
      env: { AI_SDK: "openai" },
    });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^harness \S+ · openrouter SDK /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an unreadable file is one line and exit 1; an unreadable line is a WARNING by number", async () => {
  const dir = await Deno.makeTempDir({ prefix: "env-file-" });
  try {
    const missing = await runCli(["status", "--env-file", `${dir}/nope.env`]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, "");
    assert.equal(
      missing.stderr,
      `harness status: --env-file ${dir}/nope.env cannot be read: there is no such file. Name ` +
        "the agent's env file, e.g. --env-file ~/.config/basecradle/agent.env.\n",
    );
    const directory = await runCli(["status", "--env-file", dir]);
    assert.equal(directory.code, 1);
    assert.match(directory.stderr, /cannot be read: it is a directory\./);
    const blank = await runCli(["status", "--env-file", " "]);
    assert.equal(blank.code, 2);
    assert.match(blank.stderr, /^harness status: --env-file is empty\./);

    await Deno.mkdir(`${dir}/home`);
    await Deno.writeTextFile(
      `${dir}/agent.env`,
      `HARNESS_HOME=${dir}/home\nsk-pasted-secret-without-a-name\n`,
    );
    const warned = await runCli(["status", "--env-file", `${dir}/agent.env`]);
    assert.equal(warned.code, 0, warned.stderr);
    assert.equal(
      warned.stderr,
      `WARNING --env-file ${dir}/agent.env line 2 was ignored: it has no '=' (expected ` +
        "KEY=VALUE); a routed wake ignores it too.\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a wake whose credentials come only from --env-file answers, and scrubs them", async () => {
  await using w = await world();
  await say(w, "hi @ada");
  scriptReply(w.model, "Hello from the env file.", "Greeted Bob.");
  const file = `${w.home}/agent.env`;
  await Deno.writeTextFile(
    file,
    `export AI_API_KEY="${w.env.AI_API_KEY}"\nBASECRADLE_TOKEN='${w.env.BASECRADLE_TOKEN}'\n`,
  );
  const result = await w.wake(["--env-file", file], {
    AI_API_KEY: "",
    BASECRADLE_TOKEN: "",
    HARNESS_LOG_LEVEL: "DEBUG", // the most the journal ever says
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /INFO wake end timeline=\S+ outcome=ok turns=1 steps=2\/24 posted=1/);
  assert.equal(w.model.hits("chat"), 2);
  for (const secret of [w.env.AI_API_KEY, w.env.BASECRADLE_TOKEN]) {
    assert.ok(!(result.stdout + result.stderr).includes(secret), "a secret was printed");
  }
});
