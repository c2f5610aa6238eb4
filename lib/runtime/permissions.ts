/**
 * Permission narrowing (docs/invariants.md#7-safe-by-default-enforced-twice, the second lock): before any plugin, memory module, MCP
 * or model code runs, the process narrows its own Deno permissions. Under the locked profile it
 * revokes `run`, so no code in this process can start a subprocess — a call throws
 * `Deno.errors.NotCapable` — whatever the policy missed. FFI is never granted by the production
 * permission set (`deno.json` `permissions.harness`), and its net deny list keeps link-local and
 * cloud-metadata addresses unreachable (the list is `netDenyList()` of
 * lib/net/metadata_addresses.ts, shared with web_fetch's address policy); neither can be
 * widened from inside the process.
 *
 * A revocation cannot be undone, so nothing that needs `run` may come after it: the wake takes
 * its claim-liveness snapshot (`kill(pid, 0)` needs `run`) before calling this.
 */
import type { Journal } from "../journal/journal.ts";
import type { ProfileName } from "../config/env.ts";
import { netDenyList } from "../net/metadata_addresses.ts";

/** What the narrowing needs to know. */
export interface PermissionPlan {
  /** `HARNESS_PROFILE`, fail-closed. */
  readonly profile: ProfileName;
  /**
   * Names of the configured MCP servers that run as local subprocesses (stdio transport). Such a
   * server must be spawned, so under the locked profile it keeps `run` — an audited opt-out.
   * The MCP config read (`readMcpConfigs`, no spawn) fills it with the approved stdio servers.
   */
  readonly mcpStdioServers: readonly string[];
}

/** What the narrowing did. */
export interface PermissionOutcome {
  /** Whether the process still holds `run` after narrowing. */
  readonly run: "kept" | "revoked";
  /** Brief safety lines for an opt-out (empty when the process is at its narrowest). */
  readonly notices: readonly string[];
}

/** The brief notice under the unlocked profile. */
export const UNLOCKED_NOTICE =
  "The 'unlocked' profile is active: this harness process keeps permission to start " +
  "subprocesses, so shell-class tools an operator granted may load.";

/** The brief notice when MCP stdio servers keep `run` under the locked profile. */
export function mcpRunNotice(servers: readonly string[]): string {
  return `MCP stdio server(s) ${[...servers].sort().join(", ")} active: this harness process ` +
    "keeps permission to start subprocesses so they can be spawned.";
}

/**
 * The brief's safety lines {@link narrowPermissions} gives for `plan`, without narrowing: a
 * process that never narrows (replay) states the same opt-outs a wake's charter states.
 */
export function permissionNotices(plan: PermissionPlan): readonly string[] {
  if (plan.profile === "unlocked") return [UNLOCKED_NOTICE];
  if (plan.mcpStdioServers.length > 0) return [mcpRunNotice(plan.mcpStdioServers)];
  return [];
}

/** What {@link narrowPermissions} will do for a plan, said before (or instead of) doing it. */
export interface PlannedNarrowing {
  /** Whether `run` stays granted. */
  readonly run: "kept" | "revoked";
  /** Why, one clause. */
  readonly reason: string;
}

/** What {@link narrowPermissions} will do for `plan`, without doing it (`harness doctor`). */
export function plannedNarrowing(plan: PermissionPlan): PlannedNarrowing {
  if (plan.profile === "unlocked") {
    return { run: "kept", reason: "the unlocked profile keeps run: subprocesses are permitted" };
  }
  if (plan.mcpStdioServers.length > 0) {
    return {
      run: "kept",
      reason: `run is kept for MCP stdio server(s) ${
        [...plan.mcpStdioServers].sort().join(", ")
      }, whose processes run outside the Deno sandbox`,
    };
  }
  return { run: "revoked", reason: "a wake revokes run before any tool, memory or model code" };
}

