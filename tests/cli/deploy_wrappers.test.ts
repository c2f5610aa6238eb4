import assert from "node:assert/strict";
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";
import { VERSION } from "../../lib/base/version.ts";

const WRAPPERS = {
  "basecradle-harness-wake": "wake",
  "basecradle-harness-install": "install",
  "basecradle-harness-cleanup": "cleanup",
  "basecradle-harness-resolve": "resolve",
  "basecradle-harness-verify": "verify",
  "basecradle-harness-claims": "claims",
  "basecradle-harness-log-grammar": "log-grammar",
};

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const DENO_NOTICE = /^.*Permissions in the config file is an experimental feature.*\n?/gm;

Deno.test("deploy/bin holds exactly the Python console-script names", async () => {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${REPO_ROOT}deploy/bin`)) names.push(entry.name);
  assert.deepEqual(names.sort(), Object.keys(WRAPPERS).sort());
});

Deno.test("each compatibility wrapper execs `harness <command>` with its arguments unchanged", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrappers-" });
  try {
    // A stand-in harness that prints its script name and the argv it received, one per line.
    const fake = `${dir}/harness`;
    await Deno.writeTextFile(
      fake,
      '#!/bin/sh\nprintf "%s\\n" "$HARNESS_SCRIPT_NAME"\nfor a in "$@"; do printf "%s\\n" "$a"; done\n',
    );
    await Deno.chmod(fake, 0o755);
    for (const [wrapper, command] of Object.entries(WRAPPERS)) {
      const output = await new Deno.Command(`${REPO_ROOT}deploy/bin/${wrapper}`, {
        args: ["--timeline", "a b", "--flag"],
        env: { HARNESS_BIN: fake },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(output.code, 0, wrapper);
      assert.equal(decode(output.stdout), `${wrapper}\n${command}\n--timeline\na b\n--flag\n`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a wrapper passes the harness exit code through", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrappers-" });
  try {
    const fake = `${dir}/harness`;
    await Deno.writeTextFile(fake, "#!/bin/sh\nexit 2\n");
    await Deno.chmod(fake, 0o755);
    const output = await new Deno.Command(`${REPO_ROOT}deploy/bin/basecradle-harness-wake`, {
      env: { HARNESS_BIN: fake },
    }).output();
    assert.equal(output.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs a wrapper against the real harness (from source, production permissions). */
async function runWrapper(
  dir: string,
  wrapper: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const real = `${dir}/harness`;
  await Deno.writeTextFile(
    real,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -P=harness --quiet '${REPO_ROOT}main.ts' "$@"\n`,
  );
  await Deno.chmod(real, 0o755);
  const output = await new Deno.Command(`${REPO_ROOT}deploy/bin/${wrapper}`, {
    args,
    env: { HARNESS_BIN: real, NO_COLOR: "1", DENO_DIR, ...env },
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: decode(output.stdout),
    stderr: decode(output.stderr).replace(DENO_NOTICE, ""),
  };
}

Deno.test("every wrapper answers --version with the Python script's line shape", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrappers-real-" });
  try {
    for (const wrapper of Object.keys(WRAPPERS)) {
      const result = await runWrapper(dir, wrapper, ["--version"], { AI_SDK: "openai" });
      assert.equal(result.code, 0, `${wrapper}: ${result.stderr}`);
      const expected = wrapper === "basecradle-harness-cleanup"
        ? new RegExp(`^${wrapper} ${VERSION.replaceAll(".", "\\.")}\\n$`)
        : new RegExp(
          `^${wrapper} ${VERSION.replaceAll(".", "\\.")} · openai SDK \\d+\\.\\d+\\.\\d+\\n$`,
        );
      assert.match(result.stdout, expected, wrapper);
    }
    const missing = await runWrapper(dir, "basecradle-harness-wake", ["--version"], {
      AI_SDK: "langchain",
    });
    assert.equal(
      missing.stdout,
      `basecradle-harness-wake ${VERSION} · langchain SDK not installed\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wrappers run verify, claims and log-grammar under their Python names", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrappers-real-" });
  try {
    const home = `${dir}/config`;
    const env = { BASECRADLE_CONFIG_HOME: home, BASECRADLE_AGENT_SLUG: "ada", AI_PROVIDER: "" };
    const red = await runWrapper(dir, "basecradle-harness-verify", [], env);
    assert.equal(red.code, 1);
    assert.equal(red.stdout, "");
    assert.match(
      red.stderr,
      new RegExp(
        `^basecradle-harness-verify: FAILED — 1 finding\\(s\\)\\. Config home: ${home}\\n` +
          "  \\[config-home-not-installed\\] config home: ",
      ),
    );

    const installed = await runWrapper(dir, "basecradle-harness-install", [], env);
    assert.equal(installed.code, 0, installed.stderr);
    const green = await runWrapper(dir, "basecradle-harness-verify", [], env);
    assert.equal(green.code, 0, green.stderr);
    assert.match(
      green.stdout,
      new RegExp(`^basecradle-harness-verify: OK — harness ${VERSION.replaceAll(".", "\\.")}, `),
    );

    const claims = await runWrapper(dir, "basecradle-harness-claims", [], env);
    assert.equal(claims.code, 0, claims.stderr);
    const emitted = await runWrapper(dir, "basecradle-harness-verify", ["--emit-claims"], env);
    assert.equal(emitted.stdout, claims.stdout, "the two emitters print the same bytes");
    assert.equal(JSON.parse(claims.stdout).subject, "agent:ada");
    const extra = await runWrapper(dir, "basecradle-harness-claims", ["--subject", "x"], env);
    assert.equal(extra.code, 2, "claims takes no arguments");

    const probe = await runWrapper(dir, "basecradle-harness-log-grammar", [], env);
    assert.equal(probe.code, 75);
    assert.equal(
      probe.stderr,
      "UNPROVABLE: usage: basecradle-harness-log-grammar <billing_blocked>\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a wrapper's errors and usage errors name its script", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrappers-real-" });
  try {
    const wake = await runWrapper(
      dir,
      "basecradle-harness-wake",
      ["--timeline", "0190d5a4-0000-7000-8000-000000000001"],
      { HARNESS_HOME: "" },
    );
    assert.equal(wake.code, 1);
    // A failed wake's line carries its level first, like every journal line.
    assert.match(wake.stderr, /^ERROR basecradle-harness-wake: /m);
    const resolve = await runWrapper(dir, "basecradle-harness-resolve", ["--opt-in", "shel"]);
    assert.equal(resolve.code, 1);
    assert.match(
      resolve.stderr,
      /^basecradle-harness-resolve: No shipped tool plugin is named: shel\./,
    );
    const usage = await runWrapper(dir, "basecradle-harness-install", ["--opt-n", "x"]);
    assert.equal(usage.code, 2);
    assert.equal(
      usage.stderr,
      "basecradle-harness-install: unknown option '--opt-n'. Did you mean '--opt-in'? " +
        "Run 'basecradle-harness-install --help' for usage.\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
