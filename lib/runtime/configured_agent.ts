/**
 * The configured agent: what one resolved runtime ({@link Runtime}) makes of an agent — its
 * charter (with the permission notices), its knowledge pack, the options its model provider is
 * built from and the inputs of its tool set. `harness wake`, `harness replay`, `harness poll` and
 * the playground's studio all build these parts here, so a record's charter hash, a replay's and
 * a studio's can only differ when the config home does (docs/records.md#what-is-re-run).
 */
import type { KnowledgePack } from "../config/knowledge.ts";
import { lazyImport } from "../base/lazy_import.ts";
import type { Tool } from "../core/types/tool.ts";
import type { Policy } from "../core/policy.ts";
import type { ActiveTool } from "../config/tool_resolution.ts";
import type { BuildProviderOptions } from "../providers/factory.ts";
import { composeCharter, defectsPart, manifestPart, safetyPart } from "./charter.ts";
import { permissionNotices } from "./permissions.ts";
import type { Runtime } from "./resolve.ts";

/** What the charter reads of the runtime. */
export type CharterRuntime = Pick<Runtime, "env" | "prompts" | "tools" | "permissions" | "mcpRead">;

/** What the loaded MCP servers add to the charter (none when no server was started). */
export interface McpCharterParts {
  /** Manifest lines of the servers' tools. */
  readonly notes: readonly { readonly name: string; readonly note?: string }[];
  /** Safety lines of the servers (one per opt-out). */
  readonly notices: readonly string[];
}

/**
 * The charter text, or undefined when every part is blank. Without onboarding it is the system
 * prompt alone. The permission notices are the narrowing's own when this process narrowed, else
 * the ones it would have given: a replay states the opt-outs the recorded wake stated.
 */
export function agentCharter(
  runtime: CharterRuntime,
  mcp?: McpCharterParts,
): string | undefined {
  const { prompts, tools: resolution, env } = runtime;
  if (!env.onboard) return composeCharter({ systemPrompt: prompts.systemPrompt });
  const notices = runtime.permissions?.notices ??
    permissionNotices({ profile: env.profile, mcpStdioServers: runtime.mcpRead.stdioServers });
  return composeCharter({
    systemPrompt: prompts.systemPrompt,
    initialize: prompts.initialize,
    manifest: manifestPart([
      ...resolution.notes.map((n) => ({ name: n.name, note: n.note ?? undefined })),
      ...(mcp?.notes ?? []),
    ]),
    defects: defectsPart(resolution.defects),
    safety: safetyPart([...resolution.safetyNotices, ...notices, ...(mcp?.notices ?? [])]),
  });
}

/**
 * The knowledge pack of the runtime's config home (docs/context.md#the-knowledge-pack); its
 * module loads on first call, so a wake that engages no turn never reads the folder.
 */
export async function agentKnowledge(
  runtime: Pick<Runtime, "configHome">,
): Promise<KnowledgePack> {
  const { loadKnowledgePack } = await lazyImport<typeof import("../config/knowledge.ts")>(
    "lib/config/knowledge.ts",
  );
  return await loadKnowledgePack(runtime.configHome);
}

/** The model the agent runs on, checked present by the caller (`AI_MODEL`, `AI_API_KEY`). */
export interface AgentModel {
  readonly model: string;
  readonly apiKey: string;
  /** OpenAI Responses' `prompt_cache_key` (a wake's, per agent and timeline). */
  readonly promptCacheKey?: string;
}

/** The options the agent's model provider is built from: the model axes, params and built-ins. */
export function agentProviderOptions(
  runtime: Pick<Runtime, "env" | "modelParams" | "searchParams" | "tools">,
  model: AgentModel,
): BuildProviderOptions {
  const { env } = runtime;
  return {
    provider: env.aiProvider,
    sdk: env.aiSdk,
    surface: env.aiSdkSurface,
    model: model.model,
    apiKey: model.apiKey,
    baseURL: env.aiBaseUrl,
    params: runtime.modelParams.params,
    searchParams: runtime.searchParams,
    builtins: runtime.tools.builtinNames,
    ...(model.promptCacheKey === undefined ? {} : { promptCacheKey: model.promptCacheKey }),
  };
}

/** The inputs of the agent's tool set (lib/runtime/tool_set.ts builds the tools from them). */
export interface AgentToolInputs {
  readonly active: readonly ActiveTool[];
  readonly memoryTools: readonly Tool[];
  readonly policy: Policy;
}

/** What the tool set is built from: the resolution's active tools, memory's tools, the policy. */
export function agentToolInputs(
  runtime: Pick<Runtime, "tools" | "memoryTools" | "policy">,
): AgentToolInputs {
  return {
    active: runtime.tools.activeTools,
    memoryTools: runtime.memoryTools,
    policy: runtime.policy,
  };
}
