/**
 * Assembling a wake: from the command line's request and the process environment to the one
 * {@link Wake} every later step takes. The order is observable (which error wins, which request
 * is made): the environment → HARNESS_HOME, AI_MODEL and the API key → the host rules
 * (docs/security.md#host-rules) → claim liveness → the shared runtime resolution (reconcile →
 * prompts → permissions narrow → memory → tools → params) → the platform client → the timeline (404 ⇒ skip) → identity → guardrails. The provider, the
 * tool registry and the gate are only described here; the first engaged turn builds them, so an
 * idle wake loads none of them.
 */
import { join } from "../base/paths.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { type HarnessEnv, MISSING_API_KEY, parseEnv, SECRET_VARIABLES } from "../config/env.ts";
import { FileSessionStore } from "../core/transcript/session.ts";
import { ClaimStore, newWakeId } from "../home/claims.ts";
import { livenessSnapshot } from "../home/liveness.ts";
import { sweepStaleTemps } from "../home/temps.ts";
import type { Journal } from "../journal/journal.ts";
import { registerSecret } from "../journal/scrub.ts";
import { NotFoundError, PlatformClient, type PlatformClientOptions } from "../platform/mod.ts";
import { hasCredentials, NO_CREDENTIALS_IN_ENV } from "../platform/config.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import {
  enforceHostRules,
  journalUrlRefusals,
  readHostRules,
  type Runtime,
} from "../runtime/resolve.ts";
import { loadWakeConfig } from "../runtime/wake_config.ts";
import {
  agentCharter,
  agentKnowledge,
  agentProviderOptions,
  agentToolInputs,
} from "../runtime/configured_agent.ts";
import { WakeContext } from "./context.ts";
import { BreakerGate } from "./breaker_gate.ts";
import { DeferredGate } from "./deferred_gate.ts";
import { engaged } from "./engaged_half.ts";
import { EngineSlot, type Wake, type WakeSettings, type WakeTriggers } from "./wake_state.ts";
import { promptCacheKey } from "../providers/cache_key.ts";

/** A configuration problem the wake itself detects (exit 1, one line). */
export class WakeConfigError extends Error {
  override name = "WakeConfigError";
}

