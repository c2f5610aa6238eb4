/**
 * The checks `harness doctor` runs (docs/operating.md#harness-doctor), each a function from what
 * the box has to rows of {@link CheckResult}. They reuse what a wake runs — the environment
 * parser, the config-home reconcile (on a scratch copy), the platform client, the openai SDK, the
 * MCP client, the permission plan and the home's own readers — and write nothing on the box but
 * the reconcile's scratch copy, removed again. The one thing they can leave behind is on the platform: a box configured with an email and password
 * rather than a token proves that credential the way a wake does, by minting a session.
 */
import { closest } from "../base/suggest.ts";
import { access, constants } from "node:fs/promises";
import { errorMessage } from "../base/error_text.ts";
import { dirname } from "../base/paths.ts";
import { VERSION } from "../base/version.ts";
import { ENV_VARIABLES, type HarnessEnv, parseEnv } from "../config/env.ts";
import { ConfigError, type ConfigIssue } from "../config/errors.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { previewReconcile } from "../install/reconcile_preview.ts";
import {
  approveCommand,
  inspectServers,
  type McpConfigRead,
  type McpServerConfig,
  pinMismatch,
  readApprovals,
} from "../mcp/mod.ts";
import {
  ForbiddenError,
  PlatformClient,
  TransportError,
  UnauthorizedError,
} from "../platform/mod.ts";
import { probeModel } from "../providers/model_probe.ts";
import { refusalIn } from "../net/refusal.ts";
import { permissionReport, plannedNarrowing } from "../runtime/permissions.ts";
import { engagedWalls, homeTimelines, inFlightClaims, strandedTemps } from "../home/inspect.ts";
import { type CheckResult, fail, ok, warn } from "./doctor_report.ts";

/** The variables a box's environment holds, by name. */
export type EnvMap = Readonly<Record<string, string | undefined>>;

/** Names with one of these prefixes are the harness's own: an unknown one is likely a typo. */
const OWN_PREFIXES = ["HARNESS_", "BASECRADLE_"] as const;

/** Own-prefixed names read by something other than the runtime (the deploy wrappers). */
const OTHER_READERS: ReadonlySet<string> = new Set(["HARNESS_BIN"]);

/** The parsed environment, or as much of it as parses, and the rows about it. */
export interface EnvironmentCheck {
  /** The environment with every refused variable left unset, so later checks can go on. */
  readonly env: HarnessEnv | undefined;
  readonly rows: CheckResult[];
}

/**
 * The environment: parsed by the wake's own parser. Every refused variable is a FAIL naming it;
 * a lenient fallback the parser took (a profile typo running locked) is a WARN; an
 * own-prefixed variable nothing reads is a WARN with the name it probably meant.
 */
