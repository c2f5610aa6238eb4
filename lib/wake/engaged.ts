/**
 * Everything only an engaged turn needs: the turn runner, the engine, the model provider's
 * adapter, the tool classes and the brief. The wake imports this module (with `lazyImport`) the
 * first time it engages a turn, so a wake with nothing to answer never reads, parses or runs any
 * of it. Start-up stays where DESIGN invariant 7 wants it: the reconcile and the sandbox narrowing
 * happen before the first line of this module's graph can run.
 */
import { Engine } from "../core/engine.ts";
import type { Policy } from "../core/policy.ts";
import type { Tool } from "../core/tool.ts";
import type { ActiveTool } from "../config/resolve.ts";
import type { Journal } from "../journal/journal.ts";
import { loadMcp, type McpConfigRead, type McpLoad } from "../mcp/mod.ts";
import { buildProvider, type BuildProviderOptions } from "../providers/factory.ts";
import { loadOptionalFactories, type ToolBindings, wakeRegistry } from "./tools.ts";

export { drive, engage } from "./turn.ts";
export { composeCharter, defectsPart, manifestPart, safetyPart } from "./brief.ts";

/** What the engine is built from: the provider's options, the resolved tools, the loop's knobs. */
export interface EngineParts {
  readonly provider: BuildProviderOptions;
  readonly active: readonly ActiveTool[];
  readonly bindings: ToolBindings;
  readonly memoryTools: readonly Tool[];
  readonly policy: Policy;
  readonly journal: Journal;
  readonly maxSteps: number;
  readonly responseRetries: number;
  /** Tools beyond the resolution (the MCP proxies), registered after it under the same policy. */
  readonly extraTools?: readonly Tool[];
}

/** The provider adapter, the wake's tool registry and the engine over both. */
export async function buildEngine(parts: EngineParts): Promise<Engine> {
  const provider = buildProvider(parts.provider);
  const registry = wakeRegistry(
    parts.active,
    parts.bindings,
    parts.memoryTools,
    parts.policy,
    await loadOptionalFactories(parts.active),
  );
  for (const tool of parts.extraTools ?? []) registry.register(tool);
  return new Engine(provider, registry, {
    journal: parts.journal,
    maxSteps: parts.maxSteps,
    responseRetries: parts.responseRetries,
  });
}

/** What the wake's MCP step needs. */
export interface WakeMcpOptions {
  readonly configHome: string;
  readonly timeoutSeconds: number;
  readonly journal: Journal;
  /** The config read made before the sandbox narrowed (`runtime.mcpRead`). */
  readonly configs: McpConfigRead;
  /** Inherited variables withheld from stdio servers (the harness's secrets). */
  readonly withheldEnv: readonly string[];
}

/**
 * The MCP step of an engaged wake: `undefined` (and nothing loaded, no SDK) when `mcp/` holds
 * nothing at all; otherwise `loadMcp` over the pre-narrowing read, which never fails the wake.
 */
export async function loadWakeMcp(options: WakeMcpOptions): Promise<McpLoad | undefined> {
  const { configs } = options;
  if (!configs.configs.length && !configs.warnings.length) return undefined;
  return await loadMcp({
    configHome: options.configHome,
    timeoutSeconds: options.timeoutSeconds,
    journal: options.journal,
    configs,
    withheldEnv: options.withheldEnv,
  });
}
