/**
 * `harness doctor`'s checks of what the box holds (docs/operating.md#harness-doctor): each MCP
 * server's approval and pin, the permission plan a wake will follow, and `HARNESS_HOME` (writable,
 * in-flight claims, stranded temps, tripped walls). They read and never write.
 */
import { access, constants } from "node:fs/promises";
import { errorMessage } from "../base/error_text.ts";
import { dirname } from "../base/paths.ts";
import type { HarnessEnv } from "../config/env.ts";
import {
  approveCommand,
  inspectServers,
  type McpConfigRead,
  type McpServerConfig,
  pinMismatch,
  readApprovals,
} from "../mcp/mod.ts";
import { permissionReport, plannedNarrowing } from "../runtime/permissions.ts";
import { engagedWalls, homeTimelines, inFlightClaims, strandedTemps } from "../home/inspect.ts";
import { type CheckResult, fail, ok, warn } from "./doctor_report.ts";

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
