/**
 * `harness resolved-config` (and `harness wake --resolved-config`): what this agent will actually
 * run, as JSON (docs/configuration.md#resolved-config), computed by the same `loadWakeConfig` a
 * wake uses — so it is the ground truth, not a declared list. Read-only: no reconcile, no model
 * client, no key needed, no platform call. The process narrows its permissions first, exactly as a
 * wake does, so `sandbox` reports the state a wake would run under.
 *
 * Errors (bad env, a malformed `model_params.json`, `search_params.json` or `guardrails.json`, an
 * unreadable prompt, an unbindable memory provider) are one stderr line and exit 1, with nothing
 * on stdout: the same refusal, in the same words, that stops a wake
 * (docs/configuration.md#when-a-file-is-wrong), because both come from `loadWakeConfig`.
 */
import { CONFIG_HOME_FLAG } from "./flag_values.ts";
import { errorMessage } from "../base/error_text.ts";
import { type Command, type Io, processIo } from "./command.ts";
import { sdkVersion } from "./version.ts";
import { parseEnv } from "../config/env.ts";
import type { Params } from "../config/params.ts";
import type { Runtime } from "../runtime/resolve.ts";
import { loadWakeConfig } from "../runtime/wake_config.ts";
import { permissionReport, type PermissionsReport } from "../runtime/permissions.ts";
import { hostRulesReport } from "../runtime/rules_report.ts";
import { dumpsIndented, parsePythonJson, pythonFloatRepr, sortKeysDeep } from "../pycompat/json.ts";
import { closeMemoryProvider } from "../memory/hooks.ts";
import { loadMcp, type McpLoad } from "../mcp/mod.ts";
import { SECRET_VARIABLES } from "../config/env.ts";
import { daySpend, utcDay } from "../home/budget.ts";
import { VERSION } from "../base/version.ts";
import { type KnowledgePack, loadKnowledgePack } from "../config/knowledge.ts";

/** How {@link runResolvedConfig} runs. */
export interface ResolvedConfigOptions {
  /** The environment (default: the process's). */
  readonly env?: Record<string, string>;
  /** Output sinks (default: the process's streams). */
  readonly io?: Io;
  /** The stderr prefix: `harness resolved-config` or `harness wake`. */
  readonly prefix?: string;
  /** Narrow this process as a wake would (default true; irreversible, so tests in-process pass false). */
  readonly narrow?: boolean;
}

/** Prints the document and resolves to the exit code (0, or 1 with one stderr line). */
export async function runResolvedConfig(options: ResolvedConfigOptions = {}): Promise<number> {
  const io = options.io ?? processIo;
  const prefix = options.prefix ?? "harness resolved-config";
  const raw = options.env ?? Deno.env.toObject();
  let text: string;
  try {
    const env = parseEnv(raw);
    // A lenient fallback (a HARNESS_PROFILE typo running locked) is said here as a wake says it.
    for (const line of env.warnings) io.stderr(`WARNING ${line}\n`);
    const runtime = await loadWakeConfig(env, {
      reconcile: false,
      narrow: options.narrow ?? true,
      vars: raw,
    });
    let mcp: McpLoad | undefined;
    try {
      // Ground truth, as a wake would see it: the approved servers are connected and listed.
      const read = runtime.mcpRead;
      if (read.configs.length) {
        mcp = await loadMcp({
          configHome: runtime.configHome,
          timeoutSeconds: env.mcpTimeoutSeconds,
          configs: read,
          withheldEnv: SECRET_VARIABLES,
        });
      }
      const document = resolvedConfigDocument(runtime, {
        modelParams: runtime.modelParams.raw,
        sandbox: await permissionReport(),
        mcp,
      });
      document.budget = await budgetReport(runtime);
      document.knowledge = knowledgeReport(await loadKnowledgePack(runtime.configHome));
      text = `${dumpsIndented(sortKeysDeep(document))}\n`;
    } finally {
      await mcp?.close();
      await closeMemoryProvider(runtime.memory.provider);
    }
  } catch (error) {
    const message = errorMessage(error);
    io.stderr(`${prefix}: ${message.replace(/\s+/g, " ").trim()}\n`);
    return 1;
  }
  io.stdout(text);
  return 0;
}

/**
 * The fields of docs/configuration.md#resolved-config, the additive `runtime` and `sandbox` too.
 */
