/**
 * `harness mcp list | approve | revoke`: the operator's side of MCP pinning. `approve` starts
 * each named server, prints the tools it serves and records their fingerprint in
 * `mcp/.approved.json`; a wake loads a server only while its tool list still matches. `list`
 * shows every configured server, its approval state and its tool count.
 */
import { CONFIG_HOME_FLAG } from "./flag_values.ts";
import { errorMessage } from "../base/error_text.ts";
import { didYouMean } from "../base/suggest.ts";
import { type Command, type Io, processIo, UsageError } from "./command.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { ENV_RANGES, inRange } from "../config/ranges.ts";
import { silentJournal } from "../journal/journal.ts";
import { enforceHostRules, readHostRules } from "../runtime/resolve.ts";
import {
  approveCommand,
  inspectServers,
  type McpConfigRead,
  type McpServerConfig,
  pinMismatch,
  readApprovals,
  readMcpConfigs,
  recordApproval,
  revokeApproval,
  type ServerInspection,
} from "../mcp/mod.ts";

const options = {
  "config-home": CONFIG_HOME_FLAG,
  all: { type: "boolean" },
  offline: { type: "boolean" },
  json: { type: "boolean" },
} as const;

/** What {@link runMcp} is given. */
export interface McpRun {
  /** `list`, `approve` or `revoke`. */
  readonly action: string;
  /** Server names (approve/revoke). */
  readonly servers: readonly string[];
  readonly all?: boolean;
  readonly offline?: boolean;
  readonly json?: boolean;
  /** The config home, resolved. */
  readonly configHome: string;
  /** Per-request timeout in seconds. */
  readonly timeoutSeconds: number;
  readonly io?: Io;
}

/** Runs an mcp action and resolves to the exit code. */
export async function runMcp(run: McpRun): Promise<number> {
  const io = run.io ?? processIo;
  // Listing and approving connect to the servers: over HTTP, under the host rules as in a wake.
  const rules = await readHostRules(run.configHome);
  if (rules) await enforceHostRules(rules, silentJournal);
  const read = await readMcpConfigs(run.configHome);
  if (run.action === "list") return await list(run, read, io);
  const picked = pick(run, read, io);
  if (!picked) return 1;
  if (run.action === "revoke") {
    for (const config of picked) {
      const removed = await revokeApproval(run.configHome, config.name);
      io.stdout(`${removed ? "revoked" : "was not approved"}: ${config.name}\n`);
    }
    return 0;
  }
  return await approve(run, picked, io);
}

function pick(run: McpRun, read: McpConfigRead, io: Io): McpServerConfig[] | undefined {
  if (run.all) return [...read.configs];
  const picked: McpServerConfig[] = [];
  for (const name of run.servers) {
    const config = read.configs.find((c) => c.name === name);
    if (!config) {
      const bad = read.skipped.find((s) => s.name === name);
      io.stderr(
        `harness mcp: ${bad ? bad.reason : `no MCP server '${name}' in ${run.configHome}/mcp/`}\n`,
      );
      return undefined;
    }
    picked.push(config);
  }
  return picked;
}

async function approve(run: McpRun, configs: McpServerConfig[], io: Io): Promise<number> {
  const approvals = await readApprovals(run.configHome);
  let failed = 0;
  for (const seen of await inspectServers(configs, { timeoutSeconds: run.timeoutSeconds })) {
    const name = seen.config.name;
    if (!seen.digest || !seen.rawTools) {
      io.stderr(`harness mcp: could not approve '${name}': ${seen.error}\n`);
      failed++;
      continue;
    }
    const before = approvals.servers[name];
    const change = before ? pinMismatch(name, before, seen.digest) : undefined;
    if (before && !change) {
      io.stdout(`${name}: already approved (${seen.rawTools.length} tool(s), unchanged)\n`);
      continue;
    }
    io.stdout(
      `${name}: ${seen.rawTools.length} tool(s)${change ? ` — ${change.split(" — ")[0]}` : ""}\n`,
    );
    for (const line of toolLines(seen)) io.stdout(`  ${line}\n`);
    await recordApproval(run.configHome, name, seen.digest);
    io.stdout(`approved ${name} (sha256 ${seen.digest.sha256.slice(0, 16)}…)\n`);
  }
  return failed ? 1 : 0;
}

function toolLines(seen: ServerInspection): string[] {
  return (seen.rawTools ?? []).map((raw) => {
    const tool = (raw ?? {}) as { name?: unknown; description?: unknown };
    const first = typeof tool.description === "string"
      ? tool.description.trim().split("\n")[0].slice(0, 100)
      : "";
    return `- ${String(tool.name)}${first ? ` — ${first}` : ""}`;
  });
}

