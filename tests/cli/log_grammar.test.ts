/**
 * `harness log-grammar`: the lines it writes, the native journald datagrams, and its three
 * answers (proven, failed, unprovable) against stand-in `systemd-cat`/`journalctl` programs that
 * keep a journal in a file.
 */
import assert from "node:assert/strict";
import { EX_TEMPFAIL, probeLines, runLogGrammar } from "../../lib/cli/log_grammar.ts";
import { journalDatagram, journalField } from "../../lib/journal/journald.ts";
import { REPO_ROOT, runCli } from "../support/run_cli.ts";

const noColor = (name: string) => name === "NO_COLOR" ? "1" : undefined;
const bytes = (text: string) => new TextEncoder().encode(text);

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

Deno.test("log-grammar: the two billing clauses, stamped source=probe, with no provider", () => {
  assert.deepEqual(probeLines("ada", noColor), [
    "INFO wake reported_failure kind=billing reason=log_grammar_probe source=probe agent=ada",
    "INFO wake billing_blocked reason=log_grammar_probe source=probe agent=ada",
  ]);
  const colored = probeLines("ada", () => undefined);
  assert.equal(
    colored[0],
    "INFO \x1b[31mwake reported_failure\x1b[0m kind=billing reason=log_grammar_probe source=probe agent=ada",
  );
});

Deno.test("journald fields: short form, and the length-prefixed form for a newline", () => {
  assert.deepEqual(journalField("MESSAGE", "INFO x"), bytes("MESSAGE=INFO x\n"));
  assert.deepEqual(
    journalField("MESSAGE", "a\nPRIORITY=0"),
    new Uint8Array([
      ...bytes("MESSAGE\n"),
      ...[12, 0, 0, 0, 0, 0, 0, 0],
      ...bytes("a\nPRIORITY=0"),
      0x0a,
    ]),
  );
  assert.deepEqual(
    journalDatagram("INFO x", "basecradle-log-grammar"),
    bytes("MESSAGE=INFO x\nPRIORITY=6\nSYSLOG_IDENTIFIER=basecradle-log-grammar\n"),
  );
});

/** A stand-in journald: a socket path, and programs that write to / read from a file. */
async function fakeJournal(dir: string, readable: boolean) {
  const socket = `${dir}/journal.socket`;
  await Deno.writeTextFile(socket, "");
  const log = `${dir}/journal.log`;
  const argsFile = `${dir}/systemd-cat.args`;
  const systemdCat = `${dir}/systemd-cat`;
  await Deno.writeTextFile(
    systemdCat,
    `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\ncat >> '${log}'\n`,
  );
  const journalctl = `${dir}/journalctl`;
  await Deno.writeTextFile(
    journalctl,
    readable ? `#!/bin/sh\ncat '${log}'\n` : "#!/bin/sh\nexit 0\n",
  );
  await Deno.chmod(systemdCat, 0o755);
  await Deno.chmod(journalctl, 0o755);
  return { programs: { socket, systemdCat, journalctl }, log, argsFile };
}

