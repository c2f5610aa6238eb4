/**
 * `harness cleanup` as a process (docs/operating.md#clean-up-deleted-timelines): usage errors exit
 * 2, a missing HARNESS_HOME or missing credentials exit 1 with one sentence and no stack trace,
 * `--timeline` purges with no platform call, `--sweep` classifies against the real sandbox and ends
 * with the summary line — and a credential the platform refuses (a revoked token, a wrong
 * password) is named with its status, exits 1 and purges nothing.
 */
import assert from "node:assert/strict";
import { withContract } from "../contract/helpers.ts";
import { runCli } from "../support/run_cli.ts";
import { put, tree, withHome } from "../home/helpers.ts";
import { VERSION } from "../../lib/base/version.ts";

const TL = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b";
/** Blank values stop the parent's environment leaking into the child. */
const CLEAN = {
  HARNESS_HOME: "",
  BASECRADLE_TOKEN: "",
  BASECRADLE_EMAIL: "",
  BASECRADLE_PASSWORD: "",
};

Deno.test("cleanup: neither --sweep nor --timeline is a usage error (exit 2)", async () => {
  const r = await runCli(["cleanup"], { env: CLEAN });
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    "harness cleanup: one of --sweep, --records or --timeline <uuid> is required. " +
      "Run 'harness cleanup --help' for usage.\n",
  );
  assert.equal(r.stdout, "");
  const unknown = await runCli(["cleanup", "--sweeep"], { env: CLEAN });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown option '--sweeep'\. Did you mean '--sweep'\?/);
});

Deno.test("cleanup: --help on stdout, --version names the command", async () => {
  const help = await runCli(["cleanup", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /memory\.db/);
  const version = await runCli(["cleanup", "--version"]);
  assert.deepEqual([version.code, version.stdout], [0, `harness cleanup ${VERSION}\n`]);
});

Deno.test("cleanup: HARNESS_HOME unset is one stderr line and exit 1", async () => {
  const r = await runCli(["cleanup", "--timeline", TL], { env: CLEAN });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^harness cleanup: HARNESS_HOME is not set[^\n]*\n$/);
  assert.equal(r.stdout, "");
});

Deno.test("cleanup --timeline purges that timeline only, no platform call needed", () =>
  withHome(async (home) => {
    await put(home, `sessions/timeline%3A${TL}.json`, "[]");
    await put(home, `marks/${TL}.txt`, "m");
    await put(home, `claims/tasks/${TL}/x.claim`, "");
    await put(home, "marks/other.txt", "m");
    await put(home, "memory.db", "db");
    const r = await runCli(["cleanup", "--timeline", TL], {
      env: { ...CLEAN, HARNESS_HOME: home, BASECRADLE_BASE_URL: "http://127.0.0.1:9" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `INFO cleanup: manually purged 3 artifact path(s) for timeline ${TL}\n`);
    assert.deepEqual(await tree(home), [
      "claims/tasks/",
      "marks/other.txt",
      "memory.db",
      "sessions/",
    ]);
    // Given both flags, --timeline wins (docs/operating.md#clean-up-deleted-timelines) and nothing
    // is asked of the platform.
    const both = await runCli(["cleanup", "--sweep", "--timeline", TL], {
      env: { ...CLEAN, HARNESS_HOME: home },
    });
    assert.equal(both.code, 0, both.stderr);
    assert.equal(
      both.stderr,
      `INFO cleanup: manually purged 0 artifact path(s) for timeline ${TL}\n`,
    );
  }));

Deno.test("cleanup --sweep without credentials fails cleanly (exit 1, no stack trace)", () =>
  withHome(async (home) => {
    const r = await runCli(["cleanup", "--sweep"], { env: { ...CLEAN, HARNESS_HOME: home } });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'ERROR cleanup failed error="--sweep needs platform credentials: set BASECRADLE_TOKEN, or ' +
        'BASECRADLE_EMAIL and BASECRADLE_PASSWORD."\n' +
        "harness cleanup: --sweep needs platform credentials: set BASECRADLE_TOKEN, or " +
        "BASECRADLE_EMAIL and BASECRADLE_PASSWORD.\n",
    );
    const bad = await runCli(["cleanup", "--sweep"], {
      env: { ...CLEAN, HARNESS_HOME: home, BASECRADLE_EMAIL: "not-an-address" },
    });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /\nharness cleanup: BASECRADLE_EMAIL must be an email address\.\n$/);
    assert.doesNotMatch(bad.stderr, /\bat .*\.ts:\d+/);
  }));