async function list(run: McpRun, read: McpConfigRead, io: Io): Promise<number> {
  const approvals = await readApprovals(run.configHome);
  const seen = run.offline ? [] : await inspectServers(read.configs, {
    timeoutSeconds: run.timeoutSeconds,
  });
  const rows = read.configs.map((config) => {
    const live = seen.find((s) => s.config.name === config.name);
    const approval = approvals.servers[config.name];
    const change = approval && live?.digest ? pinMismatch(config.name, approval, live.digest) : "";
    const state = !approval ? "unapproved" : change ? "changed" : "approved";
    return {
      name: config.name,
      transport: config.server.transport,
      approval: state,
      tools: live?.rawTools?.length ?? null,
      error: live?.error ?? null,
      action: state === "approved" ? null : approveCommand(config.name),
    };
  });
  if (run.json) {
    io.stdout(`${JSON.stringify({ servers: rows, skipped: read.skipped }, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0 && read.skipped.length === 0) {
    io.stdout(`no MCP servers in ${run.configHome}/mcp/ (the safe default)\n`);
  }
  for (const row of rows) {
    const tools = row.error
      ? `unreachable: ${row.error}`
      : row.tools === null
      ? "tools not listed (--offline)"
      : `${row.tools} tool(s)`;
    const hint = row.action ? ` — run '${row.action}'` : "";
    io.stdout(`${row.name}  ${row.transport}  ${row.approval}  ${tools}${hint}\n`);
  }
  for (const bad of read.skipped) io.stdout(`${bad.name}  invalid  ${bad.reason}\n`);
  if (approvals.problem) io.stderr(`harness mcp: ${approvals.problem}\n`);
  return 0;
}

/** `HARNESS_MCP_TIMEOUT` as a wake reads it: seconds within its range, else 20. */
function timeoutFromEnv(): number {
  const value = Number((Deno.env.get("HARNESS_MCP_TIMEOUT") ?? "").trim() || "x");
  return inRange(value, ENV_RANGES.HARNESS_MCP_TIMEOUT) ? value : 20;
}

/** `harness mcp`. */
export const mcpCommand: Command<typeof options> = {
  name: "mcp",
  usage: `Usage: harness mcp list [--offline] [--json] [--config-home DIR]
       harness mcp approve (SERVER… | --all) [--config-home DIR]
       harness mcp revoke (SERVER… | --all) [--config-home DIR]

MCP servers are drop-ins: one config per <config-home>/mcp/<name>.json. A wake loads a server's
tools only once you have approved its tool list, and only while the list still matches it.

  list     every configured server: transport, approval (approved, changed, unapproved) and
           tool count. Starts each server to list its tools, unless --offline.
  approve  start each server, print its tools, and record their fingerprint (names,
           descriptions, input schemas; sha256 of canonical JSON) in mcp/.approved.json.
           Re-run it after you have reviewed a change a wake refused.
  revoke   remove approvals: the server stops loading on the next wake.

Options:
  --all               every configured server
  --offline           list without starting any server
  --json              print JSON (list)
  --config-home DIR   the config home (default: $BASECRADLE_CONFIG_HOME, else
                      $HOME/.config/basecradle)
  -h, --help          show this help

Environment: HARNESS_MCP_TIMEOUT (per-request seconds, default 20).
Exit codes: 0 ok; 1 a server could not be approved or an error (on stderr); 2 a usage error.
`,
  options,
  allowPositionals: true,
  positionalWords: ["list", "approve", "revoke"],
  async run({ values, positionals }) {
    const [action, ...servers] = positionals;
    if (action !== "list" && action !== "approve" && action !== "revoke") {
      throw new UsageError(
        action === undefined
          ? "a subcommand is required: list, approve or revoke"
          : `unknown subcommand '${action}' (expected list, approve or revoke).${
            didYouMean(action, ["list", "approve", "revoke"])
          }`,
      );
    }
    if (action === "list" && servers.length) {
      throw new UsageError(`unexpected argument '${servers[0]}'`);
    }
    if (action !== "list" && !values.all && servers.length === 0) {
      throw new UsageError(`name the server(s) to ${action}, or pass --all`);
    }
    if (values.all && servers.length) {
      throw new UsageError("pass server names or --all, not both");
    }
    let configHome: string;
    try {
      configHome = resolveConfigHome(
        { configHome: Deno.env.get("BASECRADLE_CONFIG_HOME"), home: Deno.env.get("HOME") },
        values["config-home"],
      );
    } catch (error) {
      processIo.stderr(`harness mcp: ${errorMessage(error)}\n`);
      return 1;
    }
    return await runMcp({
      action,
      servers,
      all: values.all === true,
      offline: values.offline === true,
      json: values.json === true,
      configHome,
      timeoutSeconds: timeoutFromEnv(),
    });
  },
};
