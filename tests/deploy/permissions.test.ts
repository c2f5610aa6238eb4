/**
 * The production permission set lives once, in deno.json `permissions.harness`; the production
 * paths pass it as explicit flags (deploy/permissions.ts) and the tasks name it with `--quiet`, so
 * Deno prints no "Permissions in the config file is an experimental feature" notice into an
 * operator's terminal or a wake's journal, and `deno task` does not echo the deny list
 * (docs/operating.md#quiet-output).
 */
import assert from "node:assert/strict";
import {
  HARNESS_TASKS,
  harnessTaskCommand,
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

Deno.test("the deno.json tasks that run the harness name permissions.harness and run quietly", () => {
  for (const [task, rest] of Object.entries(HARNESS_TASKS)) {
    assert.equal(config.tasks[task].command, harnessTaskCommand(rest), `task ${task}`);
    assert.equal(harnessTaskCommand(rest), `deno run -P=harness --quiet ${rest}`);
  }
});

Deno.test("every task has a description, and `deno task` lists them", async () => {
  const listing = await run(Deno.execPath(), ["task"]);
  assert.equal(listing.code, 0, listing.stderr);
  const output = listing.stdout + listing.stderr;
  for (const [name, task] of Object.entries(config.tasks)) {
    const { description } = task as { description?: string };
    assert.ok(description && description.length > 10, `task ${name} has no description`);
    assert.ok(
      output.includes(`// ${description}`),
      `deno task does not list ${name}'s description`,
    );
  }
});

Deno.test("`deno task harness` echoes a short command line, never the deny list", async () => {
  const result = await run(Deno.execPath(), ["task", "harness", "version"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^harness \S+ · /);
  // deno task's own echo goes to stderr: one short line naming the set, not its entries.
  assert.match(result.stderr, /^Task harness deno run -P=harness --quiet main\.ts 'version'\n$/);
  for (const entry of config.permissions.harness.net.deny as string[]) {
    assert.ok(!(result.stdout + result.stderr).includes(entry), entry);
  }
});

Deno.test("deploy/permissions.ts --print writes the set's flags, one per line", async () => {
  const printed = await run(Deno.execPath(), ["run", "-A", "deploy/permissions.ts", "--print"]);
  assert.equal(printed.code, 0, printed.stderr);
  assert.deepEqual(printed.stdout.trim().split("\n"), permissionFlags(config.permissions.harness));
  const bad = await run(Deno.execPath(), ["run", "-A", "deploy/permissions.ts", "--write"]);
  assert.equal(bad.code, 2);
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