Deno.test("cleanup --sweep against the sandbox purges the deleted timeline and exits 0", () =>
  withContract((c) =>
    withHome(async (home) => {
      const bot = await c.user("bot", { kind: "ai" });
      const live = (await bot.client.timelines.create({ name: "Live" })).timeline.uuid;
      const gone = (await bot.client.timelines.create({ name: "Gone" })).timeline.uuid;
      await bot.client.timelines.delete(gone);
      for (const uuid of [live, gone]) await put(home, `marks/${uuid}.txt`, "m");
      const r = await runCli(["cleanup", "--sweep"], {
        env: {
          ...CLEAN,
          HARNESS_HOME: home,
          BASECRADLE_BASE_URL: c.baseUrl,
          BASECRADLE_TOKEN: bot.token,
        },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        r.stderr,
        `INFO cleanup: purged artifacts for deleted timeline ${gone}\n` +
          "INFO cleanup sweep: checked 2 timeline(s) — purged 1, kept 1, kept-forbidden 0, " +
          "skipped-transient 0\n",
      );
      assert.deepEqual(await tree(home), [`marks/${live}.txt`]);
    })
  ));

Deno.test("cleanup --sweep with the platform unreachable exits 1 and says why", () =>
  withHome(async (home) => {
    // A port that was just free: nothing listens there, so every connection is refused.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const { port } = listener.addr as Deno.NetAddr;
    listener.close();
    await put(home, `marks/${TL}.txt`, "m");
    const r = await runCli(["cleanup", "--sweep"], {
      env: {
        ...CLEAN,
        HARNESS_HOME: home,
        BASECRADLE_BASE_URL: `http://127.0.0.1:${port}`,
        BASECRADLE_TOKEN: "tok-unreachable",
      },
    });
    assert.equal(r.code, 1, r.stderr);
    const reason = "--sweep could not check the timelines: the platform could not be reached " +
      `(GET /timelines/{uuid} to http://127.0.0.1:${port} failed: the connection was refused.); ` +
      "1 timeline(s) were left for the next sweep. Nothing unconfirmed was purged; check " +
      "BASECRADLE_BASE_URL and the network, then run it again.";
    const lines = r.stderr.trimEnd().split("\n");
    assert.deepEqual(lines.slice(0, 2), [
      `WARNING cleanup: skipped timeline ${TL} this run (transient error)`,
      "INFO cleanup sweep: checked 1 timeline(s) — purged 0, kept 0, kept-forbidden 0, " +
      "skipped-transient 1",
    ]);
    assert.match(lines[2], /^ERROR cleanup failed error="--sweep could not check the timelines/);
    assert.equal(lines[3], `harness cleanup: ${reason}`);
    assert.equal(lines.length, 4);
    assert.deepEqual(await tree(home), [`marks/${TL}.txt`]);
  }));

Deno.test("cleanup --sweep with a revoked token names the 401, exits 1 and purges nothing", () =>
  withContract((c) =>
    withHome(async (home) => {
      const bot = await c.user("bot", { kind: "ai" });
      const uuids: string[] = [];
      for (const name of ["Gone", "Also gone"]) {
        const uuid = (await bot.client.timelines.create({ name })).timeline.uuid;
        await bot.client.timelines.delete(uuid);
        uuids.push(uuid);
        await put(home, `marks/${uuid}.txt`, "m");
      }
      await bot.client.session.signOut();
      const r = await runCli(["cleanup", "--sweep"], {
        env: {
          ...CLEAN,
          HARNESS_HOME: home,
          BASECRADLE_BASE_URL: c.baseUrl,
          BASECRADLE_TOKEN: bot.token,
        },
      });
      assert.equal(r.code, 1, r.stderr);
      const first = [...uuids].sort()[0];
      const reason = "the platform refused the sweep's credential with HTTP 401 unauthorized " +
        `when asked about timeline ${first}; nothing was purged. Fix: set a valid ` +
        "BASECRADLE_TOKEN (or BASECRADLE_EMAIL and BASECRADLE_PASSWORD) for this agent and run " +
        "the sweep again. (GET /timelines/{uuid} failed with 401 unauthorized: A valid bearer " +
        "token is required for this request.)";
      const [logged, line, rest] = r.stderr.split("\n");
      // The journal bounds a field's length; the status comes first, so it survives the cut.
      assert.ok(logged.startsWith(`ERROR cleanup failed error="${reason.slice(0, 120)}`), logged);
      assert.equal(line, `harness cleanup: ${reason}`);
      assert.equal(rest, "");
      assert.doesNotMatch(r.stderr, /transient/);
      assert.doesNotMatch(r.stderr, new RegExp(bot.token));
      assert.deepEqual(await tree(home), uuids.map((u) => `marks/${u}.txt`).sort());
    })
  ));

Deno.test("cleanup --sweep with a wrong password names the 401 of the sign-in, exits 1", () =>
  withContract((c) =>
    withHome(async (home) => {
      const bot = await c.user("bot", { kind: "ai" });
      const gone = (await bot.client.timelines.create({ name: "Gone" })).timeline.uuid;
      await bot.client.timelines.delete(gone);
      await put(home, `marks/${gone}.txt`, "m");
      const r = await runCli(["cleanup", "--sweep"], {
        env: {
          ...CLEAN,
          HARNESS_HOME: home,
          BASECRADLE_BASE_URL: c.baseUrl,
          BASECRADLE_EMAIL: bot.email,
          BASECRADLE_PASSWORD: "Not-The-Passw0rd!",
        },
      });
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /\nharness cleanup: the platform refused the sweep's credential with HTTP 401 \S+ when asked about timeline /,
      );
      assert.doesNotMatch(r.stderr, /Not-The-Passw0rd!/);
      assert.deepEqual(await tree(home), [`marks/${gone}.txt`]);
    })
  ));
