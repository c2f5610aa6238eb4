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
import { buildProvider, type BuildProviderOptions } from "../providers/factory.ts";
import { type ToolBindings, wakeRegistry } from "./tools.ts";

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
}

/** The provider adapter, the wake's tool registry and the engine over both. */
export function buildEngine(parts: EngineParts): Engine {
  const provider = buildProvider(parts.provider);
  const registry = wakeRegistry(parts.active, parts.bindings, parts.memoryTools, parts.policy);
  return new Engine(provider, registry, {
    journal: parts.journal,
    maxSteps: parts.maxSteps,
    responseRetries: parts.responseRetries,
  });
}