/** Builds the wake; `"skip"` when the timeline no longer exists. */
export async function assemble(
  timeline: string,
  triggers: WakeTriggers,
  rawEnv: Record<string, string>,
  journal: Journal,
): Promise<Wake | "skip"> {
  // The command line settled the timeline and the triggers (a flag wins over its variable).
  const env = parseEnv(rawEnv, { timeline, ...triggers });
  const { home, model, apiKey } = required(env);
  const startedAt = startOf(env);
  registerSecret(env.aiApiKey);
  registerSecret(env.token);
  registerSecret(env.password);
  // The fetch path's refusals and the host rules guard every request, so they are in force
  // before the first one below.
  journalUrlRefusals(journal);
  const hostRules = await readHostRules(resolveConfigHome(env));
  if (hostRules) await enforceHostRules(hostRules, journal);
  // The timeline and the dashboard are fetched while the configuration resolves (each is a
  // network round trip in production) and awaited after it, so errors keep their order:
  // configuration, then credentials, then the timeline (404 ⇒ skip), then the dashboard.
  const early = startPlatformReads(timeline, env.platform);
  // `kill(pid, 0)` needs run permission, which the locked profile revokes: judge claim owners now.
  const isAlive = livenessSnapshot(home, timeline);
  // Temp files a killed write left beside this timeline's files go now, judged the same way.
  sweepStaleTemps(home, timeline, { isAlive, journal });
  // The same load resolved-config, install, verify and doctor judge (docs/configuration.md#when-a-file-is-wrong).
  const runtime = await loadWakeConfig(env, {
    journal,
    reconcile: true,
    narrow: true,
    vars: rawEnv,
    hostRules,
  });
  if ("error" in early) throw early.error;
  const { client } = early;
  const viewers = await viewersOf(early.timeline);
  if (viewers === "gone") return "skip"; // deleted while the delivery queued
  const { identity } = await early.dashboard;
  const { guardrails } = runtime; // validated by the resolution, as resolved-config does
  const gate = new DeferredGate(async () => {
    const { Gate } = await lazyImport<typeof import("../gate/gate.ts")>("lib/gate/gate.ts");
    // The tone judge and its SDK load only when guardrails.json asks for one.
    const tone = guardrails?.tone === undefined ? undefined : (await lazyImport<
      typeof import("./tone_judge.ts")
    >("lib/wake/tone_judge.ts")).wakeToneJudge(guardrails.tone, {
      provider: env.aiProvider,
      sdk: env.aiSdk,
      surface: env.aiSdkSurface,
      model,
      apiKey,
      baseURL: env.aiBaseUrl,
    });
    return new Gate({
      client,
      guardrails,
      journal,
      secrets: [env.token, env.aiApiKey, env.password],
      tone,
    });
  });
  const context = new WakeContext({
    client,
    gate,
    timeline,
    self: { uuid: identity.uuid, handle: identity.handle },
    journal,
    model,
    maxRefusals: guardrails?.maxRefusalsPerTurn,
  });
  // One id for the wake: its claims and its turn records name the same one.
  const settings: WakeSettings = { home, timeline, model, wakeId: newWakeId() };
  const loaded: Wake["loaded"] = {};
  return {
    env,
    settings,
    triggers,
    journal,
    client,
    engine: engineSlot(env, settings, runtime, { apiKey, context, gate, journal, loaded }),
    context,
    claims: new ClaimStore(home, { journal, isAlive, wakeId: settings.wakeId }),
    store: new FileSessionStore(join(home, "sessions"), { journal }),
    memory: runtime.memory.provider,
    viewers,
    // The charter names the MCP servers only once the first engaged turn has loaded them.
    charter: () => Promise.resolve(agentCharter(runtime, loaded.mcp)),
    knowledge: () => agentKnowledge(runtime),
    messages: [],
    brief: { composed: false },
    posts: 0,
    billingWall: false,
    breaker: new BreakerGate(),
    escalation: runtime.escalation,
    records: runtime.records,
    budget: runtime.budget,
    budgetWall: false,
    spent: { usd: 0, tokens: 0 },
    loaded,
    listedAt: {},
    startedAt,
    catchingUp: false,
  };
}

/** How far after the process's start `HARNESS_WAKE_STARTED_AT` may lie, in seconds. */
export const STARTED_AT_SLACK_SECONDS = 10;

/**
 * When the wake counts as started, epoch ms (docs/operating.md#catch-up-before-exit): the
 * process's own start — a router that launched it stamped its start earlier still, so the second
 * this falls in is never earlier than the router's — or `HARNESS_WAKE_STARTED_AT` when a launcher
 * that started the process ahead of its delivery says the wake started later. Never earlier than
 * the process; a value well after it is refused, as the catch-up would wait for it.
 */
function startOf(env: HarnessEnv, processStart: number = performance.timeOrigin): number {
  const stated = env.wakeStartedAt;
  if (stated === undefined) return processStart;
  const ahead = stated - processStart / 1000;
  if (ahead > STARTED_AT_SLACK_SECONDS) {
    throw new WakeConfigError(
      `HARNESS_WAKE_STARTED_AT is ${stated}, ${ahead.toFixed(1)} s after this process started; ` +
        `it must be when the wake started (epoch seconds, at most ${STARTED_AT_SLACK_SECONDS} s ` +
        "after the process's start). Unset it to count from the process's start.",
    );
  }
  return Math.max(processStart, stated * 1000);
}

