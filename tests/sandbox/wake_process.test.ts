/**
 * The one wake spawner (lib/sandbox/wake_process.ts), on real processes: the journal arrives
 * line by line without Deno's permission notice (a last line without its newline too), stdout or
 * the interleaved output is kept when asked, the started process is tracked then forgotten, the
 * environment is the given one alone under `clearEnv`, a broken chunk sink does not stop the
 * drain, and a program that cannot start rejects.
 */
import assert from "node:assert/strict";
import { harnessInvocation, spawnWake } from "../../lib/sandbox/wake_process.ts";

/** `/bin/sh -c script`. */
function sh(script: string) {
  return { program: "/bin/sh", args: ["-c", script] };
}

const NOTICE = "Warning Permissions in the config file is an experimental feature";

Deno.test("the journal arrives as lines without Deno's notice; stdout is kept", async () => {
  const lines: string[] = [];
  const exit = await spawnWake({
    invocation: sh(
      `printf 'out 1\\n' ; printf 'INFO one\\n${NOTICE}\\nINFO tw' >&2; ` +
        `printf 'o\\nERROR last' >&2; printf 'out 2\\n'; exit 3`,
    ),
    env: {},
    onJournalLine: (line) => lines.push(line),
    keep: "stdout",
  });
  assert.equal(exit.code, 3);
  assert.deepEqual(lines, ["INFO one", "INFO two", "ERROR last"]);
  assert.equal(exit.kept, "out 1\nout 2\n");
});

Deno.test("the kept output holds both streams; chunks reach the sink, a throwing sink is ignored", async () => {
  const chunks: string[] = [];
  let calls = 0;
  const exit = await spawnWake({
    invocation: sh("printf 'a\\n'; printf 'b\\n' >&2"),
    env: {},
    onChunk: (chunk) => {
      calls++;
      chunks.push(new TextDecoder().decode(chunk));
      throw new Error("a broken sink");
    },
    keep: "output",
  });
  assert.equal(exit.code, 0);
  assert.ok(calls >= 2);
  assert.deepEqual([...chunks.join("")].sort().join(""), "\n\nab");
  assert.deepEqual([...exit.kept!].sort().join(""), "\n\nab");
});

Deno.test("the started process is tracked, then forgotten once it has exited", async () => {
  const events: string[] = [];
  let tracked: Deno.ChildProcess | undefined;
  const exit = await spawnWake({
    invocation: sh("exit 0"),
    env: {},
    track: (child) => {
      tracked = child;
      events.push("track");
    },
    untrack: (child) => {
      assert.equal(child, tracked);
      events.push("untrack");
    },
  });
  assert.equal(exit.code, 0);
  assert.equal(exit.kept, undefined);
  assert.deepEqual(events, ["track", "untrack"]);
});

Deno.test("a tracked process can be killed by its owner (the router's close)", async () => {
  const exit = await spawnWake({
    invocation: sh("echo started >&2; exec sleep 600"),
    env: {},
    onJournalLine: () => {},
    track: (child) => child.kill("SIGKILL"),
  });
  assert.notEqual(exit.code, 0);
});

Deno.test("clearEnv gives the wake the given environment alone", async () => {
  const lines: string[] = [];
  const program = { program: "/usr/bin/env", args: [] };
  const exit = await spawnWake({
    invocation: program,
    env: { ONLY_THIS: "1" },
    clearEnv: true,
    keep: "stdout",
    onJournalLine: (line) => lines.push(line),
  });
  assert.equal(exit.code, 0);
  assert.equal(exit.kept, "ONLY_THIS=1\n");
  assert.deepEqual(lines, []);
});

Deno.test("a program that cannot start rejects, naming the failure", async () => {
  await assert.rejects(
    spawnWake({ invocation: { program: "/nonexistent/harness", args: [] }, env: {} }),
    Deno.errors.NotFound,
  );
});

Deno.test("from source, `harness wake` runs under the production permission set", () => {
  const { program, args } = harnessInvocation(["wake", "--timeline", "t"]);
  assert.equal(program, Deno.execPath());
  assert.deepEqual(args.slice(0, 2), ["run", "-P=harness"]);
  assert.ok(args.at(-4)?.endsWith("main.ts"));
  assert.deepEqual(args.slice(-3), ["wake", "--timeline", "t"]);
});