export function resolvedConfigDocument(
  runtime: Runtime,
  extra: {
    readonly modelParams: Params;
    readonly sandbox: PermissionsReport;
    /** The connected MCP servers: their tools join `tools`, what did not load joins `skipped`. */
    readonly mcp?: Pick<McpLoad, "tools" | "skipped">;
  },
): Record<string, unknown> {
  const { env, tools } = runtime;
  const mcpTools = extra.mcp?.tools.map((tool) => tool.name) ?? [];
  // Without a load (no config parsed), the files that did not parse are still skipped servers,
  // as a wake's MCP load reports them.
  const mcpSkipped = (extra.mcp?.skipped ?? runtime.mcpRead.skipped).map((item) => item.name);
  // Python writes the timeout as a float (`20.0`); a parsed holder carries that spelling.
  const document = parsePythonJson(
    `{"mcp_request_timeout": ${pythonFloatRepr(env.mcpTimeoutSeconds)}}`,
  ) as Record<string, unknown>;
  Object.assign(document, {
    harness_version: VERSION,
    ai_provider: env.aiProvider,
    ai_sdk: env.aiSdk,
    ai_sdk_configured: env.aiSdkConfigured,
    ai_sdk_surface: env.aiSdkSurface,
    ai_sdk_version: sdkVersion(env.aiSdk),
    // The platform client ships inside this harness, so its version is the harness's: never null.
    platform_sdk_version: VERSION,
    ai_model: env.aiModel ?? null,
    active_profile: env.profile,
    max_context_tokens: env.maxContextTokens ?? null,
    memory_provider: runtime.memory.name,
    memory_provider_version: runtime.memory.version,
    memory_backend: runtime.memory.backend,
    tools: [...tools.tools, ...mcpTools].sort(),
    builtins: [...tools.builtins].sort(),
    skipped: [...tools.skipped.map((item) => item.name), ...mcpSkipped].sort(),
    opt_in_tools: [...tools.optInTools].sort(),
    overlay_tool_stems: tools.overlayToolStems === null ? null : [...tools.overlayToolStems].sort(),
    mcp_servers: [...runtime.mcpServers].sort(),
    model_params: extra.modelParams,
    model_params_stripped: [...runtime.modelParams.stripped].sort(),
    runtime: `deno ${Deno.version.deno}`,
    escalation: { enabled: runtime.escalation.enabled, on: [...runtime.escalation.on] },
    sandbox: extra.sandbox,
    host_rules: hostRulesReport(runtime.hostRules),
  });
  return document;
}

/** `harness resolved-config`. */
export const resolvedConfigCommand: Command<{ readonly "config-home": typeof CONFIG_HOME_FLAG }> = {
  name: "resolved-config",
  usage: `Usage: harness resolved-config [--config-home DIR]

Print, as JSON (sorted keys, indent 2), what this agent will actually run: provider, SDK,
model, profile, memory backend, the active tool set and built-ins, what was skipped and why
not, model_params.json, the knowledge pack (files and sha256) and the live permission sandbox. Computed by the same resolution a
wake uses; builds no model client, needs no API key, calls no platform, writes nothing.
Also: harness wake --resolved-config.

Options:
  --config-home DIR  the config home (default: $BASECRADLE_CONFIG_HOME, else
                     $HOME/.config/basecradle)
  --version          print the version line and exit
  -h, --help         show this help

Exit codes: 0 printed; 1 a configuration error (one line on stderr, nothing on stdout);
2 a usage error.
`,
  options: { "config-home": CONFIG_HOME_FLAG },
  run: ({ values }) => {
    const flag = values["config-home"];
    if (flag === undefined) return runResolvedConfig();
    return runResolvedConfig({ env: { ...Deno.env.toObject(), BASECRADLE_CONFIG_HOME: flag } });
  },
};

/**
 * The additive `knowledge` key (docs/configuration.md#knowledge): the pack's files in the order
 * they are rendered, their bytes, and the `knowledge_sha256` every turn record will carry.
 */
function knowledgeReport(pack: KnowledgePack): Record<string, unknown> {
  return {
    files: pack.files.map((file) => ({ name: file.name, bytes: file.bytes })),
    bytes: pack.files.reduce((sum, file) => sum + file.bytes, 0),
    sha256: pack.sha256,
  };
}

/**
 * The additive `budget` key (docs/configuration.md#budgetjson): the limits as written (null:
 * none) and today's (UTC) spend from the ledger under HARNESS_HOME, null without one.
 */
async function budgetReport(runtime: Runtime): Promise<Record<string, unknown>> {
  const { budget, env } = runtime;
  const home = env.harnessHome?.trim();
  const day = utcDay(new Date());
  return {
    usd_per_wake: budget.usdPerWake,
    usd_per_day: budget.usdPerDay,
    tokens_per_wake: budget.tokensPerWake,
    tokens_per_day: budget.tokensPerDay,
    today: home ? { day, ...await daySpend(home, day) } : null,
  };
}