/** HARNESS_HOME, AI_MODEL and the API key: optional in the environment, required for a wake. */
function required(env: HarnessEnv): { home: string; model: string; apiKey: string } {
  const home = env.harnessHome;
  if (!home) {
    throw new WakeConfigError(
      "HARNESS_HOME is required for a wake — set it to the directory that keeps this agent's " +
        "transcripts, marks and claims.",
    );
  }
  const model = env.aiModel;
  if (!model) {
    throw new WakeConfigError("AI_MODEL is required — set it to the model id this agent runs on.");
  }
  const apiKey = env.aiApiKey;
  if (!apiKey) {
    throw new WakeConfigError(MISSING_API_KEY);
  }
  return { home, model, apiKey };
}

/** What the engine is built with, besides the environment and the runtime. */
interface EngineInputs {
  /** `AI_API_KEY`, checked present. */
  readonly apiKey: string;
  readonly context: WakeContext;
  readonly gate: DeferredGate;
  readonly journal: Journal;
  /** Where the MCP load is kept, for the charter's notes and the close at wake end. */
  readonly loaded: Wake["loaded"];
}

/**
 * The engine, built by the first engaged turn: MCP (only here: an idle wake, or an empty `mcp/`,
 * never loads its SDK), then the provider and the tool registry. The model axes and the key were
 * validated by {@link required}, so building cannot fail on configuration any more.
 */
function engineSlot(
  env: HarnessEnv,
  settings: WakeSettings,
  runtime: Runtime,
  inputs: EngineInputs,
): EngineSlot {
  const { apiKey, context, gate, journal, loaded } = inputs;
  const { configHome } = runtime;
  return new EngineSlot(async () => {
    const { buildEngine, loadWakeMcp } = await engaged();
    await gate.ready();
    const mcp = await loadWakeMcp({
      configHome,
      timeoutSeconds: env.mcpTimeoutSeconds,
      journal,
      configs: runtime.mcpRead,
      withheldEnv: SECRET_VARIABLES,
    });
    loaded.mcp = mcp;
    return buildEngine({
      provider: agentProviderOptions(runtime, {
        model: settings.model,
        apiKey,
        promptCacheKey: promptCacheKey(context.self.uuid, settings.timeline),
      }),
      ...agentToolInputs(runtime),
      bindings: { context, configHome, images: mcp?.images },
      journal,
      maxSteps: env.maxSteps,
      responseRetries: env.responseRetries,
      imagePrep: runtime.imagePrep,
      extraTools: mcp?.tools,
    });
  });
}

/** The platform reads a wake starts before its configuration has been judged. */
interface EarlyReads {
  readonly client: PlatformClient;
  readonly timeline: ReturnType<PlatformClient["timelines"]["get"]>;
  readonly dashboard: ReturnType<PlatformClient["users"]["dashboard"]>;
}

/**
 * The platform client, with the timeline and dashboard reads already under way — or the error
 * building the client raised (no credentials), held until the configuration has been judged.
 * A read whose result is never awaited (a refused configuration) drops its failure.
 */
function startPlatformReads(
  timeline: string,
  options: PlatformClientOptions,
): EarlyReads | { error: unknown } {
  if (!hasCredentials(options)) return { error: new WakeConfigError(NO_CREDENTIALS_IN_ENV) };
  let client: PlatformClient;
  try {
    client = new PlatformClient(options);
  } catch (error) {
    return { error };
  }
  const found = client.timelines.get(timeline);
  const dashboard = client.users.dashboard();
  found.catch(() => {});
  dashboard.catch(() => {});
  return { client, timeline: found, dashboard };
}

/** The timeline's viewers (participants ∪ owner), or `"gone"` when it was deleted (404). */
async function viewersOf(found: EarlyReads["timeline"]): Promise<Set<string> | "gone"> {
  try {
    const { timeline } = await found;
    return new Set([timeline.owner.uuid, ...timeline.participants.map((p) => p.uuid)]);
  } catch (error) {
    if (error instanceof NotFoundError) return "gone";
    throw error;
  }
}
