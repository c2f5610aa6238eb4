/**
 * The shell tool's run path, each call in its own `deno run` process with run permission
 * (tests/tools/fixtures/shell_child.ts). The child injects a non-root euid: this machine runs as
 * root, where the real backstop refuses every call (shell_policy.test.ts covers that refusal).
 */
import assert from "node:assert/strict";
import { waitFor } from "../support/wait_for.ts";
import { processAlive, processCount, runChild, WITH_RUN } from "./fixtures/shell_support.ts";

async function shell(call: Record<string, unknown>, options: Record<string, unknown> = {}) {
  return (await runChild(WITH_RUN, { call, options, direct: true })).result;
}

Deno.test("shell: echo works and reports the exit code", async () => {
  assert.equal(await shell({ command: "echo hello" }), "hello\n[exit code: 0]");
  assert.equal(await shell({ command: "echo nope; exit 3" }), "nope\n[exit code: 3]");
});

Deno.test("shell: stderr is merged into stdout in order", async () => {
  assert.equal(
    await shell({ command: "echo one; echo two >&2; echo three" }),
    "one\ntwo\nthree\n[exit code: 0]",
  );
});

Deno.test("shell: empty output reads (no output); a signal death is -N", async () => {
  assert.equal(await shell({ command: "true" }), "(no output)\n[exit code: 0]");
  assert.equal(await shell({ command: "kill -9 $$" }), "(no output)\n[exit code: -9]");
});

Deno.test("shell: no TTY and stdin is closed, so a reader of stdin ends at once", async () => {
  assert.equal(await shell({ command: "cat; tty", timeout: 5 }), "not a tty\n[exit code: 1]");
});

Deno.test("shell: a fresh login shell in the working directory asked for", async () => {
  assert.equal(
    await shell({ command: "pwd; shopt -q login_shell && echo login", workdir: "/tmp" }),
    "/tmp\nlogin\n[exit code: 0]",
  );
  assert.equal(
    await shell({ command: "pwd", workdir: "/definitely/not/here" }),
    "Error: workdir '/definitely/not/here' is not a directory.",
  );
  assert.equal(await shell({ command: "   " }), "Error: 'shell' needs a 'command' to run.");
});

Deno.test("shell: output over 30,000 characters is truncated with the footer", async () => {
  // 40,000 characters, then exit: the command finishes, so the tail is cut, not killed.
  const result = await shell({ command: "head -c 40000 /dev/zero | tr '\\0' a; exit 4" });
  const [body, ...footer] = result.split("\n");
  assert.equal(body, "a".repeat(30_000));
  assert.deepEqual(footer, ["[output truncated at 30000 characters]", "[exit code: 4]"]);
});

Deno.test("shell: a producer that never stops is killed at the cap", async () => {
  const result = await shell({ command: "yes", timeout: 30 });
  assert.match(result, /^y\ny\n/);
  assert.ok(result.endsWith("\n[killed: output exceeded the 30000-character limit]"), result);
  assert.ok(result.length <= 30_000 + 60);
});

