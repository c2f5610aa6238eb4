/**
 * `TimelineAgent.fromEnv`: the same resolution a wake makes (docs/operating.md#run-under-a-router)
 * — env, the runtime (prompts, the outer sandbox, memory, tools, params), the provider, the
 * platform client and the gate — turned into {@link TimelineAgentOptions}. What poll mode leaves
 * out is deliberate (docs/poll.md): no upgrade reconcile (no writes to the config home from a
 * laptop loop), no claims, marks, breaker, brief or memory hooks. The provider options and the
 * tool set come from the configured agent (lib/runtime/configured_agent.ts) as a wake's do; the
 * charter is the seeded one a brief-less wake uses (the prompt files, no manifest or notices),
 * followed by the config home's knowledge pack as a wake renders it.
 */
import { isUuid } from "../base/uuid.ts";
import { MISSING_API_KEY, parseEnv } from "../config/env.ts";
import { loadCharter } from "../config/prompts.ts";
import { resolveRuntime } from "../runtime/resolve.ts";
import { Gate } from "../gate/mod.ts";
import type { Journal } from "../journal/journal.ts";
import { registerSecret } from "../journal/scrub.ts";
import { journalFromEnv } from "../journal/stream_journal.ts";
import { closeMemoryProvider } from "../memory/hooks.ts";
import { PlatformClient } from "../platform/mod.ts";
import { hasCredentials, NO_CREDENTIALS_IN_ENV } from "../platform/config.ts";
import { buildProvider } from "../providers/factory.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { buildTools, loadOptionalFactories } from "../runtime/tool_set.ts";
import {
  agentKnowledge,
  agentProviderOptions,
  agentToolInputs,
} from "../runtime/configured_agent.ts";
import type { TimelineAgentOptions } from "./options.ts";

/** How {@link pollOptionsFromEnv} builds. */
export interface FromEnvOptions {
  /** Where lines go (default: stderr at `HARNESS_LOG_LEVEL`). */
  readonly journal?: Journal;
  /**
   * Narrow this process's permissions as a wake does (default true): under the locked profile
   * `run` is revoked, irreversibly. In-process tests and hosts that need subprocesses pass false.
   */
  readonly narrow?: boolean;
}

/** A configuration problem poll mode itself detects. */
export class PollConfigError extends Error {
  /** Names the error class in messages and logs. */
  override name = "PollConfigError";
}

/**
 * Resolves everything a {@link TimelineAgent} needs from `raw`.
 * @throws {PollConfigError} for a missing or malformed timeline, model or key; `ConfigError`,
 * `ProviderConfigError` or `MemoryProviderError` for what the shared resolution refuses.
 */
export async function pollOptionsFromEnv(
  timeline: string | undefined,
  raw: Readonly<Record<string, string | undefined>>,
  options: FromEnvOptions = {},
): Promise<TimelineAgentOptions> {
  const read = (name: string) => raw[name];
  const journal = options.journal ?? journalFromEnv(read);
  const env = parseEnv(raw);
  const target = (timeline ?? env.timeline ?? "").trim();
  if (!target) {
    throw new PollConfigError(
      "No timeline to watch — pass one (harness poll --timeline <uuid>) or set BASECRADLE_TIMELINE.",
    );
  }
  if (!isUuid(target)) {
    throw new PollConfigError(`The timeline must be a uuid, got '${target}'.`);
  }
  if (!env.aiModel) {
    throw new PollConfigError("AI_MODEL is required — set it to the model id this agent runs on.");
  }
  if (!env.aiApiKey) throw new PollConfigError(MISSING_API_KEY);
  if (!hasCredentials(env.platform)) throw new PollConfigError(NO_CREDENTIALS_IN_ENV);
  const runtime = await resolveRuntime(env, {
    journal,
    reconcile: false,
    narrow: options.narrow ?? true,
    vars: raw,
  });
  const memory = runtime.memory.provider;
  try {
    const { configHome } = runtime;
    const model = { model: env.aiModel, apiKey: env.aiApiKey };
    const provider = buildProvider(agentProviderOptions(runtime, model));
    const { active, memoryTools, policy } = agentToolInputs(runtime);
    for (const secret of [env.aiApiKey, env.token, env.password]) registerSecret(secret);
    const client = PlatformClient.fromEnv({}, read);
    const optional = await loadOptionalFactories(active, read);
    const tone = runtime.guardrails?.tone;
    const gate = new Gate({
      client,
      guardrails: runtime.guardrails,
      journal,
      secrets: [env.token, env.aiApiKey, env.password],
      // The wake's own judge, loaded (with its SDK call) only when guardrails.json asks for one.
      tone: tone && (await lazyImport<typeof import("../wake/tone_judge.ts")>(
        "lib/wake/tone_judge.ts",
      )).wakeToneJudge(tone, agentProviderOptions(runtime, model)),
    });
    return {
      client,
      timeline: target.toLowerCase(),
      provider,
      // The wake's own constructors and plugin renames, bound to the poll loop's context.
      tools: (context) => buildTools(active, { context, configHome }, memoryTools, optional),
      policy,
      charter: await loadCharter({ configHome, env }),
      // Read once, with the charter; a pack over its caps refuses here, naming file and fix.
      knowledge: await agentKnowledge(runtime),
      onboard: env.onboard,
      contextMessages: env.contextMessages,
      gate,
      journal,
      maxSteps: env.maxSteps,
      responseRetries: env.responseRetries,
      imagePrep: runtime.imagePrep,
      memory,
    };
  } catch (error) {
    await closeMemoryProvider(memory, journal);
    throw error;
  }
}