export function checkEnvironment(envMap: EnvMap): EnvironmentCheck {
  const rows: CheckResult[] = [];
  const dropped = new Set<string>();
  const issues: ConfigIssue[] = [];
  let env: HarnessEnv | undefined;
  // Each refused variable is left unset and the parse retried, so one bad value does not hide
  // the rest of the box from the checks that follow.
  for (let round = 0; round <= ENV_VARIABLES.length && env === undefined; round++) {
    try {
      env = parseEnv((name) => (dropped.has(name) ? undefined : envMap[name]));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const fresh = error.issues.filter((issue) => !dropped.has(issue.variable));
      for (const issue of fresh) {
        issues.push(issue);
        dropped.add(issue.variable);
      }
      if (fresh.length > 0) continue;
      // A pair that refuses together (an email without its password) names one variable first
      // and stays refused without it: leave unset every variable the remaining sentences name.
      const named = ENV_VARIABLES.filter((name) =>
        !dropped.has(name) && error.issues.some((issue) => issue.message.includes(name))
      );
      if (named.length === 0) break;
      for (const name of named) dropped.add(name);
    }
  }
  for (const issue of issues) {
    rows.push(fail("environment", issue.message, `correct ${issue.variable} in agent.env`));
  }
  for (const line of env?.warnings ?? []) {
    rows.push(warn("environment", line, "correct the variable named in agent.env"));
  }
  const known = new Set(ENV_VARIABLES);
  for (const name of Object.keys(envMap).sort()) {
    if (!OWN_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    if (known.has(name) || OTHER_READERS.has(name)) continue;
    const guess = closest(name, ENV_VARIABLES);
    rows.push(
      warn(
        "environment",
        `${name} is set but nothing reads it${guess ? ` (did you mean ${guess}?)` : ""}`,
        guess ? `rename it to ${guess}` : "remove it, or check docs/environment.md for the name",
      ),
    );
  }
  if (rows.length === 0 && env) {
    rows.push(
      ok(
        "environment",
        `parses; model axes ${env.aiProvider}/${env.aiSdk}/${env.aiSdkSurface}, profile ` +
          env.profile,
      ),
    );
  }
  return { env, rows };
}

/** The resolved config home, or the FAIL row saying why there is none. */
export function configHomeOf(env: HarnessEnv): string | CheckResult {
  try {
    return resolveConfigHome(env);
  } catch (error) {
    return fail(
      "config-home",
      errorMessage(error),
      "set BASECRADLE_CONFIG_HOME to an absolute path (or HOME)",
    );
  }
}

/**
 * The config home: installed, stamped with this build's version, and what the next wake's
 * reconcile would change when it is not (previewed on a scratch copy, never written).
 */
export async function checkConfigHome(env: HarnessEnv, configHome: string): Promise<CheckResult[]> {
  const name = "config-home";
  try {
    const info = await Deno.stat(configHome);
    if (!info.isDirectory) {
      return [
        fail(name, `${configHome} is not a directory`, "point BASECRADLE_CONFIG_HOME at one"),
      ];
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      return [fail(name, `${configHome}: ${errorMessage(error)}`, "make it readable by this user")];
    }
    return [
      warn(
        name,
        `${configHome} does not exist: a wake runs on the embedded defaults`,
        "run 'harness install' to scaffold it",
      ),
    ];
  }
  const preview = await previewReconcile(configHome, env.aiProvider);
  if (!preview.installed) {
    return [
      warn(
        name,
        `${configHome} was never installed (no .manifest.json): a wake runs on the embedded ` +
          "default prompts and tools",
        "run 'harness install'",
      ),
    ];
  }
  if (preview.stamp === VERSION) return [ok(name, `${configHome} is installed at ${VERSION}`)];
  const changes = preview.pending.map((p) => `${p.rel} (${p.action})`);
  return [
    warn(
      name,
      `${configHome} is stamped ${preview.stamp ?? "with no version"}, this build is ` +
        `${VERSION}: the next wake reconciles it` +
        (changes.length ? `, changing ${changes.length} file(s): ${changes.join(", ")}` : "") +
        (preview.warnings.length ? `; ${preview.warnings.join(" ")}` : ""),
      "run 'harness install' now to review the changes (or let the next wake apply them)",
    ),
  ];
}

/** The fix under a check the host rules refused: a wake would be refused the same way. */
const HOST_RULES_FIX = (what: string) =>
  `add ${what} to host_rules.json if a wake should reach it (a wake is refused the same way)`;

/** The platform credential, proven by one authenticated read (the dashboard's identity). */
export async function checkPlatform(env: HarnessEnv, timeoutMs: number): Promise<CheckResult[]> {
  const name = "platform";
  const credential = env.token !== undefined
    ? "BASECRADLE_TOKEN"
    : env.email !== undefined
    ? "BASECRADLE_EMAIL and BASECRADLE_PASSWORD"
    : undefined;
  if (credential === undefined) {
    return [
      fail(
        name,
        "no platform credential is set",
        "set BASECRADLE_TOKEN (or BASECRADLE_EMAIL and BASECRADLE_PASSWORD)",
      ),
    ];
  }
  let client: PlatformClient;
  try {
    client = new PlatformClient({ ...env.platform, timeoutMs });
  } catch (error) {
    return [fail(name, errorMessage(error), `correct ${credential}`)];
  }
  const where = client.baseUrl.href;
  try {
    const { identity } = await client.users.dashboard();
    const verb = env.token !== undefined ? "is" : "are";
    return [
      ok(name, `${credential} ${verb} accepted at ${where}: signed in as @${identity.handle}`),
    ];
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      return [
        fail(
          name,
          `${where} refused ${credential} (HTTP 401)`,
          `set a valid ${credential} for this agent (a revoked or mistyped token answers 401)`,
        ),
      ];
    }
    if (error instanceof ForbiddenError) {
      return [
        fail(
          name,
          `${where} refused the account (HTTP 403${error.code ? ` ${error.code}` : ""})`,
          "ask the platform's operators why the account is refused",
        ),
      ];
    }
    const refusal = refusalIn(error);
    if (refusal) {
      return [fail(name, `${where} was not asked: ${refusal.message}`, HOST_RULES_FIX("its host"))];
    }
    if (error instanceof TransportError) {
      return [
        fail(
          name,
          `cannot reach ${where}: ${errorMessage(error)}`,
          "check BASECRADLE_BASE_URL and this box's network",
        ),
      ];
    }
    return [
      fail(
        name,
        `${where}: ${errorMessage(error)}`,
        "retry; if it persists, check the platform's status",
      ),
    ];
  }
}