Deno.test("log-grammar: written and read back is proven (exit 0)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "log-grammar-" });
  try {
    const fake = await fakeJournal(dir, true);
    const c = capture();
    const code = await runLogGrammar({
      args: ["billing_blocked"],
      agent: "ada",
      env: noColor,
      io: c.io,
      ...fake.programs,
      timeoutMs: 2000,
      intervalMs: 10,
    });
    assert.equal(code, 0, c.err());
    assert.equal(
      c.out(),
      "proven: billing_blocked (2 clause lines) emitted as ada under basecradle-log-grammar\n",
    );
    assert.equal(await Deno.readTextFile(fake.log), probeLines("ada", noColor).join("\n") + "\n");
    assert.equal(
      await Deno.readTextFile(fake.argsFile),
      "--identifier=basecradle-log-grammar\n--priority=info\n--level-prefix=false\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("log-grammar: written but never read back is FAILED (exit 1)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "log-grammar-" });
  try {
    const fake = await fakeJournal(dir, false);
    const c = capture();
    const code = await runLogGrammar({
      args: ["billing_blocked"],
      agent: "ada",
      io: c.io,
      ...fake.programs,
      timeoutMs: 30,
      intervalMs: 10,
    });
    assert.equal(code, 1);
    assert.equal(
      c.err(),
      "FAILED: wrote 2 billing_blocked line(s) under basecradle-log-grammar and could not read " +
        "them back out of the journal\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("log-grammar: could not ask is UNPROVABLE (exit 75)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "log-grammar-" });
  try {
    const fake = await fakeJournal(dir, true);
    const cases: [Parameters<typeof runLogGrammar>[0], string][] = [
      [
        { args: [], agent: "a", ...fake },
        "usage: basecradle-harness-log-grammar <billing_blocked>",
      ],
      [{ args: ["a", "b"], agent: "a", ...fake }, "usage: basecradle-harness-log-grammar"],
      [
        { args: ["tool_cost"], agent: "a", ...fake },
        "unknown column 'tool_cost'; this build exercises billing_blocked",
      ],
      [
        { args: ["billing_blocked"], agent: "a", ...fake.programs, socket: `${dir}/none` },
        `no journald socket at ${dir}/none`,
      ],
      [
        {
          args: ["billing_blocked"],
          agent: "a",
          ...fake.programs,
          journalctl: `${dir}/no-journalctl`,
        },
        `${dir}/no-journalctl is not available on this box`,
      ],
      [
        { args: ["billing_blocked"], agent: "a", ...fake.programs, systemdCat: `${dir}/no-cat` },
        `could not run ${dir}/no-cat`,
      ],
    ];
    for (const [run, reason] of cases) {
      const c = capture();
      assert.equal(
        await runLogGrammar({ ...run, io: c.io, timeoutMs: 30, intervalMs: 10 }),
        EX_TEMPFAIL,
      );
      assert.ok(c.err().startsWith(`UNPROVABLE: ${reason}`), c.err());
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const hasJournal = await Deno.lstat("/run/systemd/journal/socket").then(() => true, () => false);

Deno.test({
  name: "harness log-grammar on this box: no journald socket is exit 75",
  ignore: hasJournal,
  async fn() {
    const result = await runCli(["log-grammar", "billing_blocked"]);
    assert.equal(result.code, 75);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      "UNPROVABLE: no journald socket at /run/systemd/journal/socket\n",
    );
  },
});

Deno.test({
  name: "harness log-grammar on this box: the journal is there, so the lines are proven",
  ignore: !hasJournal,
  async fn() {
    const result = await runCli(["log-grammar", "billing_blocked"], {
      env: { BASECRADLE_AGENT_SLUG: "probe-test" },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^proven: billing_blocked \(2 clause lines\) emitted as probe-test/,
    );
  },
});

Deno.test("with unix datagrams (--unstable-net) the lines go to the socket as native datagrams", async () => {
  const dir = await Deno.makeTempDir({ prefix: "log-grammar-dgram-" });
  try {
    const script = `${dir}/send.ts`;
    await Deno.writeTextFile(
      script,
      `import { sendToJournal } from "${REPO_ROOT}lib/journal/journald.ts";
const journal = Deno.listenDatagram({ transport: "unixpacket", path: "${dir}/journal.sock" });
const how = await sendToJournal(["INFO one", "INFO two"], {
  identifier: "basecradle-log-grammar",
  socket: "${dir}/journal.sock",
});
const got = [];
for (let i = 0; i < 2; i++) got.push(new TextDecoder().decode((await journal.receive())[0]));
journal.close();
console.log(JSON.stringify({ how, got }));
`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--unstable-net", "--quiet", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), {
      how: "datagram",
      got: [
        "MESSAGE=INFO one\nPRIORITY=6\nSYSLOG_IDENTIFIER=basecradle-log-grammar\n",
        "MESSAGE=INFO two\nPRIORITY=6\nSYSLOG_IDENTIFIER=basecradle-log-grammar\n",
      ],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
