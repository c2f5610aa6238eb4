/**
 * What this agent will actually run: ONE resolution shared by the wake and `resolved-config`, so
 * the report can never disagree with the process it describes (docs/configuration.md#resolved-config).
 * In the reference's observable order — errors short-circuit:
 *
 * config home → auto-reconcile after an upgrade (wake only, docs/configuration.md#install-and-upgrade) → prompts → MCP server configs
 * → the outer sandbox narrows (before any code below runs) → memory provider → tool resolution
 * over the overlay (docs/configuration.md#tool-plugin-files) → `model_params.json` → `search_params.json` (docs/configuration.md#model_paramsjson-and-search_paramsjson)
 * → `guardrails.json` (docs/security.md#guardrailsjson) → `image_prep.json` → `escalation.json`.
 *
 * Every config-home file that can refuse is judged here and nowhere else, so a file that stops a
 * wake also fails `resolved-config`, with the same line (docs/configuration.md#when-a-file-is-wrong).
 * It builds no model client and makes no platform call; `resolved-config` writes nothing.
 */
import { Policy } from "../core/policy.ts";
import type { Tool } from "../core/types/tool.ts";
import type { ImagePrepPolicy } from "../core/types/image_policy.ts";
import { loadImagePrep } from "../config/image_prep.ts";
import { type EscalationConfig, loadEscalation } from "../config/escalation.ts";
import { loadRecordsConfig, type RecordsConfig } from "../config/records.ts";
import { type BudgetConfig, loadBudget } from "../config/spending.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { type BoundMemoryProvider, loadMemoryProvider } from "../memory/loader.ts";
import { lazyImport } from "../base/lazy_import.ts";
import type { HarnessEnv } from "../config/env.ts";
import type { InstallReport } from "../install/install_report.ts";
import { type McpConfigRead, readMcpConfigs } from "../mcp/config.ts";
import { autoReconcile } from "../install/reconcile.ts";
import { readManifest } from "../config/bookkeeping.ts";
import { readOverlay } from "../config/overlay_read.ts";
import {
  loadModelParams,
  loadSearchParams,
  type ModelParams,
  type Params,
} from "../config/params.ts";
import { loadPrompts, type Prompts, resolveConfigHome } from "../config/prompts.ts";
import { resolveTools, type ToolResolution } from "../config/tool_resolution.ts";
import { narrowPermissions, type PermissionOutcome } from "./permissions.ts";
import { ConfigError } from "../config/errors.ts";
import { errorMessage } from "../base/error_text.ts";
import { join } from "../base/paths.ts";
import type { Guardrails } from "../gate/guardrails.ts";
import type { HostRules } from "../net/host_rules.ts";
import { installFence } from "../net/host_fence.ts";
import { onUrlRefused } from "../net/refusal.ts";
import { hostRefused, urlRefused } from "../journal/catalogue_wake.ts";
import { sdkProfileNotice } from "../config/sdk_profile.ts";

/** The operator's host rules in the config home (`HOST_RULES_FILE` of lib/config/host_rules.ts). */
export const HOST_RULES_FILE = "host_rules.json";

/** The operator's guardrails file in the config home (`GUARDRAILS_FILE` of lib/gate). */
export const GUARDRAILS_FILE = "guardrails.json";

/** How to resolve. */
export interface RuntimeOptions {
  /** Where resolution lines go (default: silent, as on the resolved-config path). */
  readonly journal?: Journal;
  /** Run the upgrade auto-reconcile first (the wake: true; resolved-config: never). */
  readonly reconcile: boolean;
  /**
   * Narrow this process's permissions (the outer sandbox) before any plugin, memory module, MCP
   * or model code loads. Irreversible: in-process tests leave it off.
   */
  readonly narrow?: boolean;
  /** The raw variables plugin `env_set` requirements read (default: none set). */
  readonly vars?: Readonly<Record<string, string | undefined>>;
  /**
   * `host_rules.json` as {@link readHostRules} already read it (the wake reads it before its
   * first platform request); omitted, the resolution reads it itself.
   */
  readonly hostRules?: HostRules | null;
}

