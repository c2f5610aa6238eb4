/**
 * `harness completions`: scripts generated from the registry, exercised in the shells that are
 * installed (bash's own `complete -p` and completion function, values after each kind of flag
 * included; `zsh -n` / `fish -n` syntax checks, skipped where the shell is absent).
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { completionEntries } from "../../lib/cli/completions.ts";
import { runCli } from "../support/run_cli.ts";

const has = async (shell: string) =>
  await new Deno.Command("sh", { args: ["-c", `command -v ${shell}`], stdout: "null" }).output()
    .then((o) => o.success, () => false);

async function script(shell: string): Promise<string> {
  const result = await runCli(["completions", shell]);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

/**
 * Runs bash with the script loaded, in `cwd`, and returns what `_harness` offers for `words` (the
 * words as bash splits them: `--flag=value` is three words, `--flag`, `=` and `value`).
 */
async function bashOffers(file: string, words: string[], cwd?: string): Promise<string[]> {
  const quoted = words.map((w) => `'${w}'`).join(" ");
  const program = `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; ` +
    `_harness; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const output = await new Deno.Command("bash", { args: ["-c", program], stdout: "piped", cwd })
    .output();
  assert.ok(output.success);
  return new TextDecoder().decode(output.stdout).split("\n").filter(Boolean);
}

Deno.test({
  name: "completions bash: registered with complete, and offers commands, flags and words",
  ignore: !(await has("bash")),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "completions-" });
    try {
      const file = `${dir}/harness.bash`;
      await Deno.writeTextFile(file, await script("bash"));
      const registered = await new Deno.Command("bash", {
        args: ["-c", `source '${file}'; complete -p harness`],
        stdout: "piped",
      }).output();
      assert.equal(new TextDecoder().decode(registered.stdout), "complete -F _harness harness\n");
      assert.deepEqual(await bashOffers(file, ["harness", ""]), [
        ...COMMANDS.map((c) => c.name),
        "--help",
        "-h",
        "--version",
      ]);
      assert.deepEqual(await bashOffers(file, ["harness", "ver"]), ["version", "verify"]);
      assert.deepEqual(await bashOffers(file, ["harness", "install", "--opt"]), ["--opt-in"]);
      assert.deepEqual(await bashOffers(file, ["harness", "verify", "--e"]), [
        "--expect-version",
        "--emit-claims",
        "--env-file",
      ]);
      assert.deepEqual(await bashOffers(file, ["harness", "mcp", "a"]), ["approve"]);
      assert.deepEqual(await bashOffers(file, ["harness", "completions", ""]), [
        "bash",
        "zsh",
        "fish",
        "--help",
        "--version",
        "-h",
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "completions bash: a flag's value is one of its words, a path where it names one, else nothing",
  ignore: !(await has("bash")),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "completions-" });
    try {
      const file = `${dir}/harness.bash`;
      await Deno.writeTextFile(file, await script("bash"));
      // Files in the working directory: a flag that takes no path must never offer them.
      await Deno.writeTextFile(`${dir}/day-notes`, "");
      await Deno.writeTextFile(`${dir}/openai.txt`, "");
      await Deno.mkdir(`${dir}/home-dir`);
      await Deno.writeTextFile(`${dir}/home-file`, "");
      const offers = (words: string[]) => bashOffers(file, ["harness", ...words], dir);

      assert.deepEqual(await offers(["install", "--provider", ""]), [
        "openai",
        "xai",
        "openrouter",
        "anthropic",
      ]);
      assert.deepEqual(await offers(["install", "--provider", "o"]), ["openai", "openrouter"]);
      assert.deepEqual(await offers(["verify", "--provider", "x"]), ["xai"]);
      assert.deepEqual(await offers(["records", "--by", ""]), ["day", "week"]);
      assert.deepEqual(await offers(["records", "--by", "d"]), ["day"]);
      assert.deepEqual(await offers(["records", "--chart", "c"]), ["cost", "cache"]);
      assert.deepEqual(await offers(["resolve", "--profile", ""]), ["locked", "unlocked"]);
      assert.deepEqual(await offers(["resolve", "--sdk", ""]), [
        "openai",
        "openrouter",
        "anthropic",
      ]);
      assert.deepEqual(await offers(["resolve", "--surface", ""]), [
        "responses",
        "chat",
        "messages",
      ]);
      assert.deepEqual(await offers(["resolve", "--memory-provider", "r"]), ["recall"]);
      // The powerful stems, each item of a comma list in turn.
      const stems = await offers(["install", "--opt-in", ""]);
      assert.ok(stems.includes("system_prompt") && stems.includes("shell"), stems.join(" "));
      assert.ok(!stems.includes("messages"), "messages is always on, never granted");
      assert.deepEqual(await offers(["install", "--opt-in", "shell,system_p"]), [
        "shell,system_prompt",
      ]);
      assert.deepEqual(await offers(["replay", "--fail-on", "more-refusals,f"]), [
        "more-refusals,fewer-replies",
      ]);
      const only = await offers(["resolve", "--only", "mes"]);
      assert.deepEqual(only, ["messages"]);
      // --flag=value, which bash splits at the '='.
      assert.deepEqual(await offers(["install", "--provider", "=", "x"]), ["xai"]);
      assert.deepEqual(await offers(["records", "--by", "="]), ["day", "week"]);
      // Free values (a uuid, a number, a model id): nothing, not the directory's files.
      for (
        const words of [
          ["wake", "--timeline", ""],
          ["status", "--limit", ""],
          ["resolve", "--model", ""],
          ["doctor", "--timeout", "d"],
          ["install", "--provider", "d"],
        ]
      ) {
        assert.deepEqual(await offers(words), [], words.join(" "));
      }
      // A directory flag offers directories; a file flag offers files.
      assert.deepEqual(await offers(["install", "--config-home", "home-"]), ["home-dir"]);
      assert.deepEqual(await offers(["status", "--env-file", "home-"]), ["home-dir", "home-file"]);
      assert.deepEqual(await offers(["replay", "--turns", "day"]), ["day-notes"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("every flag that takes a value says what it takes: its words, a path, or a free value", async () => {
  // A flag here takes values no list can hold (a uuid, a number, a time, a model id, a command).
  const FREE = new Set([
    "timeline",
    "message",
    "asset",
    "event",
    "interval",
    "limit",
    "since",
    "until",
    "last",
    "model",
    "base-url",
    "handle",
    "expect-version",
    "subject",
    "timeout",
    "port",
    "host",
    "wake-command",
    "lanes",
    "max-guardrail-failure-rate",
    "max-escalation-rate",
    "max-p95-latency-ms",
    "min-cache-hit-rate",
  ]);
  const entries = await completionEntries(COMMANDS);
  for (const entry of entries) {
    for (const flag of entry.flags.filter((f) => f.takesValue)) {
      const described = flag.values.length > 0 || flag.completes !== undefined ||
        FREE.has(flag.name);
      assert.ok(
        described,
        `${entry.name} --${flag.name}: give it values, completes or list it as free`,
      );
      assert.ok(!(flag.values.length > 0 && flag.completes), `${entry.name} --${flag.name}`);
    }
  }
});

for (const shell of ["zsh", "fish"]) {
  Deno.test({
    name: `completions ${shell}: the script parses in ${shell}`,
    ignore: !(await has(shell)),
    async fn() {
      const output = await new Deno.Command(shell, { args: ["-n"], stdin: "piped" }).spawn();
      const writer = output.stdin.getWriter();
      await writer.write(new TextEncoder().encode(await script(shell)));
      await writer.close();
      assert.ok((await output.status).success);
    },
  });
}

Deno.test({
  name:
    "completions fish: a flag's value is one of its words, a path where it names one, else nothing",
  ignore: !(await has("fish")),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "completions-" });
    try {
      const file = `${dir}/harness.fish`;
      await Deno.writeTextFile(file, await script("fish"));
      await Deno.writeTextFile(`${dir}/day-notes`, "");
      await Deno.mkdir(`${dir}/home-dir`);
      await Deno.writeTextFile(`${dir}/home-file`, "");
      const offers = async (line: string) => {
        const output = await new Deno.Command("fish", {
          args: ["-c", `source '${file}'; complete -C '${line}'`],
          cwd: dir,
          stdout: "piped",
        }).output();
        assert.ok(output.success, line);
        return new TextDecoder().decode(output.stdout).split("\n").filter(Boolean)
          .map((candidate) => candidate.split("\t")[0]);
      };
      assert.deepEqual(await offers("harness records --by "), ["day", "week"]);
      assert.deepEqual(await offers("harness install --provider=x"), ["--provider=xai"]);
      assert.deepEqual(await offers("harness install --opt-in shell,system_p"), [
        "shell,system_prompt",
      ]);
      assert.deepEqual(await offers("harness wake --timeline "), []);
      assert.deepEqual(await offers("harness install --config-home home-"), ["home-dir/"]);
      assert.deepEqual(await offers("harness status --env-file home-"), ["home-dir/", "home-file"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("completions zsh and fish name every command and flag", async () => {
  const zsh = await script("zsh");
  const fish = await script("fish");
  assert.ok(zsh.startsWith("#compdef harness\n"));
  for (const entry of COMMANDS) {
    assert.ok(zsh.includes(`    '${entry.name}:`), entry.name);
    assert.ok(fish.includes(`-a ${entry.name} -d `), entry.name);
  }
  assert.ok(zsh.includes("'--config-home=:config-home:_files -/'"));
  assert.ok(zsh.includes("'--provider=:provider:(openai xai openrouter anthropic)'"));
  assert.ok(zsh.includes("'--by=:by:(day week)'"));
  assert.ok(zsh.includes("'--timeline=:timeline: '"));
  assert.match(zsh, /'--opt-in=:opt-in:_values -s , opt-in [a-z_ ]*system_prompt/);
  assert.ok(fish.includes("-n '__fish_seen_subcommand_from records' -l by -x -a 'day week'\n"));
  assert.ok(fish.includes("-n '__fish_seen_subcommand_from wake' -l timeline -x\n"));
  assert.ok(fish.includes("-n '__fish_seen_subcommand_from status' -l env-file -r -F\n"));
  assert.match(fish, /-l opt-in -x -a '\(__harness_list [a-z_ ]*system_prompt/);
  assert.ok(fish.includes("-n '__fish_seen_subcommand_from verify' -l json\n"));
  assert.ok(fish.includes("-d 'print this agent\\'s claims manifest"));
});

Deno.test("completions: a missing or misspelt shell is a usage error naming the nearest", async () => {
  const none = await runCli(["completions"]);
  assert.equal(none.code, 2);
  const typo = await runCli(["completions", "bsh"]);
  assert.equal(typo.code, 2);
  assert.match(
    typo.stderr,
    /^harness completions: unknown shell 'bsh' \(expected bash, zsh or fish\)\. Did you mean 'bash'\?/,
  );
});
