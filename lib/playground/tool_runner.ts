/**
 * Running one of the agent's tools alone, from the page (docs/playground.md#run-one-tool): the
 * tools the agent's configuration offers it, resolved as its wake resolves them
 * (`loadWakeConfig`), registered under the same policy, bound to the agent's own platform client
 * and to an outbound gate with the agent's guardrails — so a tool the policy withholds is never
 * built and a `messages` post is still judged by the gate. Loaded only when the page asks.
 *
 * What differs from a wake: the tools run in the playground's own process, which a wake's
 * Deno-permission narrowing never reaches, so the opt-in `shell` tool is not offered here; no MCP
 * server is started, so MCP tools are not offered either; and nothing is written to the
 * transcript (the model did not call it).
 */
import { errorMessage } from "../base/error_text.ts";
import { parseEnv } from "../config/env.ts";
import { runToolCall } from "../core/dispatch.ts";
import { Gate } from "../gate/mod.ts";
import { MemoryJournal } from "../journal/stream_journal.ts";
import { closeMemoryProvider } from "../memory/mod.ts";
import { PlatformClient } from "../platform/mod.ts";
import { loadOptionalFactories, wakeRegistry, workingStateTools } from "../runtime/tool_set.ts";
import { loadWakeConfig } from "../runtime/wake_config.ts";
import { agentToolInputs } from "../runtime/configured_agent.ts";
import { WorkingStateStore } from "../home/working_state.ts";
import { WakeContext } from "../wake/context.ts";

/** Tools never offered to the page; why is in the module comment. */
export const NOT_FROM_THE_PAGE: ReadonlySet<string> = new Set(["shell", "summarize"]);

/** Who the tools act as, and with which configuration. */
export interface ToolAgent {
  /** The wake's environment: HARNESS_HOME, the config home, the platform, the model. */
  readonly env: Readonly<Record<string, string>>;
  readonly uuid: string;
  readonly handle: string;
  readonly token: string;
}

/** One tool as the page lists it. */
export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/** What one run produced. */
export interface ToolRunView {
  readonly name: string;
  /** `ok`, or the tool's `invalid`/`refused`/`blocked`, or `error`. */
  readonly outcome: string;
  readonly result: string;
  /** The journal lines the run wrote (the `tool` line, a gate refusal, …). */
  readonly journal: readonly string[];
  /** The gate's verdicts on posts the run tried. */
  readonly verdicts: readonly { verdict: string; checks: readonly string[] }[];
}

/** A registry of the agent's tools on `timeline`, and how to release what it holds. */
async function agentRegistry(agent: ToolAgent, timeline: string, journal: MemoryJournal) {
  const env = parseEnv({ ...agent.env });
  const runtime = await loadWakeConfig(env, {
    journal,
    reconcile: false,
    narrow: false,
    vars: { ...agent.env },
  });
  const client = new PlatformClient({ baseUrl: env.baseUrl!.href, token: agent.token });
  const gate = new Gate({
    client,
    guardrails: runtime.guardrails,
    journal,
    secrets: [agent.token, env.aiApiKey],
  });
  const context = new WakeContext({
    client,
    gate,
    timeline,
    self: { uuid: agent.uuid, handle: agent.handle },
    journal,
    model: env.aiModel,
  });
  const tools = agentToolInputs(runtime);
  const active = tools.active.filter((t) => !NOT_FROM_THE_PAGE.has(t.name));
  const registry = wakeRegistry(
    active,
    { context, configHome: runtime.configHome },
    tools.memoryTools,
    tools.policy,
    await loadOptionalFactories(active, (name) => agent.env[name]),
  );
  const notes = new WorkingStateStore(env.harnessHome!, timeline);
  for (const tool of workingStateTools(notes)) {
    if (!registry.has(tool.name)) registry.register(tool);
  }
  return {
    registry,
    context,
    builtins: new Set(runtime.tools.builtinNames),
    close: () => closeMemoryProvider(runtime.memory.provider),
  };
}

/** The tools the page may run for the agent on `timeline`, by name. */
export async function listTools(agent: ToolAgent, timeline: string): Promise<ToolInfo[]> {
  const built = await agentRegistry(agent, timeline, new MemoryJournal());
  try {
    return built.registry.specs().map((spec) => ({
      name: spec.name,
      description: spec.description,
      parameters: spec.parameters as Record<string, unknown>,
    }));
  } finally {
    await built.close();
  }
}

/**
 * Runs `name` with `args` as the agent, on `timeline`. A tool the agent is not offered answers
 * as the engine answers an unknown tool; bad arguments come back as the tool's own error text.
 */
export async function runTool(
  agent: ToolAgent,
  timeline: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolRunView> {
  const journal = new MemoryJournal({ minLevel: "INFO" });
  const built = await agentRegistry(agent, timeline, journal);
  try {
    const run = await runToolCall(
      { id: `studio_${crypto.randomUUID().slice(0, 8)}`, name, arguments: args },
      {
        registry: built.registry,
        builtins: built.builtins,
        journal,
        now: () => new Date(),
      },
    );
    return {
      name,
      outcome: run.outcome,
      result: run.text,
      journal: journal.lines,
      verdicts: built.context.verdicts.map((v) => ({ verdict: v.verdict, checks: v.checks })),
    };
  } catch (error) {
    return {
      name,
      outcome: "error",
      result: errorMessage(error),
      journal: journal.lines,
      verdicts: [],
    };
  } finally {
    await built.close();
  }
}