/** The model endpoint: reachable, the key accepted, the model known where the API can say. */
export async function checkModel(env: HarnessEnv, timeoutMs: number): Promise<CheckResult[]> {
  const name = "model";
  if (!env.aiModel) {
    return [fail(name, "AI_MODEL is not set", "set AI_MODEL to the model id this agent runs on")];
  }
  if (!env.aiApiKey) return [fail(name, "AI_API_KEY is not set", "set AI_API_KEY")];
  const probe = await probeModel({
    provider: env.aiProvider,
    model: env.aiModel,
    apiKey: env.aiApiKey,
    baseURL: env.aiBaseUrl,
    timeoutMs,
  });
  switch (probe.verdict) {
    case "ok":
      return [ok(name, probe.detail)];
    case "key-refused":
      return [fail(name, probe.detail, "set a valid AI_API_KEY for this endpoint")];
    case "model-unknown":
      return [fail(name, probe.detail, "set AI_MODEL to a model id this endpoint serves")];
    case "unconfirmed":
      return [
        warn(
          name,
          probe.detail,
          "nothing to do if a wake works; else check AI_MODEL and AI_API_KEY",
        ),
      ];
    case "unreachable":
      return [fail(name, probe.detail, "check AI_BASE_URL and this box's network")];
    case "refused":
      return [fail(name, probe.detail, HOST_RULES_FIX("the model's host"))];
    default:
      return [fail(name, probe.detail, "retry; if it persists, check the endpoint's status")];
  }
}

/**
 * One MCP server: approved and still matching its pinned tool list (it is started and its tools
 * listed, within `timeoutMs`), or why a wake will skip it. An unapproved server is never started.
 */
export async function checkMcpServer(
  configHome: string,
  config: McpServerConfig,
  timeoutMs: number,
): Promise<CheckResult[]> {
  const name = `mcp:${config.name}`;
  const approvals = await readApprovals(configHome);
  const approval = approvals.servers[config.name];
  if (!approval) {
    return [
      warn(
        name,
        `${config.server.transport} server in ${config.file} is not approved: a wake skips it ` +
          "(not started here)",
        `review it, then run '${approveCommand(config.name)}'`,
      ),
    ];
  }
  const [seen] = await inspectServers([config], { timeoutSeconds: timeoutMs / 1000 });
  if (!seen.digest || !seen.rawTools) {
    return [
      fail(
        name,
        `approved, but it did not start or list its tools: ${seen.error}`,
        `fix the server (or its ${config.file}), or withdraw it with 'harness mcp revoke ${config.name}'`,
      ),
    ];
  }
  const change = pinMismatch(config.name, approval, seen.digest);
  if (change) {
    return [
      fail(
        name,
        `${change.split(" — ")[0]}: a wake refuses its tools until it is approved again`,
        `review the change, then run '${approveCommand(config.name)}'`,
      ),
    ];
  }
  return [ok(name, `approved; started and listed ${seen.rawTools.length} tool(s), as pinned`)];
}

/** The rows for the `mcp/` folder itself: none configured, unreadable configs, approvals. */
export async function checkMcpFolder(
  configHome: string,
  read: McpConfigRead,
): Promise<CheckResult[]> {
  const rows: CheckResult[] = [];
  for (const bad of read.skipped) {
    rows.push(warn("mcp", bad.reason, "fix or remove the file; a wake skips it"));
  }
  const approvals = read.configs.length ? await readApprovals(configHome) : undefined;
  if (approvals?.problem) {
    rows.push(
      fail("mcp", approvals.problem, "re-approve the servers you use with 'harness mcp approve'"),
    );
  }
  if (read.configs.length === 0 && rows.length === 0) {
    rows.push(ok("mcp", "no MCP servers configured (the safe default)"));
  }
  return rows;
}

/**
 * The permission plan a wake will follow (the profile, and whether `run` is kept), and the live
 * permission set this process runs under (the one a wake gets from the same binary).
 */
export async function checkPermissions(
  env: HarnessEnv,
  read: McpConfigRead | undefined,
): Promise<CheckResult[]> {
  const rows: CheckResult[] = [];
  const plan = plannedNarrowing({
    profile: env.profile,
    mcpStdioServers: read?.stdioServers ?? [],
  });
  if (env.profile === "unlocked") {
    rows.push(
      warn(
        "permissions",
        `profile unlocked: ${plan.reason}`,
        "set HARNESS_PROFILE=locked unless this agent needs subprocesses",
      ),
    );
  } else rows.push(ok("permissions", `profile locked: ${plan.reason}`));

  const live = await permissionReport(false);
  const problems: string[] = [];
  if (live.ffi === "granted") problems.push("ffi is granted");
  if (live.write !== "granted") problems.push("file writes are not granted");
  if (live.net_deny.missing.length) {
    problems.push(
      `${live.net_deny.missing.length} of ${live.net_deny.entries} metadata addresses are not ` +
        `denied (${live.net_deny.missing.slice(0, 3).join(", ")}…)`,
    );
  }
  if (live.run !== "granted" && plan.run === "kept") {
    problems.push("run is not granted, but the plan keeps it");
  }
  rows.push(
    problems.length
      ? fail(
        "sandbox",
        problems.join("; "),
        "run the harness with its permission set (deno run -P=harness, or the shipped binary)",
      )
      : ok(
        "sandbox",
        `run ${live.run}, write ${live.write}, ffi ${live.ffi}; all ${live.net_deny.entries} ` +
          "metadata addresses denied",
      ),
  );
  return rows;
}

