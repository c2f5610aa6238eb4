/**
 * `harness doctor [--json] [--timeout SECONDS]` (docs/operating.md#harness-doctor): is this box
 * ready to wake? Checks the environment (the config home's agent.env filling in what the
 * process's leaves unset), the config home and its wake load, the host rules (in force for the
 * checks that follow, as for a wake), the platform credential, the model endpoint, the MCP
 * servers, the permission plan and HARNESS_HOME, each OK, WARN or FAIL with a
 * one-line fix, and exits 1 when any check failed. Each check has its own time limit, so the
 * doctor never hangs on an unreachable endpoint. It writes nothing.
 */
import { type Command, integerFlag, type Io, processIo } from "./command.ts";
import { checkConfigHome, checkEnvironment, configHomeOf, type EnvMap } from "./doctor_env.ts";
import { checkModel, checkPlatform } from "./doctor_reach.ts";
import { checkHome, checkMcpFolder, checkMcpServer, checkPermissions } from "./doctor_box.ts";
import { bounded, type CheckResult, doctorReport, doctorTable, fail, ok } from "./doctor_report.ts";
import { checkWakeLoad, withAgentEnvOf } from "./doctor_config.ts";
import { type McpConfigRead, readMcpConfigs } from "../mcp/mod.ts";
import { errorMessage } from "../base/error_text.ts";
import { silentJournal } from "../journal/journal.ts";
import { enforceHostRules, readHostRules } from "../runtime/resolve.ts";

const options = {
  json: { type: "boolean" },
  timeout: { type: "string" },
} as const;

/** The per-check time limit when `--timeout` is not given, in seconds. */
export const DEFAULT_CHECK_TIMEOUT_SECONDS = 10;

/** What {@link runDoctor} is given. */
export interface DoctorRun {
  /** The environment to judge (the process's own, for the command). */
  readonly env: EnvMap;
  readonly json?: boolean;
  /** Per-check time limit, milliseconds. */
  readonly timeoutMs: number;
  readonly io?: Io;
}

/** Runs every check, prints the report and resolves to the exit code (1 on any FAIL). */
export async function runDoctor(run: DoctorRun): Promise<number> {
  const io = run.io ?? processIo;
  const limit = run.timeoutMs;
  // The environment a wake of this agent gets: agent.env fills in what this one leaves unset.
  const vars = await withAgentEnvOf(run.env);
  const environment = checkEnvironment(vars);
  const rows: CheckResult[][] = [environment.rows];
  const env = environment.env;
  if (env === undefined) {
    rows.push([fail("doctor", "the environment does not parse at all", "fix the rows above")]);
  } else {
    const home = configHomeOf(env);
    const configHome = typeof home === "string" ? home : undefined;
    let mcp: McpConfigRead | undefined;
    let mcpProblem: CheckResult | undefined;
    if (configHome !== undefined) {
      try {
        mcp = await readMcpConfigs(configHome); // no spawn: the permission plan needs it too
      } catch (error) {
        mcpProblem = fail(
          "mcp",
          `cannot read ${configHome}/mcp: ${errorMessage(error)}`,
          "make it readable",
        );
      }
    }
    // The host rules, in force for the network checks below as they are for a wake.
    const rules = configHome === undefined ? { rows: [] } : await hostRules(configHome);
    const network = <T extends CheckResult[]>(name: string, check: () => Promise<T>) =>
      rules.broken ? Promise.resolve([rules.broken(name)]) : bounded(name, limit, check);
    // The network checks run side by side; the rows keep this order whatever finishes first.
    rows.push(
      ...await Promise.all([
        typeof home === "string"
          ? bounded("config-home", limit, () => checkConfigHome(env, home))
          : Promise.resolve([home]),
        typeof home === "string"
          ? bounded("wake-config", limit, () => checkWakeLoad(vars, env))
          : Promise.resolve([]),
        Promise.resolve(rules.rows),
        network("platform", () => checkPlatform(env, limit)),
        network("model", () => checkModel(env, limit)),
        mcpProblem
          ? Promise.resolve([mcpProblem])
          : mcp && configHome
          ? bounded("mcp", limit, () => checkMcpFolder(configHome, mcp))
          : Promise.resolve([]),
        ...(mcp && configHome
          ? mcp.configs.map((config) =>
            network(`mcp:${config.name}`, () => checkMcpServer(configHome, config, limit))
          )
          : []),
        bounded("permissions", limit, () => checkPermissions(env, mcp)),
        bounded("harness-home", limit, () => checkHome(env)),
      ]),
    );
  }
  const report = doctorReport(rows.flat());
  io.stdout(run.json ? `${JSON.stringify(report, null, 2)}\n` : doctorTable(report));
  return report.summary.exit_code;
}

/**
 * `host_rules.json` of `configHome`: when there is one, it is made this process's fence, so the
 * platform, model and MCP checks go only where a wake's requests may, and a refused one fails
 * as the wake's would; its row says so. A file that does not load is a FAIL, and the network
 * checks are not run at all (a wake would not start; sending requests the operator meant to
 * fence would be wrong).
 */
async function hostRules(configHome: string): Promise<{
  rows: CheckResult[];
  broken?: (check: string) => CheckResult;
}> {
  try {
    const rules = await readHostRules(configHome);
    if (rules === null) return { rows: [] };
    await enforceHostRules(rules, silentJournal);
    return {
      rows: [
        ok(
          "host-rules",
          `${rules.file} allows ${rules.entries.length} host rule(s); the checks below ask only ` +
            "hosts it allows, as a wake does",
        ),
      ],
    };
  } catch (error) {
    const why = errorMessage(error);
    return {
      rows: [fail("host-rules", why, "correct the file as the line says, or delete it")],
      broken: (check) =>
        fail(check, "not checked: host_rules.json does not load", "fix host_rules.json first"),
    };
  }
}

/** `harness doctor`. */
export const doctorCommand: Command<typeof options> = {
  name: "doctor",
  usage: `Usage: harness doctor [--json] [--timeout SECONDS]

Check that this box is ready to wake, without waking: each check prints OK, WARN or FAIL, and
a one-line fix under anything not OK. Nothing is written anywhere.

  environment    every variable parses (as a wake parses it); unknown HARNESS_*/BASECRADLE_*
                 names, with the name probably meant
  config-home    installed, stamped with this version, or what the next wake's reconcile changes
  wake-config    every config-home file loads as a wake loads it; else the wake's own sentence
  host-rules     host_rules.json loads; the network checks then ask only hosts it allows
  platform       the credential is accepted (one authenticated read)
  model          the endpoint answers, accepts AI_API_KEY and knows AI_MODEL
  mcp, mcp:NAME  each server approved, started, its tools listed and still as pinned
  permissions    the profile and what the wake keeps (run); sandbox: this permission set
  harness-home   writable; claims: items in flight whose wake is over; temps: stranded temp
                 files; walls: a tripped wake breaker or a billing wall

Options:
  --json               print one JSON document: {checks: [{name, status, detail, fix}], summary}
  --timeout SECONDS    time limit per check (default ${DEFAULT_CHECK_TIMEOUT_SECONDS})
  -h, --help           show this help

Exit codes: 0 no check failed (warnings allowed); 1 a check failed; 2 a usage error.
`,
  options,
  run({ values }) {
    const seconds = integerFlag("timeout", values.timeout, { min: 1, max: 600 }) ??
      DEFAULT_CHECK_TIMEOUT_SECONDS;
    return runDoctor({
      env: Deno.env.toObject(),
      json: values.json === true,
      timeoutMs: seconds * 1000,
    });
  },
};