/** The resolved runtime. */
export interface Runtime {
  /** The parsed environment it was resolved from. */
  readonly env: HarnessEnv;
  /** The config home (explicit → `BASECRADLE_CONFIG_HOME` → `$HOME/.config/basecradle`). */
  readonly configHome: string;
  /** What the upgrade reconcile did (`null`: not run, not needed, or failed and logged). */
  readonly reconciled: InstallReport | null;
  /** The brief's prompt parts. */
  readonly prompts: Prompts;
  /** Sorted names of the configured MCP servers (every parseable `mcp/*.json`, loaded or not). */
  readonly mcpServers: readonly string[];
  /**
   * The MCP config read made before the sandbox narrowed (no spawn): hand it to `loadMcp` as
   * `configs`. Its warnings are not logged here — `loadMcp` logs them.
   */
  readonly mcpRead: McpConfigRead;
  /** What the permission narrowing did; `null` when `narrow` was off. */
  readonly permissions: PermissionOutcome | null;
  /** The bound memory provider and its reported name. */
  readonly memory: BoundMemoryProvider;
  /** The memory provider's tools (built once; the wake registers these instances). */
  readonly memoryTools: readonly Tool[];
  /** The policy for `HARNESS_PROFILE`. */
  readonly policy: Policy;
  /** The tool resolution: what activates, and why everything else did not. */
  readonly tools: ToolResolution;
  /** `model_params.json`: verbatim, kept for the model call, and the stripped keys. */
  readonly modelParams: ModelParams;
  /**
   * `search_params.json` when the native openrouter `web_search` is active, else `{}`. The file
   * is validated either way: a malformed one refuses even while the tool is off.
   */
  readonly searchParams: Params;
  /**
   * `image_prep.json` resolved for `AI_MODEL`: how a request's images are prepared, `null` when
   * the model's entry switches preparation off (docs/configuration.md#image_prepjson).
   */
  readonly imagePrep: ImagePrepPolicy | null;
  /**
   * `escalation.json`: which triggers notify the operator (docs/configuration.md#escalationjson);
   * off when the file is absent. Enabled without `NTFY_DM_TOKEN` refuses.
   */
  readonly escalation: EscalationConfig;
  /** `records.json`: what turn records keep and for how long (docs/configuration.md#recordsjson). */
  readonly records: RecordsConfig;
  /** `budget.json`: per-agent spending limits (docs/configuration.md#budgetjson). */
  readonly budget: BudgetConfig;
  /**
   * `host_rules.json`, compiled; `null` when there is no file (unrestricted). Under `narrow`
   * the resolution has installed them as the process's fence (docs/security.md#host-rules).
   */
  readonly hostRules: HostRules | null;
  /**
   * `guardrails.json`, parsed and compiled for the gate; `undefined` when there is no file (the
   * gate's defaults apply). Hand it to the gate as it is.
   */
  readonly guardrails: Guardrails | undefined;
}

/**
 * Resolves the runtime for `env`.
 * @throws {ConfigError} for an unreadable prompt, `tools/` or `mcp/` folder, a malformed params
 * file or a missing HOME; `GuardrailsError` for a malformed `guardrails.json`;
 * {@link MemoryProviderError} for an unbindable memory provider; `UnknownStemError` never
 * (no stems are requested here).
 */
export async function resolveRuntime(env: HarnessEnv, options: RuntimeOptions): Promise<Runtime> {
  const journal = options.journal ?? silentJournal;
  // Lenient env fallbacks (a profile typo running locked) must not be silent.
  for (const line of env.warnings) journal.text("WARNING", line);
  // Nor is a Python SDK profile running on another adapter (docs/models.md).
  const substitution = sdkProfileNotice(env);
  if (substitution) journal.text("INFO", substitution);
  const configHome = resolveConfigHome(env);
  const hostRules = options.hostRules !== undefined
    ? options.hostRules
    : await readHostRules(configHome);
  if (options.narrow) journalUrlRefusals(journal);
  if (options.narrow && hostRules) await enforceHostRules(hostRules, journal);
  const reconciled = options.reconcile
    ? await autoReconcile(configHome, env.aiProvider, journal)
    : null;
  // Read once, after the reconcile may have rewritten it: the prompts and the overlay both ask it.
  const manifest = await readManifest(configHome, journal);
  const prompts = await loadPrompts({ configHome, env, manifest });
  // MCP configs are read (never spawned) before narrowing, so a stdio server can keep `run`.
  const mcpRead = await folder(
    () => readMcpConfigs(configHome),
    join(configHome, "mcp"),
    "MCP server configs",
  );
  const mcpServers = mcpRead.servers;
  const permissions = options.narrow
    ? await narrowPermissions(
      { profile: env.profile, mcpStdioServers: mcpRead.stdioServers },
      journal,
    )
    : null;
  // From here on, code from outside the harness may run (a custom memory module).
  const memory = await loadMemoryProvider(env.memoryProvider, {
    home: env.harnessHome,
    journal,
    recallK: env.memoryRecallK,
    palacePath: env.palacePath,
    embeddings: env.memoryEmbeddingsModel
      ? {
        model: env.memoryEmbeddingsModel,
        apiKey: env.aiApiKey,
        baseURL: env.memoryEmbeddingsUrl ?? env.aiBaseUrl,
      }
      : undefined,
  });
  const memoryTools = memory.provider.tools?.() ?? [];
  const policy = env.profile === "unlocked" ? Policy.unlocked() : Policy.locked();
  const overlay = await folder(
    () => readOverlay(configHome, manifest),
    join(configHome, "tools"),
    "tool plugin files",
  );
  const resolve = (loadRefusals: Readonly<Record<string, string>>) =>
    resolveTools({
      provider: env.aiProvider,
      sdk: env.aiSdk,
      surface: env.aiSdkSurface,
      env: options.vars ?? {},
      profile: env.profile,
      overlay,
      memoryTools: memoryTools.map((tool) => tool.name),
      loadRefusals,
      hostRules: hostRules?.file,
    });
  // The shell's veto (it refuses to load as root) needs the shell tool's module; resolution is
  // pure, so it is resolved without it first and again with it only if a plugin asked for it.
  let askedForShell = false;
  let tools = resolve({
    get shell() {
      askedForShell = true;
      return undefined as unknown as string;
    },
  });
  if (askedForShell) tools = resolve(await loadRefusals());
  for (const line of tools.errors) journal.text("ERROR", line);
  for (const line of tools.warnings) journal.text("WARNING", line);
  for (const line of tools.inactive) journal.text("INFO", line);
  const modelParams = await loadModelParams(configHome, { sdk: env.aiSdkConfigured, journal });
  // Validated always (a malformed file stops the wake, docs/configuration.md#model_paramsjson-and-search_paramsjson); used only by the native openrouter web_search.
  const searchFile = await loadSearchParams(configHome);
  const searchParams = env.aiSdk === "openrouter" && tools.builtinNames.includes("web_search")
    ? searchFile
    : {};
  const guardrails = await readGuardrails(configHome);
  const imagePrep = await loadImagePrep(configHome, env.aiModel);
  const escalation = await loadEscalation(configHome, env.ntfyDmToken);
  const records = await loadRecordsConfig(configHome);
  const budget = await loadBudget(configHome);
  return {
    env,
    configHome,
    reconciled,
    prompts,
    mcpServers,
    mcpRead,
    permissions,
    memory,
    memoryTools,
    policy,
    tools,
    modelParams,
    searchParams,
    hostRules,
    guardrails,
    imagePrep,
    escalation,
    records,
    budget,
  };
}

