/**
 * Everything only an engaged turn needs: the turn runner, the engine, the model provider's
 * adapter, the tool classes and the brief. The wake loads this module through lib/wake/engaged_half.ts
 * the first time it engages a turn, so a wake with nothing to answer never reads, parses or runs any
 * of it. Start-up keeps the order docs/invariants.md#7-safe-by-default-enforced-twice asks for: the reconcile and the sandbox narrowing
 * happen before the first line of this module's graph can run.
 */
import { Engine } from "../../core/engine.ts";
import { loadMcp, type McpLoad } from "../../mcp/mod.ts";
import { validateModelAxes } from "../../providers/axes.ts";
import { buildProvider } from "../../providers/factory.ts";
import { loadCodeExecution, loadOptionalFactories, wakeRegistry } from "../../runtime/tool_set.ts";
import type { EngineParts, WakeMcpOptions } from "../engaged_half.ts";

export { drive, engage } from "./turn.ts";

/** The provider adapter, the wake's tool registry and the engine over both. */
export async function buildEngine(parts: EngineParts): Promise<Engine> {
  // The code bridge (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox) shares one container between the provider's
  // requests, code_attach and the hook that stores a code run's files as assets.
  const code = await loadCodeExecution({
    ...parts.provider,
    ...validateModelAxes(parts.provider),
  });
  const provider = buildProvider({ ...parts.provider, codeContainer: code?.container });
  const registry = wakeRegistry(
    parts.active,
    parts.bindings,
    parts.memoryTools,
    parts.policy,
    { ...await loadOptionalFactories(parts.active), ...code?.factories },
  );
  for (const tool of parts.extraTools ?? []) registry.register(tool);
  return new Engine(provider, registry, {
    journal: parts.journal,
    maxSteps: parts.maxSteps,
    responseRetries: parts.responseRetries,
    imagePrep: parts.imagePrep,
    hooks: code ? [code.hook(parts.bindings)] : undefined,
  });
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