/** Whether this user may create and write files in `dir` (asked of the OS, nothing written). */
async function writable(dir: string): Promise<boolean> {
  try {
    await access(dir, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `HARNESS_HOME`: a writable directory; and what it holds that needs an eye: claims whose wake
 * is over, stranded temp files, walls engaged (a tripped breaker, a billing marker).
 */
export async function checkHome(env: HarnessEnv): Promise<CheckResult[]> {
  const name = "harness-home";
  const home = env.harnessHome;
  if (!home) {
    return [
      fail(
        name,
        "HARNESS_HOME is not set",
        "set HARNESS_HOME to the directory that keeps this agent's transcripts, marks and claims",
      ),
    ];
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(home);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      return [
        fail(
          name,
          `${home}: ${errorMessage(error)}`,
          "make HARNESS_HOME a directory this user owns",
        ),
      ];
    }
    const parent = dirname(home);
    if (await writable(parent)) {
      return [
        warn(name, `${home} does not exist yet: the first wake creates it`, `mkdir -p ${home}`),
      ];
    }
    return [
      fail(
        name,
        `${home} does not exist and ${parent} is not writable, so no wake can create it`,
        `create ${home}, owned by the agent's user`,
      ),
    ];
  }
  if (!info.isDirectory) {
    return [fail(name, `${home} is not a directory`, "point HARNESS_HOME at a directory")];
  }
  if (!await writable(home)) {
    return [
      fail(
        name,
        `${home} is not writable by this user: a wake cannot claim, mark or save anything`,
        `chown/chmod ${home} for the agent's user`,
      ),
    ];
  }
  const rows = [ok(name, `${home} is a writable directory`)];
  const timelines = await homeTimelines(home);

  const claims = await inFlightClaims(home, timelines);
  const stale = claims.filter((c) => c.stale);
  if (stale.length) {
    const first = stale.slice(0, 3).map((c) => `${c.kind}/${c.item} on ${c.timeline}`);
    rows.push(
      warn(
        "claims",
        `${stale.length} item(s) in flight whose wake is over (pid gone or over 6 h): ` +
          `${first.join(", ")}${stale.length > 3 ? ", …" : ""}`,
        `the next wake of each timeline takes them over; to do it now run 'harness wake ` +
          `--timeline ${stale[0].timeline}'`,
      ),
    );
  } else {
    rows.push(ok("claims", `${claims.length} item(s) in flight, none stale`));
  }

  const temps = strandedTemps(home, timelines);
  if (temps.length) {
    const bytes = temps.reduce((total, t) => total + t.bytes, 0);
    rows.push(
      warn(
        "temps",
        `${temps.length} stranded temp file(s), ${bytes} bytes (e.g. ${temps[0].path})`,
        "the next wake of each timeline sweeps them; remove them by hand only if disk is tight",
      ),
    );
  } else rows.push(ok("temps", "no stranded temp files"));

  const walls = engagedWalls(home, timelines);
  for (const wall of walls) {
    if (wall.breakerTrippedAt !== null) {
      rows.push(
        warn(
          "walls",
          `wake breaker tripped on ${wall.timeline} at ${isoOf(wall.breakerTrippedAt)}: its ` +
            "wakes self-decline",
          "find the wake loop in the journal ('Wake breaker TRIPPED'); it resets once the burst " +
            "clears (docs/operating.md#the-wake-breaker)",
        ),
      );
    }
    if (wall.billingBlockedSince !== null) {
      rows.push(
        warn(
          "walls",
          `billing wall on ${wall.timeline} since ${isoOf(wall.billingBlockedSince)}: the ` +
            "model account ran out of funds",
          "top up the model account behind AI_API_KEY; the wall clears on the next successful " +
            "model call",
        ),
      );
    }
  }
  if (walls.length === 0) rows.push(ok("walls", "no breaker tripped, no billing wall"));
  return rows;
}

/** Epoch seconds as ISO 8601 (UTC); `-` when the stamp was unreadable. */
export function isoOf(seconds: number): string {
  return seconds > 0 ? new Date(seconds * 1000).toISOString() : "-";
}
