/**
 * The production permission set lives once, in deno.json `permissions.harness`; every path that
 * runs the harness passes it as explicit flags (deploy/permissions.ts), so Deno prints no
 * "Permissions in the config file is an experimental feature" notice into an operator's terminal
 * or a wake's journal (docs/operating.md#quiet-output).
 */
import assert from "node:assert/strict";
import {
  HARNESS_TASKS,
  harnessTasks,
  permissionFlags,
  shellQuote,
} from "../../deploy/permissions.ts";
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";

const config = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}deno.json`));

async function run(program: string, args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(program, {
    args,
    cwd: REPO_ROOT,
    env: { DENO_DIR, NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

Deno.test("a permission set becomes --allow/--deny flags in Deno's order", () => {
  assert.deepEqual(
    permissionFlags({
      run: true,
      env: ["HOME", "PATH"],
      read: true,
      net: { allow: true, deny: ["169.254.0.0/16", "[::1]"] },
      write: false,
    }),
    [
      "--allow-read",
      "--allow-net",
      "--deny-net=169.254.0.0/16,[::1]",
      "--allow-env=HOME,PATH",
      "--allow-run",
    ],
  );
  assert.throws(() => permissionFlags({ camera: true }), /unknown permission\(s\): camera/);
  assert.equal(shellQuote("--allow-read"), "--allow-read");
  assert.equal(shellQuote("--deny-net=[::1]"), "'--deny-net=[::1]'");
});

Deno.test("the deno.json tasks that run the harness carry exactly permissions.harness", () => {
  const wanted = harnessTasks(config.permissions.harness);
  for (const task of Object.keys(HARNESS_TASKS)) {
    assert.equal(config.tasks[task], wanted[task], `task ${task} has drifted`);
    assert.doesNotMatch(config.tasks[task], /-P\b|--permission-set/);
  }
  // Every entry of the set is in the flags, so the flags cannot quietly drop one.
  const deny = config.permissions.harness.net.deny as string[];
  for (const entry of deny) assert.ok(wanted.harness.includes(entry), entry);
});

Deno.test("deploy/permissions.ts --check agrees, and fails on a drifted task", async () => {
  const ok = await run(Deno.execPath(), ["run", "-A", "deploy/permissions.ts", "--check"]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  const dir = await Deno.makeTempDir({ prefix: "perm-check-" });
  try {
    await Deno.mkdir(`${dir}/deploy`);
    await Deno.copyFile(`${REPO_ROOT}deploy/permissions.ts`, `${dir}/deploy/permissions.ts`);
    const drifted = structuredClone(config);
    drifted.tasks.harness = "deno run -P=harness main.ts";
    await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify(drifted));
    const bad = await run(Deno.execPath(), [
      "run",
      "-A",
      `${dir}/deploy/permissions.ts`,
      "--check",
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /task\(s\) harness differ from permissions\.harness/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task harness, sandbox and demo print no Deno warning, nor the demo's wake", async () => {
  const runs = [["task", "harness", "version"], ["task", "sandbox", "--help"], ["task", "demo"]];
  for (const args of runs) {
    const result = await run(Deno.execPath(), args);
    assert.equal(result.code, 0, result.stderr);
    // The demo relays its wake process's stderr into its stdout: both streams are checked.
    const output = result.stdout + result.stderr;
    assert.doesNotMatch(output, /experimental|Warning|Ignored build scripts/i, args.join(" "));
  }
});
