/**
 * Everything a wake loads from its environment and config home before it touches a timeline, as
 * ONE function ({@link loadWakeConfig}): the shared runtime resolution (every config-home file
 * that can refuse: prompts, the tool overlay, `model_params.json`, `search_params.json`,
 * `guardrails.json`, `host_rules.json`, `image_prep.json`, `escalation.json`, `records.json`,
 * `budget.json`, the `mcp/` folder, the memory binding), then the one rule a wake adds on top: an
 * agent without its `messages` tool cannot speak. `harness wake`, `harness resolved-config`,
 * `harness install`, `harness verify` and `harness doctor` all call it, so a config home that
 * stops a wake fails every one of them with the same sentence
 * (docs/configuration.md#when-a-file-is-wrong). The knowledge pack, which a wake reads only when
 * a turn engages, is judged by {@link checkWakeConfig} and `resolved-config` on top.
 */
import { oneLineError } from "../base/error_text.ts";
import { join } from "../base/paths.ts";
import { withAgentEnv } from "../config/agent_env.ts";
import { type HarnessEnv, parseEnv } from "../config/env.ts";
import { ConfigError } from "../config/errors.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import type { KnowledgePack } from "../config/knowledge.ts";
import { closeMemoryProvider } from "../memory/hooks.ts";
import { agentKnowledge } from "./configured_agent.ts";
import { resolveRuntime, type Runtime, type RuntimeOptions } from "./resolve.ts";

/**
 * Resolves the runtime for `env` exactly as a wake does and refuses what a wake refuses.
 * @throws {ConfigError} (or the resolution's own typed error) with the sentence a wake prints.
 */
export async function loadWakeConfig(
  env: HarnessEnv,
  options: RuntimeOptions,
): Promise<Runtime> {
  const runtime = await resolveRuntime(env, options);
  try {
    requireSpeech(runtime);
  } catch (error) {
    await closeMemoryProvider(runtime.memory.provider);
    throw error;
  }
  return runtime;
}

/**
 * An agent speaks only through its `messages` tool. Without it (its plugin file broken, removed
 * or renamed away) a wake would take items it can never answer: claims committed, marks moved,
 * messages lost for good. So the wake refuses before it claims anything, naming the file, and the
 * router's retry finds the item still pending once the file is repaired.
 */
function requireSpeech(runtime: Runtime): void {
  if (runtime.tools.activeTools.some((tool) => tool.tool === "messages")) return;
  const file = join(runtime.configHome, "tools", "messages.json");
  const status = runtime.tools.stems["messages"];
  const why = status?.reason ?? "no plugin activates it";
  throw new ConfigError({
    variable: file,
    message: `The messages tool is not active (${file}: ${why}), so this agent cannot speak; ` +
      "no item was taken. Repair the file, or delete it and run `harness install` to restore " +
      "the shipped default.",
  });
}

/** What {@link checkWakeConfig} found. */
export type WakeConfigVerdict =
  | {
    readonly ok: true;
    /** The config home judged. */
    readonly configHome: string;
    /** Active function tools and built-ins, as the wake would build them. */
    readonly tools: number;
    readonly builtins: number;
    /** The knowledge pack a turn would render (docs/context.md#the-knowledge-pack). */
    readonly knowledge: KnowledgePack;
  }
  | {
    readonly ok: false;
    /** What the sentence is about: the file (a path) or variable a wake names. */
    readonly subject: string;
    /** The one line a wake prints after `harness wake: ` for this refusal. */
    readonly sentence: string;
  };

/** An environment already filled in from the config home's `agent.env`, and parsed. */
export interface FilledEnvironment {
  /** The variables, agent.env's filling in what the command's own leave unset. */
  readonly vars: Readonly<Record<string, string | undefined>>;
  /**
   * `vars` parsed, as `harness doctor` parses them leniently so that one refused variable,
   * reported on its own row, does not hide the config home from this check.
   */
  readonly env: HarnessEnv;
}

/**
 * What to judge: the command's environment, which the check fills in from `agent.env` itself, or
 * one a caller already filled in (`harness doctor` reads agent.env once, for all its rows).
 */
export type WakeConfigCheck = {
  /** The environment the command runs in (the agent's, as the router gives it to a wake). */
  readonly vars: Readonly<Record<string, string | undefined>>;
  /** `--config-home`, in place of `BASECRADLE_CONFIG_HOME`. */
  readonly configHome?: string;
} | {
  /** The environment as a wake would parse it, agent.env already read. */
  readonly filled: FilledEnvironment;
};

/**
 * Would a wake load this configuration? Judged by {@link loadWakeConfig} itself, read-only (no
 * reconcile, no narrowing, no model client, no platform call), in the environment a wake would
 * parse: `vars`, with every variable they leave unset filled in from the config home's
 * `agent.env` (so a check run from an operator's shell judges the agent's settings, not the
 * shell's). The requirements of a wake that are not configuration (`HARNESS_HOME`, `AI_MODEL`,
 * `AI_API_KEY`, a platform credential) are `harness doctor`'s other rows, not judged here.
 */
export async function checkWakeConfig(check: WakeConfigCheck): Promise<WakeConfigVerdict> {
  try {
    const { vars, env } = "filled" in check
      ? check.filled
      : await fillEnvironment(check.vars, check.configHome);
    const runtime = await loadWakeConfig(env, { reconcile: false, narrow: false, vars });
    await closeMemoryProvider(runtime.memory.provider);
    // A wake reads the pack only when a turn engages; a check judges it now, as that turn would.
    const knowledge = await agentKnowledge(runtime);
    return {
      ok: true,
      configHome: runtime.configHome,
      tools: runtime.tools.tools.length,
      builtins: runtime.tools.builtins.length,
      knowledge,
    };
  } catch (error) {
    return { ok: false, subject: subjectOf(error), sentence: oneLineError(error) };
  }
}

/**
 * `vars` (with `configHome` in place of `BASECRADLE_CONFIG_HOME`) filled in from that config
 * home's `agent.env`, and parsed strictly, as a wake parses them.
 * @throws {ConfigError} when no config home can be named, or a variable does not parse.
 */
async function fillEnvironment(
  given: Readonly<Record<string, string | undefined>>,
  configHome: string | undefined,
): Promise<FilledEnvironment> {
  const vars: Record<string, string | undefined> = { ...given };
  if (configHome !== undefined) vars.BASECRADLE_CONFIG_HOME = configHome;
  const home = resolveConfigHome({ configHome: vars.BASECRADLE_CONFIG_HOME, home: vars.HOME });
  const merged = await withAgentEnv(vars, home);
  return { vars: merged, env: parseEnv(merged) };
}

/** The file or variable a refusal is about: a ConfigError's, a typed error's `file`, else none. */
function subjectOf(error: unknown): string {
  if (error instanceof ConfigError) return error.variable;
  const file = (error as { file?: unknown } | null)?.file;
  return typeof file === "string" && file ? file : "configuration";
}