/**
 * `host_rules.json` of `configHome` (lib/config/host_rules.ts), without loading its parser when
 * there is no file, the common case: only a missing file is skipped, so a present but unreadable
 * or malformed one still refuses here.
 * @throws {ConfigError} naming the file, the entry and the fix.
 */
export async function readHostRules(configHome: string): Promise<HostRules | null> {
  try {
    await Deno.stat(join(configHome, HOST_RULES_FILE));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
  }
  const { loadHostRules } = await lazyImport<typeof import("../config/host_rules.ts")>(
    "lib/config/host_rules.ts",
  );
  return await loadHostRules(configHome);
}

/**
 * Makes `rules` this process's fence: every request path built with `fencedFetch` (and
 * web_fetch's hops) is checked from now on, and each refusal writes `host refused`.
 */
export async function enforceHostRules(rules: HostRules, journal: Journal): Promise<void> {
  const { hostFence } = await lazyImport<typeof import("../config/host_rules.ts")>(
    "lib/config/host_rules.ts",
  );
  installFence(hostFence(rules, (refusal) => hostRefused(journal, refusal)));
}

/**
 * Writes `url refused` to `journal` for every URL the fetch path refuses from now on
 * (docs/security.md#one-fetch-path), whether or not there are host rules.
 */
export function journalUrlRefusals(journal: Journal): void {
  onUrlRefused((refusal) => urlRefused(journal, refusal));
}

/**
 * `fn`, which reads the folder `path` of the config home; a failure other than its absence
 * (which `fn` answers itself) becomes a ConfigError naming the folder and the fix, where the raw
 * error would name neither.
 */
async function folder<T>(fn: () => Promise<T>, path: string, what: string): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError({
      variable: path,
      message: `The folder of ${what} ${path} could not be read: ${errorMessage(error)}. Fix: ` +
        "make it a readable directory (the harness runs as the agent's user), or remove it.",
    }, { cause: error });
  }
}

/**
 * `loadGuardrails(configHome)` (lib/gate/guardrails.ts), without loading the gate's module when
 * there is no file — the common case, where the gate's defaults apply: only a missing file is
 * skipped, so a present but unreadable or malformed one still refuses here.
 */
async function readGuardrails(configHome: string): Promise<Guardrails | undefined> {
  try {
    await Deno.stat(join(configHome, GUARDRAILS_FILE));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
  }
  const { loadGuardrails } = await lazyImport<typeof import("../gate/guardrails.ts")>(
    "lib/gate/guardrails.ts",
  );
  return await loadGuardrails(configHome);
}

/** The runtime vetoes resolution applies: `shell` refuses to load as root (docs/security.md#the-policy). */
async function loadRefusals(): Promise<Record<string, string>> {
  const { ShellTool } = await lazyImport<typeof import("../tools/shell/tool.ts")>(
    "lib/tools/shell/tool.ts",
  );
  const shell = new ShellTool().loadRefusal();
  return shell ? { shell } : {};
}
