/**
 * `harness completions`: scripts generated from the registry, exercised in the shells that are
 * installed (bash's own `complete -p` and completion function; `zsh -n` / `fish -n` syntax checks).
 */
import assert from "node:assert/strict";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { runCli } from "../support/run_cli.ts";

const has = async (shell: string) =>
  await new Deno.Command("sh", { args: ["-c", `command -v ${shell}`], stdout: "null" }).output()
    .then((o) => o.success, () => false);

async function script(shell: string): Promise<string> {
  const result = await runCli(["completions", shell]);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

/** Runs bash with the script loaded and returns what `_harness` offers for `words`. */
async function bashOffers(file: string, words: string[]): Promise<string[]> {
  const quoted = words.map((w) => `'${w}'`).join(" ");
  const program = `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; ` +
    `_harness; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const output = await new Deno.Command("bash", { args: ["-c", program], stdout: "piped" })
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
      // After a flag that takes a value, file names.
      await Deno.writeTextFile(`${dir}/home-marker`, "");
      assert.deepEqual(
        await bashOffers(file, ["harness", "install", "--config-home", `${dir}/home-m`]),
        [`${dir}/home-marker`],
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
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

Deno.test("completions zsh and fish name every command and flag", async () => {
  const zsh = await script("zsh");
  const fish = await script("fish");
  assert.ok(zsh.startsWith("#compdef harness\n"));
  for (const entry of COMMANDS) {
    assert.ok(zsh.includes(`    '${entry.name}:`), entry.name);
    assert.ok(fish.includes(`-a ${entry.name} -d `), entry.name);
  }
  assert.ok(zsh.includes("'--config-home=:value:_files'"));
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