Deno.test("shell: a command past its timeout is killed with its whole process group", async () => {
  // A unique duration marks this test's sleeps, so pgrep finds only them. They would run for two
  // minutes: the call ending long before that is the timeout's doing.
  const marker = `120.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
  const sleeps = `^([^ ]*/)?sleep ${marker}$`; // the sleeps themselves, not the shells around them
  // Control: pgrep does see such a process while it runs (so the final check can fail).
  const probe = new Deno.Command("sleep", { args: [marker] }).spawn();
  await waitFor("pgrep to see the probe sleep", async () => await processCount(sleeps) === 1);
  probe.kill("SIGKILL");
  await probe.status;
  await waitFor("the probe sleep to be gone", async () => await processCount(sleeps) === 0);

  // The deadline is generous so that a login shell on a loaded machine has echoed and started
  // both sleeps well before it; the test checks that they had, rather than assuming it.
  const call = runChild(WITH_RUN, {
    call: { command: `echo started; sh -c 'sleep ${marker} & sleep ${marker}'`, timeout: 5 },
  });
  let settled = false;
  call.finally(() => settled = true).catch(() => {});
  let seen = 0;
  while (!settled && seen < 2) {
    seen = Math.max(seen, await processCount(sleeps));
    if (seen < 2) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { result, elapsedMs } = await call;
  assert.equal(seen, 2, "both sleeps of the group were running before the deadline");
  assert.equal(result, "started\n[timed out after 5s and was killed]");
  assert.ok(elapsedMs < 60_000, `the timeout bounded the call (${elapsedMs} ms)`);
  // SIGKILL is delivered at once but acted on when the process next runs: on a loaded machine a
  // killed sleep may show for a moment. One the kill missed would stay for two minutes.
  await waitFor("every sleep of the group to be gone", async () => !await processAlive(marker));
});

Deno.test("shell: a plain sleep past its timeout is killed at the deadline, not after the sleep", async () => {
  // Timed inside the child (its own start-up excluded); the sleep would take two minutes.
  const { result, elapsedMs } = await runChild(WITH_RUN, {
    call: { command: "sleep 120", timeout: 1 },
  });
  assert.equal(result, "(no output)\n[timed out after 1s and was killed]");
  assert.ok(elapsedMs >= 1_000, `not before the deadline (${elapsedMs} ms)`);
  assert.ok(elapsedMs < 60_000, `killed at the deadline, not after the sleep (${elapsedMs} ms)`);
});

Deno.test("shell: timeout is clamped into [1, max]", async () => {
  // maxTimeout 1 clamps a request of 600 down: the sleep is killed after 1 s.
  assert.equal(
    await shell({ command: "sleep 3", timeout: 600 }, { maxTimeout: 1 }),
    "(no output)\n[timed out after 1s and was killed]",
  );
  assert.equal(
    await shell({ command: "sleep 2", timeout: 0 }, { maxTimeout: 1 }),
    "(no output)\n[timed out after 1s and was killed]",
  );
});

Deno.test("shell: the agent's bin dirs are on PATH even when the profile assigns PATH", async () => {
  const home = await Deno.makeTempDir();
  const bin = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${bin}/bc-probe-tool`, "#!/bin/sh\necho probe-ran\n", {
      mode: 0o755,
    });
    // A login profile that throws the inherited PATH away, as Debian's /etc/profile does.
    await Deno.writeTextFile(`${home}/.bash_profile`, "PATH=/usr/bin:/bin\n");
    const env = { HOME: home, PATH: "/usr/bin:/bin" };
    const call = { command: "bc-probe-tool" };
    const withBin = await runChild(WITH_RUN, { call, options: { binDirs: [bin] } }, env);
    assert.equal(withBin.result, "probe-ran\n[exit code: 0]");
    // Control: without the prelude the profile wins and the tool is not found.
    const without = await runChild(WITH_RUN, { call, options: { binDirs: [] } }, env);
    assert.match(without.result, /bc-probe-tool: command not found\n\[exit code: 127\]$/);
    // The default workdir is HOME.
    const pwd = await runChild(WITH_RUN, { call: { command: "pwd" } }, env);
    assert.equal(pwd.result, `${home}\n[exit code: 0]`);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(bin, { recursive: true });
  }
});

Deno.test("shell: by default an agent's ~/.local/bin and ~/venv/bin tools run by bare name", async () => {
  const home = await Deno.makeTempDir();
  try {
    for (const [dir, name] of [[".local/bin", "bc-local-tool"], ["venv/bin", "bc-venv-tool"]]) {
      await Deno.mkdir(`${home}/${dir}`, { recursive: true });
      await Deno.writeTextFile(`${home}/${dir}/${name}`, `#!/bin/sh\necho ${name}-ran\n`, {
        mode: 0o755,
      });
    }
    await Deno.writeTextFile(`${home}/.bash_profile`, "PATH=/usr/bin:/bin\n");
    const env = { HOME: home, PATH: "/usr/bin:/bin" };
    const call = { command: 'bc-local-tool; bc-venv-tool; echo "$PATH"' };
    const { result } = await runChild(WITH_RUN, { call }, env);
    const [local, venv, path] = result.split("\n");
    assert.deepEqual([local, venv], ["bc-local-tool-ran", "bc-venv-tool-ran"]);
    // In the documented order, in front of what the profile set.
    const entries = path.split(":");
    assert.ok(
      entries.indexOf(`${home}/.local/bin`) < entries.indexOf(`${home}/venv/bin`) &&
        entries.indexOf(`${home}/venv/bin`) < entries.indexOf("/usr/bin"),
      path,
    );
    assert.ok(!entries.includes(`${home}/bin`), "a dir that does not exist is not added");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
