/**
 * The shipped systemd service is hardened (docs/operating.md#what-the-units-sandbox-allows):
 * `systemd-analyze security` rates it 4.0 or lower, `systemd-analyze verify` knows every
 * directive, and it keeps what the harness needs — the agent's home writable, the network, a JIT
 * (no MemoryDenyWriteExecute). The sweep itself runs with /proc as ProcSubset=pid and
 * ProtectProc=invisible leave it. Each systemd or namespace step is skipped, saying why, where
 * this machine cannot run it.
 */
import assert from "node:assert/strict";
import { withContract } from "../contract/helpers.ts";
import { put, tree, withHome } from "../home/helpers.ts";
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";

const UNIT = `${REPO_ROOT}deploy/systemd/basecradle-harness-cleanup@.service`;
const text = await Deno.readTextFile(UNIT);

async function run(program: string, args: string[], env: Record<string, string> = {}) {
  try {
    const output = await new Deno.Command(program, {
      args,
      env: { SYSTEMD_COLORS: "0", NO_COLOR: "1", ...env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: output.code, out: decode(output.stdout) + decode(output.stderr) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

const analyze = await run("systemd-analyze", ["--version"]);

/** The unit's `[Service]` settings, last assignment of each key. */
function settings(unit: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of unit.split("\n")) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) out.set(match[1], match[2]);
  }
  return out;
}

Deno.test("the unit keeps what the harness needs: its home writable, the network, a JIT", () => {
  const set = settings(text);
  assert.equal(set.get("User"), "%i");
  assert.equal(set.get("ProtectSystem"), "strict");
  assert.equal(set.get("ReadWritePaths"), "/home/%i");
  assert.equal(set.get("BindPaths"), "/home/%i", "ProtectHome=tmpfs hides it otherwise");
  assert.ok(!set.has("PrivateNetwork") && !set.has("IPAddressDeny"), "the sweep needs the network");
  assert.match(set.get("RestrictAddressFamilies") ?? "", /\bAF_INET\b.*\bAF_INET6\b/);
  // V8 compiles JavaScript to machine code in memory it writes and then executes.
  assert.ok(!set.has("MemoryDenyWriteExecute"), "MemoryDenyWriteExecute kills the JIT");
  assert.ok(!set.has("SystemCallFilter"));
});

Deno.test({
  name: analyze
    ? "systemd-analyze security rates the service 4.0 or lower, and verify knows every directive"
    : "systemd-analyze security (skipped: systemd-analyze is not installed; apt-get install systemd)",
  ignore: analyze === undefined,
  async fn() {
    const security = await run("systemd-analyze", ["security", "--offline=true", UNIT]);
    assert.ok(security);
    assert.equal(security.code, 0, security.out);
    const match = /Overall exposure level for \S+: (\d+\.\d) (\w+)/.exec(security.out);
    assert.ok(match, security.out);
    const score = Number(match[1]);
    assert.ok(score <= 4.0, `exposure ${score} ${match[2]} is above 4.0:\n${security.out}`);

    // The only complaint verify may have offline is the binary this machine does not have.
    const verify = await run("systemd-analyze", ["verify", UNIT]);
    assert.ok(verify);
    const complaints = verify.out.split("\n").filter((line) =>
      line.trim() !== "" && !/Command \/usr\/local\/bin\/harness is not executable/.test(line)
    );
    assert.deepEqual(complaints, []);
  },
});

/** Whether this process may make a mount and pid namespace (root, with unshare installed). */
async function canUnshare(): Promise<boolean> {
  const probe = await run("unshare", ["-m", "-p", "-f", "--propagation", "private", "true"]);
  return probe?.code === 0;
}

const unshare = await canUnshare();

Deno.test({
  name: unshare
    ? "the sweep runs with /proc as ProcSubset=pid and ProtectProc=invisible leave it"
    : "the sweep under the unit's /proc (skipped: making a mount namespace needs root and unshare)",
  ignore: !unshare,
  fn: () =>
    withContract((c) =>
      withHome(async (home) => {
        const bot = await c.user("bot", { kind: "ai" });
        const gone = (await bot.client.timelines.create({ name: "Gone" })).timeline.uuid;
        await bot.client.timelines.delete(gone);
        await put(home, `marks/${gone}.txt`, "m");
        // A fresh /proc holding only this namespace's processes and none of the system files.
        const script = "mount -t proc -o subset=pid,hidepid=invisible proc /proc && " +
          'test ! -e /proc/meminfo && exec "$@"';
        const result = await run("unshare", [
          "-m",
          "-p",
          "-f",
          "--propagation",
          "private",
          "sh",
          "-c",
          script,
          "sh",
          Deno.execPath(),
          "run",
          "-P=harness",
          "--quiet",
          "--config",
          `${REPO_ROOT}deno.json`,
          `${REPO_ROOT}main.ts`,
          "cleanup",
          "--sweep",
        ], {
          DENO_DIR,
          HOME: home,
          HARNESS_HOME: home,
          BASECRADLE_BASE_URL: c.baseUrl,
          BASECRADLE_TOKEN: bot.token,
        });
        assert.ok(result);
        assert.equal(result.code, 0, result.out);
        assert.match(result.out, /purged artifacts for deleted timeline/);
        assert.deepEqual(await tree(home), ["marks/"]); // emptied folders stay
      })
    ),
});
