/**
 * `harness doctor` against real counterparts: the sandbox platform (a good token, then the same
 * token signed out), a local wire mock of the models API spoken to by the real openai SDK (key
 * accepted, 401, an unknown model, no models route), MCP servers (approved over HTTP, approved
 * stdio, unapproved, approved but down, slower than the time limit) and homes that are not
 * writable, hold a stale claim, a billing wall or a tripped breaker, and host_rules.json in force
 * for the network checks as for a wake. The checks run in process
 * for the rows; the exit codes are proven on the real CLI, under the production permission set.
 */
import assert from "node:assert/strict";
import { runDoctor } from "../../lib/cli/doctor.ts";
import { type CheckResult, DoctorReportSchema } from "../../lib/cli/doctor_report.ts";
import { PlatformClient } from "../../lib/platform/mod.ts";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { encodeClaimRecord } from "../../lib/home/claim_record.ts";
import { runCli } from "../support/run_cli.ts";
import { install } from "../../lib/install/installer.ts";
import { ALL_SHIPPED_DEFAULTS } from "../../lib/config/defaults.ts";
import { VERSION } from "../../lib/base/version.ts";
import { startTestHttpServer } from "../mcp/http_server.ts";
import { approveAll, writeServer } from "../mcp/support.ts";
import { installFence } from "../../lib/net/host_fence.ts";

const MINI = new URL("../mcp/fixtures/mini_server.mjs", import.meta.url).pathname;
const TL = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b";
const ITEM = "0197a6b2-1c3d-7e4f-8a9b-00000000000a";

/** How the models wire mock answers. */
type ModelsMode = "good" | "refuse" | "unknown" | "bare" | "silent";