/**
 * Narrows this process for `plan`: under `locked` with no stdio MCP server, revokes `run`.
 * Every opt-out is audited with a WARNING in the journal and a notice for the brief.
 */
export async function narrowPermissions(
  plan: PermissionPlan,
  journal?: Journal,
): Promise<PermissionOutcome> {
  if (plan.profile === "unlocked") {
    journal?.text(
      "WARNING",
      "Profile 'unlocked': run permission kept; subprocesses (the shell tool, if granted) are " +
        "permitted in this wake.",
    );
    return { run: "kept", notices: permissionNotices(plan) };
  }
  if (plan.mcpStdioServers.length > 0) {
    // The audited opt-out of the second lock: a stdio server is a subprocess, so run must stay.
    const names = [...plan.mcpStdioServers].sort().join(", ");
    journal?.text(
      "WARNING",
      `Profile 'locked' keeps run permission for MCP stdio server(s) ${names}: their ` +
        "processes run outside the harness's Deno permission sandbox.",
    );
    return { run: "kept", notices: permissionNotices(plan) };
  }
  await Deno.permissions.revoke({ name: "run" });
  journal?.text("DEBUG", "Profile 'locked': run permission revoked for this process.");
  return { run: "revoked", notices: permissionNotices(plan) };
}

/** A permission's live state as resolved-config reports it. */
export type PermissionState = "granted" | "denied" | "prompt";

/** How much of the net deny list the live process enforces (`sandbox.net_deny`). */
export interface NetDenyReport {
  /** Entries the production permission set must deny ({@link NET_DENY_LIST}). */
  readonly entries: number;
  /** Entries a live `Deno.permissions.query` confirms denied. */
  readonly denied: number;
  /** Entries the live query does not find denied, in list order: `[]` when all are in force. */
  readonly missing: readonly string[];
}

/** The live sandbox, as `resolved-config` reports it (`sandbox`). */
export interface PermissionsReport {
  /** Subprocesses (`Deno.Command`, `node:child_process`, `kill`). */
  readonly run: PermissionState;
  /** Native libraries (`Deno.dlopen`). */
  readonly ffi: PermissionState;
  /** File writes, anywhere (the global grant). */
  readonly write: PermissionState;
  /** Whether this process denies every metadata address the harness knows of. */
  readonly net_deny: NetDenyReport;
}

/**
 * The net deny list the production permission set must carry: the metadata and wire-server
 * addresses, their IPv6 spellings and host names (docs/security.md#the-permission-set). deno.json
 * holds the same list (a test keeps them equal), so a report against this one also catches a
 * permission set built from a stale deno.json.
 */
export const NET_DENY_LIST: readonly string[] = netDenyList();

/**
 * Reads the live permission state. `prompt` means "not granted, Deno would ask": with no
 * interactive terminal nobody can answer, every use throws NotCapable, so it is reported as
 * `denied`; on a terminal it stays `prompt` (set `DENO_NO_PROMPT=1` to make it a refusal there).
 */
export async function permissionReport(
  interactive: boolean = Deno.stdin.isTerminal(),
): Promise<PermissionsReport> {
  const state = async (descriptor: Deno.PermissionDescriptor): Promise<PermissionState> => {
    const { state } = await Deno.permissions.query(descriptor);
    return state === "prompt" && !interactive ? "denied" : state;
  };
  const missing: string[] = [];
  for (const entry of NET_DENY_LIST) {
    // A CIDR entry is probed at its network address: query() matches hosts, not ranges.
    const host = entry.replace(/\/\d+$/, "");
    if (await state({ name: "net", host }) !== "denied") missing.push(entry);
  }
  return {
    run: await state({ name: "run" }),
    ffi: await state({ name: "ffi" }),
    write: await state({ name: "write" }),
    net_deny: {
      entries: NET_DENY_LIST.length,
      denied: NET_DENY_LIST.length - missing.length,
      missing,
    },
  };
}
