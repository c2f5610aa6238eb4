/**
 * `harness install --wake-bin PATH` (docs/operating.md#run-under-a-router): the wake command a
 * router's registry names, written inside the agent's home because the fleet router's
 * wake-runner runs no `wake_bin` outside `/home/<os_user>/`. Proven as the router runs it: an
 * empty environment, agent.env read literally, `BASECRADLE_DELIVERY_ID` exported after it, and
 * exactly `<wake_bin> --timeline <uuid>`; then a real wake through the wrapper answering a
 * message, and the wrapper over the Python harness's own console script, kept for a rollback.
 */
import assert from "node:assert/strict";
import { parseAgentEnv } from "../../lib/config/agent_env.ts";
import { WAKE_BIN_MARK, wakeRunnerRefusal } from "../../lib/cli/wake_bin.ts";
import { DENO_DIR, runCli } from "../support/run_cli.ts";
import { agentPosts, say, scriptReply, world } from "../e2e/wake_support.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * Runs `wakeBin --timeline <timeline>` as the router's wake-runner does once it has dropped to the
 * agent: an empty environment but the login's HOME/USER/PATH, then agent.env's variables read
 * literally, then the delivery id; the command is exec'd by its resolved path.
 */
async function asWakeRunner(
  wakeBin: string,
  timeline: string,
  agentEnv: string,
  delivery: string,
  login: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const resolved = await Deno.realPath(wakeBin);
  const output = await new Deno.Command(resolved, {
    args: ["--timeline", timeline],
    clearEnv: true,
    env: { ...login, ...parseAgentEnv(agentEnv), BASECRADLE_DELIVERY_ID: delivery },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("the wake wrapper runs `harness wake` with exactly the router's argv and environment", async () => {
  const home = await Deno.makeTempDir({ prefix: "wake-bin-" });
  try {
    // A stand-in harness that records what it was run with, one line per argument, then env.
    const recorder = `${home}/recorder`;
    await Deno.writeTextFile(
      recorder,
      '#!/bin/sh\nfor a in "$@"; do printf "arg %s\\n" "$a"; done\nenv | sort\n',
      { mode: 0o755 },
    );
    const config = `${home}/.config/basecradle`;
    const installed = await runCli(
      ["install", "--config-home", config, "--wake-bin", "~/.local/bin/basecradle-harness-wake"],
      { env: { HOME: home, USER: "ada", HARNESS_BIN: recorder } },
    );
    assert.equal(installed.code, 0, installed.stderr);
    const wakeBin = `${home}/.local/bin/basecradle-harness-wake`;
    assert.match(
      installed.stdout,
      new RegExp(`^wake wrapper: ${wakeBin} \\(runs ${recorder} wake\\)$`, "m"),
    );
    assert.match(
      installed.stdout,
      new RegExp(`^  the router's registry wake_bin: ${wakeBin}$`, "m"),
    );
    // A temp directory is no /home/ada/: the router would refuse it, and install says so.
    assert.match(
      installed.stderr,
      /The wake wrapper will not run under the router: .* is outside \/home\/ada\//,
    );
    assert.equal((await Deno.stat(wakeBin)).mode! & 0o777, 0o755);
    assert.equal((await Deno.readTextFile(wakeBin)).split("\n")[1], `${WAKE_BIN_MARK}.`);

    const agentEnv = "export AI_PROVIDER=xai\nAI_MODEL='grok-4'\n";
    const login = { HOME: home, USER: "ada", PATH: "/usr/bin:/bin" };
    const ran = await asWakeRunner(
      wakeBin,
      "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b",
      agentEnv,
      "d-1",
      login,
    );
    assert.equal(ran.code, 0, ran.stderr);
    const lines = ran.stdout.trimEnd().split("\n");
    assert.deepEqual(
      lines.filter((l) => l.startsWith("arg ")),
      ["arg wake", "arg --timeline", "arg 0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b"],
    );
    const env = Object.fromEntries(
      lines.filter((l) => !l.startsWith("arg ")).map((
        l,
      ) => [l.split("=")[0], l.slice(l.indexOf("=") + 1)]),
    );
    // Everything the runner gave, unchanged, and the script name; nothing else of ours.
    for (
      const [name, value] of Object.entries({ ...login, AI_PROVIDER: "xai", AI_MODEL: "grok-4" })
    ) {
      assert.equal(env[name], value, name);
    }
    assert.equal(env.BASECRADLE_DELIVERY_ID, "d-1");
    assert.equal(env.HARNESS_SCRIPT_NAME, "basecradle-harness-wake");
    const added = Object.keys(env).filter(
      (name) =>
        !(name in login) && !["AI_PROVIDER", "AI_MODEL", "BASECRADLE_DELIVERY_ID"].includes(name),
    );
    assert.deepEqual(added.filter((name) => !["PWD", "SHLVL", "_"].includes(name)), [
      "HARNESS_SCRIPT_NAME",
    ]);

    // HARNESS_BIN at wake time (from agent.env) still wins, as for the deploy/bin wrappers.
    const other = `${home}/other`;
    await Deno.writeTextFile(other, '#!/bin/sh\necho other "$@"\n', { mode: 0o755 });
    const overridden = await asWakeRunner(wakeBin, "t", `HARNESS_BIN=${other}\n`, "d-2", login);
    assert.equal(overridden.stdout, "other wake --timeline t\n");

    // The exit code is the harness's.
    await Deno.writeTextFile(recorder, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    assert.equal((await asWakeRunner(wakeBin, "t", "", "d-3", login)).code, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a real wake through the wrapper, as the router runs it, answers and labels its failure", async () => {
  await using w = await world();
  const wakeBin = `${w.home}/.local/bin/basecradle-harness-wake`;
  // From source (no HARNESS_BIN): the wrapper runs this repository's harness under -P=harness.
  const installed = await runCli(["install", "--wake-bin", wakeBin], { env: w.env });
  assert.equal(installed.code, 0, installed.stderr);
  const agentEnv = Object.entries(w.env).map(([k, v]) => `export ${k}="${v}"`).join("\n");
  const login = { HOME: w.home, USER: "ada", PATH: "/usr/bin:/bin", DENO_DIR, NO_COLOR: "1" };

  await say(w, "are you there?");
  scriptReply(w.model, "here, through the wrapper");
  const answered = await asWakeRunner(wakeBin, w.timeline, agentEnv, "d-10", login);
  assert.equal(answered.code, 0, answered.stderr);
  assert.deepEqual(await agentPosts(w), ["here, through the wrapper"]);
  assert.match(answered.stderr, /INFO wake end timeline=\S+ outcome=ok turns=1 .* delivery=d-10/);

  // A refused configuration: exit 1, and the one stderr line speaks the Python script's name.
  const broken = `${agentEnv}\nHARNESS_MAX_STEPS=0\n`;
  const failed = await asWakeRunner(wakeBin, w.timeline, broken, "d-11", login);
  assert.equal(failed.code, 1);
  assert.match(
    failed.stderr,
    /^ERROR basecradle-harness-wake: HARNESS_MAX_STEPS must be an integer from 1 to 1000/m,
  );
});

Deno.test("over the Python harness's console script: kept as .prev, re-install idempotent, a taken .prev refuses", async () => {
  const home = await Deno.makeTempDir({ prefix: "wake-bin-venv-" });
  try {
    const venvScript = `${home}/venv/bin/basecradle-harness-wake`;
    await Deno.mkdir(`${home}/venv/bin`, { recursive: true });
    const python = "#!/home/ada/venv/bin/python\n# the Python console script\n";
    await Deno.writeTextFile(venvScript, python, { mode: 0o755 });
    const env = { HOME: home, USER: "ada", HARNESS_BIN: "/usr/local/bin/harness" };
    const args = ["install", "--config-home", `${home}/config`, "--wake-bin", venvScript];

    const first = await runCli(args, { env });
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      new RegExp(`^  kept the file it replaced as ${venvScript}\\.prev$`, "m"),
    );
    assert.equal(await Deno.readTextFile(`${venvScript}.prev`), python);
    assert.match(
      await Deno.readTextFile(venvScript),
      /exec \/usr\/local\/bin\/harness wake "\$@"\n$/,
    );

    // Again: the wrapper is ours, so it is rewritten in place and .prev is left alone.
    const again = await runCli(args, { env });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stdout, /kept the file/);
    assert.equal(await Deno.readTextFile(`${venvScript}.prev`), python);

    // A foreign file again, with .prev taken: nothing is lost, the run fails naming both.
    await Deno.writeTextFile(venvScript, "#!/bin/sh\necho someone else's\n");
    const refused = await runCli(args, { env });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is not a wake wrapper of ours and .*\.prev is taken/);
    assert.equal(await Deno.readTextFile(venvScript), "#!/bin/sh\necho someone else's\n");

    const relative = await runCli([...args.slice(0, 3), "--wake-bin", "bin/wake"], { env });
    assert.equal(relative.code, 1);
    assert.match(relative.stderr, /--wake-bin bin\/wake is not an absolute path/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the router's rule: a wake_bin must resolve inside /home/<os_user>/", () => {
  assert.equal(wakeRunnerRefusal("/home/ada/.local/bin/basecradle-harness-wake", "ada"), undefined);
  assert.equal(wakeRunnerRefusal("/home/ada/venv/bin/basecradle-harness-wake", "ada"), undefined);
  assert.match(
    wakeRunnerRefusal("/usr/local/bin/basecradle-harness-wake", "ada")!,
    /outside \/home\/ada\//,
  );
  assert.match(wakeRunnerRefusal("/home/adam/x", "ada")!, /outside \/home\/ada\//);
  assert.match(wakeRunnerRefusal("/home/ada/x", undefined)!, /no OS user is named/);
});