/** A models API on 127.0.0.1: `GET /v1/models/<id>` and `GET /v1/models`, per `mode`. */
function modelsMock(mode: ModelsMode, served = "gpt-test") {
  const seen: string[] = [];
  const hold = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (mode === "silent") await hold.promise; // never answers until closed
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path} ${req.headers.get("authorization") ?? ""}`);
    const json = (status: number, body: unknown) => Response.json(body, { status });
    if (mode === "refuse") {
      return json(401, { error: { message: "Incorrect API key", code: "invalid_api_key" } });
    }
    if (mode === "bare") return new Response("Not Found", { status: 404 });
    const model = { id: served, object: "model", created: 1, owned_by: "test" };
    if (path === "/v1/models") return json(200, { object: "list", data: [model] });
    if (path === `/v1/models/${served}` && mode === "good") return json(200, model);
    return json(404, { error: { message: "no such model", code: null } });
  });
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    seen,
    close: () => {
      hold.resolve();
      return server.shutdown();
    },
  };
}

/** A box: a sandbox user's token, a models mock, an empty HARNESS_HOME and config home. */
async function box(mode: ModelsMode = "good") {
  const sandbox = await Sandbox.start({ port: 0, log: () => {} });
  const models = modelsMock(mode);
  const root = await Deno.makeTempDir({ prefix: "doctor-" });
  await Deno.mkdir(`${root}/home`);
  await Deno.mkdir(`${root}/config/mcp`, { recursive: true });
  const agent = sandbox.createUser({ handle: "ada", name: "Ada", kind: "ai" });
  const env: Record<string, string> = {
    HARNESS_HOME: `${root}/home`,
    BASECRADLE_CONFIG_HOME: `${root}/config`,
    BASECRADLE_BASE_URL: sandbox.baseUrl,
    BASECRADLE_TOKEN: agent.token,
    AI_PROVIDER: "openai",
    AI_SDK: "openai",
    AI_BASE_URL: models.baseURL,
    AI_MODEL: "gpt-test",
    AI_API_KEY: "sk-test-doctor",
    HOME: root,
  };
  return {
    sandbox,
    models,
    root,
    env,
    token: agent.token,
    async [Symbol.asyncDispose]() {
      await models.close();
      await sandbox.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

/** Runs the checks in process and returns the parsed report. */
async function doctor(env: Record<string, string>, timeoutMs = 10_000) {
  const out: string[] = [];
  const code = await runDoctor({
    env,
    json: true,
    timeoutMs,
    io: { stdout: (t) => out.push(t), stderr: (t) => out.push(t) },
  });
  const report = DoctorReportSchema.parse(JSON.parse(out.join("")));
  const row = (name: string): CheckResult => {
    const found = report.checks.filter((c) => c.name === name);
    assert.equal(found.length, 1, `one '${name}' row in ${JSON.stringify(report.checks)}`);
    return found[0];
  };
  return { code, report, row };
}

Deno.test({
  name: "doctor: a good token is OK; the same token signed out is a FAIL naming it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using b = await box();
    let r = await doctor(b.env);
    assert.equal(r.row("platform").status, "OK");
    assert.match(r.row("platform").detail, /BASECRADLE_TOKEN is accepted .*signed in as @ada/);
    await new PlatformClient({ baseUrl: b.sandbox.baseUrl, token: b.token }).session.signOut();
    r = await doctor(b.env);
    const platform = r.row("platform");
    assert.equal(platform.status, "FAIL");
    assert.match(platform.detail, /refused BASECRADLE_TOKEN \(HTTP 401\)/);
    assert.match(platform.fix ?? "", /BASECRADLE_TOKEN/);
    assert.equal(r.code, 1);
  },
});

Deno.test({
  name:
    "doctor: an email and password are proven by minting; a wrong one, a suspended account fail",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using b = await box();
    b.sandbox.createUser({
      handle: "eve",
      name: "Eve",
      kind: "ai",
      email: "eve@example.test",
      password: "correct horse",
    });
    b.sandbox.createUser({
      handle: "sus",
      name: "Sus",
      kind: "ai",
      email: "sus@example.test",
      password: "pw",
      suspended: true,
    });
    const login = (email: string, password: string) => ({
      ...b.env,
      BASECRADLE_TOKEN: "",
      BASECRADLE_EMAIL: email,
      BASECRADLE_PASSWORD: password,
    });
    let platform = (await doctor(login("eve@example.test", "correct horse"))).row("platform");
    assert.equal(platform.status, "OK");
    assert.match(platform.detail, /BASECRADLE_EMAIL and BASECRADLE_PASSWORD are accepted .*@eve$/);
    platform = (await doctor(login("eve@example.test", "wrong"))).row("platform");
    assert.equal(platform.status, "FAIL");
    assert.match(platform.detail, /refused BASECRADLE_EMAIL and BASECRADLE_PASSWORD \(HTTP 401\)/);
    platform = (await doctor(login("sus@example.test", "pw"))).row("platform");
    assert.equal(platform.status, "FAIL", JSON.stringify(platform));
    assert.match(platform.detail, /refused the account \(HTTP 403 account_suspended\)$/);
  },
});

Deno.test({
  name:
    "doctor: the model endpoint through the openai SDK — accepted, 401, unknown model, no route",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    {
      await using b = await box("good");
      const model = (await doctor(b.env)).row("model");
      assert.deepEqual([model.status, model.fix], ["OK", null]);
      assert.match(model.detail, /accepted the key and knows 'gpt-test'/);
      assert.ok(b.models.seen.includes("GET /v1/models/gpt-test Bearer sk-test-doctor"));
    }
    {
      await using b = await box("refuse");
      const model = (await doctor(b.env)).row("model");
      assert.equal(model.status, "FAIL");
      assert.match(model.detail, /refused the key with HTTP 401/);
      assert.match(model.fix ?? "", /AI_API_KEY/);
    }
    {
      await using b = await box("unknown");
      const model = (await doctor({ ...b.env, AI_MODEL: "gpt-nope" })).row("model");
      assert.equal(model.status, "FAIL");
      assert.match(model.detail, /does not list a model 'gpt-nope'/);
      assert.match(model.fix ?? "", /AI_MODEL/);
      // Retrieve 404s by name, and the list is what says the model is unknown.
      assert.deepEqual(b.models.seen.map((s) => s.split(" ").slice(0, 2).join(" ")), [
        "GET /v1/models/gpt-nope",
        "GET /v1/models",
      ]);
    }
    {
      await using b = await box("bare");
      const model = (await doctor(b.env)).row("model");
      assert.equal(model.status, "WARN");
      assert.match(model.detail, /cannot confirm .*no models route/);
    }
    {
      // An endpoint that never answers is a FAIL within the time limit, not a hang.
      await using b = await box("silent");
      const model = (await doctor(b.env, 500)).row("model");
      assert.equal(model.status, "FAIL");
      assert.match(model.detail, /did not (answer|finish within 0\.5 s)/);
    }
    {
      await using b = await box("good");
      const model = (await doctor({ ...b.env, AI_MODEL: "" })).row("model");
      assert.deepEqual([model.status, model.detail], ["FAIL", "AI_MODEL is not set"]);
    }
  },
});

Deno.test({
  name: "doctor: MCP servers — approved ones start and list, unapproved are WARN and never started",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const http = startTestHttpServer();
    try {
      await using b = await box();
      const config = `${b.root}/config`;
      await writeServer(config, "calc", { url: http.url("ok") });
      await writeServer(config, "mini", { command: "node", args: [MINI, "ok"] });
      await writeServer(config, "later", { url: http.url("down") });
      await approveAll(config, ["calc", "mini"]);
      let r = await doctor(b.env);
      assert.equal(r.row("mcp:calc").status, "OK");
      assert.match(r.row("mcp:calc").detail, /listed 4 tool\(s\), as pinned/);
      assert.equal(r.row("mcp:mini").status, "OK");
      const later = r.row("mcp:later");
      assert.equal(later.status, "WARN");
      assert.match(later.detail, /not approved: a wake skips it/);
      assert.equal(later.fix, "review it, then run 'harness mcp approve later'");
      // The stdio server keeps run under the locked profile, and the plan says so.
      assert.match(r.row("permissions").detail, /run is kept for MCP stdio server\(s\) mini/);

      // Approved, then the server goes away: the wake would run without its tools.
      await writeServer(config, "calc", { url: http.url("down") });
      r = await doctor(b.env);
      assert.equal(r.row("mcp:calc").status, "FAIL");
      assert.match(r.row("mcp:calc").detail, /did not start or list its tools/);
    } finally {
      await http.close();
    }
  },
});

Deno.test({
  name: "doctor: a server slower than --timeout is a FAIL, and the doctor still answers",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const http = startTestHttpServer();
    try {
      await using b = await box();
      const config = `${b.root}/config`;
      await writeServer(config, "slowlist", { url: http.url("slowlist") });
      await approveAll(config, ["slowlist"]); // listing takes 2 s: within approve's 20 s
      const r = await doctor(b.env, 500);
      assert.equal(r.row("mcp:slowlist").status, "FAIL");
      assert.equal(r.row("platform").status, "OK");
    } finally {
      await http.close();
    }
  },
});

Deno.test({
  name: "doctor: HARNESS_HOME not writable, a stale claim, a billing wall and a tripped breaker",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using b = await box();
    const file = `${b.root}/not-a-dir`;
    await Deno.writeTextFile(file, "");
    let r = await doctor({ ...b.env, HARNESS_HOME: file });
    assert.equal(r.row("harness-home").status, "FAIL");
    assert.match(r.row("harness-home").detail, /is not a directory/);
    r = await doctor({ ...b.env, HARNESS_HOME: `${file}/home` });
    assert.equal(r.row("harness-home").status, "FAIL");

    const home = b.env.HARNESS_HOME;
    r = await doctor(b.env);
    for (const name of ["harness-home", "claims", "temps", "walls"]) {
      assert.equal(r.row(name).status, "OK", name);
    }
    // A claim whose pid cannot be running (above Linux's pid ceiling), one of a live pid, and
    // one whose dead owner a live wake took over (its token names the dead wake).
    const claims = `${home}/claims/messages/${TL}`;
    await Deno.mkdir(claims, { recursive: true });
    const now = Date.now() / 1000;
    const record = (pid: number, wake = "a".repeat(32)) =>
      encodeClaimRecord({ phase: "in-flight", pid, wake, at: now });
    await Deno.writeTextFile(`${claims}/${ITEM}.claim`, record(2 ** 23));
    await Deno.writeTextFile(`${claims}/live.claim`, record(Deno.pid));
    await Deno.writeTextFile(`${claims}/taken.claim`, record(2 ** 23, "d".repeat(32)));
    await Deno.writeTextFile(
      `${claims}/.taken.takeover.${"d".repeat(32)}`,
      record(Deno.pid, "e".repeat(32)),
    );
    await Deno.mkdir(`${home}/billing`);
    await Deno.writeTextFile(`${home}/billing/${TL}.blocked`, String(now));
    await Deno.mkdir(`${home}/breaker`);
    await Deno.writeTextFile(`${home}/breaker/${TL}.tripped`, String(now));
    // A window rewrite stranded by a writer that is gone, and one a live writer (us) holds.
    await Deno.writeTextFile(`${home}/breaker/${TL}.wakes.${2 ** 23}-0123abcd.tmp`, "12");
    await Deno.writeTextFile(`${home}/breaker/${TL}.wakes.${Deno.pid}-0123abcd.tmp`, "1");
    r = await doctor(b.env);
    const claim = r.row("claims");
    assert.equal(claim.status, "WARN");
    assert.match(
      claim.detail,
      new RegExp(`^1 item\\(s\\) in flight whose wake is over .*messages/${ITEM} on ${TL}$`),
    );
    assert.match(claim.fix ?? "", new RegExp(`harness wake --timeline ${TL}`));
    const walls = r.report.checks.filter((c) => c.name === "walls");
    assert.deepEqual(walls.map((w) => w.status), ["WARN", "WARN"]);
    assert.match(walls[0].detail, /wake breaker tripped/);
    assert.match(walls[1].detail, /billing wall/);
    const temps = r.row("temps");
    assert.equal(temps.status, "WARN");
    assert.match(temps.detail, new RegExp(`^1 stranded temp file\\(s\\), 2 bytes .*${2 ** 23}-`));
    assert.equal(r.row("harness-home").status, "OK");
  },
});

Deno.test({
  name: "doctor: host_rules.json is in force: a platform or model host outside it is never asked",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using b = await box();
    const rulesFile = `${b.root}/config/host_rules.json`;
    const run = async (allow: unknown) => {
      await Deno.writeTextFile(rulesFile, JSON.stringify({ allow }));
      try {
        return await doctor(b.env);
      } finally {
        installFence(null); // the doctor installs the rules for its process, as a wake does
      }
    };
    // Both counterparts listen on 127.0.0.1; "localhost" names the same machine, so only the
    // rules can be what stops the requests.
    const before = b.sandbox.requests.length;
    let r = await run(["localhost"]);
    assert.equal(r.row("host-rules").status, "OK");
    assert.match(r.row("host-rules").detail, /host_rules\.json allows 1 host rule/);
    for (const check of ["platform", "model"]) {
      const row = r.row(check);
      assert.equal(row.status, "FAIL", JSON.stringify(row));
      assert.match(
        row.detail,
        /was not asked: host '127\.0\.0\.1', which the host rules in .*host_rules\.json do not allow\./,
      );
      assert.match(row.fix ?? "", /add .* to host_rules\.json/);
    }
    assert.equal(r.code, 1);
    assert.equal(b.sandbox.requests.length, before, "the platform got no request");
    assert.deepEqual(b.models.seen, [], "the model endpoint got no request");

    // A file that does not load: a FAIL, and no network check is sent at all.
    r = await run(["*.example.com"]);
    assert.equal(r.row("host-rules").status, "FAIL");
    assert.match(r.row("host-rules").detail, /allow\[0\] .* is a glob/);
    assert.match(r.row("platform").detail, /^not checked: host_rules\.json does not load$/);
    assert.match(r.row("model").detail, /^not checked/);
    assert.equal(b.sandbox.requests.length, before);
    assert.deepEqual(b.models.seen, []);

    // The control: with the counterparts' address listed, both are asked and answer.
    r = await run(["127.0.0.1"]);
    assert.equal(r.row("platform").status, "OK", JSON.stringify(r.row("platform")));
    assert.equal(r.row("model").status, "OK", JSON.stringify(r.row("model")));
    assert.ok(b.models.seen.length > 0);
  },
});

Deno.test("doctor: unknown HARNESS_* names are WARN with a did-you-mean; a refused value is FAIL", async () => {
  const root = await Deno.makeTempDir({ prefix: "doctor-env-" });
  try {
    const r = await doctor({
      HOME: root,
      HARNESS_HOME: root,
      HARNESS_MAX_STEP: "5",
      HARNESS_CONTEXT_MESSAGES: "lots",
      HARNESS_PROFILE: "unlockd",
      BASECRADLE_TOKEN: "",
      AI_MODEL: "",
    }, 2000);
    const env = r.report.checks.filter((c) => c.name === "environment");
    const byStatus = (s: string) => env.filter((c) => c.status === s).map((c) => c.detail);
    assert.equal(byStatus("FAIL").length, 1);
    assert.match(byStatus("FAIL")[0], /^HARNESS_CONTEXT_MESSAGES must be 'all' or/);
    assert.ok(
      byStatus("WARN").includes(
        "HARNESS_MAX_STEP is set but nothing reads it (did you mean HARNESS_MAX_STEPS?)",
      ),
      JSON.stringify(env),
    );
    assert.ok(byStatus("WARN").some((d) => /HARNESS_PROFILE='unlockd'.*running locked/.test(d)));
    // The rest of the box is still checked with the refused variable left at its default.
    assert.equal(r.row("platform").status, "FAIL");
    assert.match(r.row("platform").detail, /no platform credential/);
    assert.equal(r.row("harness-home").status, "OK");

    // An email without its password refuses as a pair; the checks still go on.
    const half = await doctor(
      { HOME: root, HARNESS_HOME: root, BASECRADLE_EMAIL: "a@b.test" },
      2000,
    );
    const refused = half.report.checks.filter((c) =>
      c.status === "FAIL" && c.name === "environment"
    );
    assert.equal(refused.length, 1);
    assert.match(refused[0].detail, /BASECRADLE_PASSWORD is not set/);
    assert.match(half.row("platform").detail, /no platform credential/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "doctor as a process: exit 0 with only warnings, exit 1 on a FAIL, --json is one document",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using b = await box();
    const good = await runCli(["doctor", "--json"], { env: b.env });
    const report = DoctorReportSchema.parse(JSON.parse(good.stdout));
    assert.deepEqual(
      report.checks.filter((c) => c.status === "FAIL"),
      [],
      good.stdout,
    );
    assert.equal(good.code, 0, good.stdout);
    assert.equal(report.summary.exit_code, 0);
    assert.deepEqual(
      [...new Set(report.checks.map((c) => c.name))],
      [
        "environment",
        "config-home",
        "wake-config",
        "platform",
        "model",
        "mcp",
        "permissions",
        "sandbox",
        "harness-home",
        "claims",
        "temps",
        "walls",
      ],
    );
    // A never-installed config home is a WARN with its fix.
    assert.equal(report.checks[1].status, "WARN");
    assert.equal(report.checks[1].fix, "run 'harness install'");

    const refused = await runCli(["doctor"], { env: { ...b.env, BASECRADLE_TOKEN: "bc_nope" } });
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^FAIL +platform +.*refused BASECRADLE_TOKEN \(HTTP 401\)$/m);
    assert.match(refused.stdout, /^ +fix: set a valid BASECRADLE_TOKEN/m);
    assert.match(refused.stdout, /\n\d+ ok, \d+ warning\(s\), 1 failure\(s\)\n$/);

    const usage = await runCli(["doctor", "--timeout", "0"], { env: b.env });
    assert.equal(usage.code, 2);
  },
});

/** Every file under `dir` with its bytes, for "nothing was written" comparisons. */
async function snapshot(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const rel = `${prefix}${entry.name}`;
    if (entry.isDirectory) Object.assign(out, await snapshot(dir, `${rel}/`));
    else out[rel] = await Deno.readTextFile(`${dir}/${rel}`);
  }
  return out;
}

Deno.test({
  name: "doctor: a config home from an older build names the reconcile pending, writing nothing",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using b = await box();
    const config = `${b.root}/config`;
    let r = await doctor(b.env);
    assert.match(r.row("config-home").detail, /never installed/);
    // An older build shipped another charter, which the operator never touched.
    const rel = Object.keys(ALL_SHIPPED_DEFAULTS).find((k) => k.startsWith("prompts/"))!;
    await install({
      configHome: config,
      provider: "openai",
      version: "0.0.1",
      defaults: { ...ALL_SHIPPED_DEFAULTS, [rel]: "an older default\n" },
    });
    const before = await snapshot(config);
    r = await doctor(b.env);
    const row = r.row("config-home");
    assert.equal(row.status, "WARN");
    assert.match(
      row.detail,
      new RegExp(`stamped 0\\.0\\.1, this build is ${VERSION.replaceAll(".", "\\.")}`),
    );
    assert.match(row.detail, new RegExp(`${rel} \\(refreshed\\)`));
    assert.match(row.fix ?? "", /harness install/);
    assert.deepEqual(await snapshot(config), before, "the doctor wrote to the config home");

    await install({ configHome: config, provider: "openai" });
    r = await doctor(b.env);
    assert.deepEqual([r.row("config-home").status], ["OK"]);
  },
});
