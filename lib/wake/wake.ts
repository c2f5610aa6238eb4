/**
 * `harness wake`: one platform event, one process. Reads top to bottom as the order of operations
 * (contracts §1.1, §6.1): configuration → the model and the platform → `wake start` → breaker →
 * remember (load the transcript) → claim / assemble / reason-and-act / record, per kind in the
 * fixed order messages, assets, webhook events, tasks → release settled evidence → `wake end`.
 *
 * Exit codes: 0 for a wake that ran (including nothing to do, a breaker decline, a reported
 * provider failure, and a deleted timeline's skip); 1 for a configuration, credential or platform
 * failure, with ONE stderr line `harness wake: <error>` and never a stack trace.
 */
import { oneLineError } from "../base/error_text.ts";
import { join } from "../base/paths.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { FileSessionStore } from "../core/transcript/session.ts";
import { parseEnv, SECRET_VARIABLES } from "../config/env.ts";
import { resolveRuntime } from "../runtime/resolve.ts";
import type { Guardrails } from "../gate/guardrails.ts";
import { wakeEnd, wakeFailed, wakeSkipped, wakeStart } from "../journal/catalogue_wake.ts";
import type { Journal } from "../journal/journal.ts";
import { registerSecret } from "../journal/scrub.ts";
import { LEVEL_NUMBERS, parseLogLevel } from "../journal/level.ts";
import { StreamJournal } from "../journal/stream_journal.ts";
import { closeMemoryProvider } from "../memory/hooks.ts";
import { NotFoundError, PlatformClient, type PlatformClientOptions } from "../platform/mod.ts";
import { WakeContext } from "./context.ts";
import { DeferredGate } from "./deferred_gate.ts";
import { releaseSettledEvidence } from "./evidence.ts";
import { engaged } from "./engaged_half.ts";
import { reconcileAssets, reconcileEvents, reconcileTasks } from "./items.ts";
import { reconcileMessages } from "./messages.ts";
import { readAhead, refreshReadAhead } from "./read_ahead.ts";
import { recordAndCheck } from "../home/breaker.ts";
import { ClaimStore, newWakeId } from "../home/claims.ts";
import { livenessSnapshot } from "../home/liveness.ts";
import { EngineSlot, sourceOf, type Wake, type WakeTriggers } from "./wake_state.ts";

/** The operator's guardrails file in the config home (`GUARDRAILS_FILE` of lib/gate). */
export const GUARDRAILS_FILE = "guardrails.json";

/** A configuration problem the wake itself detects (exit 1, one line). */
export class WakeConfigError extends Error {
  override name = "WakeConfigError";
}

/** What `harness wake` was asked to do. */
export interface WakeRequest {
  readonly timeline: string;
  readonly triggers: WakeTriggers;
  /** The environment (default: the process's). */
  readonly env?: Record<string, string>;
  /** Where the one-line error goes (default: stderr). */
  readonly stderr?: (line: string) => void;
}

/** Runs one wake and resolves to the process exit code. */
export async function runWake(request: WakeRequest): Promise<number> {
  const rawEnv = request.env ?? Deno.env.toObject();
  const stderr = request.stderr ?? ((line: string) => console.error(line));
  const { timeline } = request;
  // Logging first, so even a refused configuration leaves its `wake failed` line.
  const journal = new StreamJournal({ minLevel: levelOf(rawEnv.HARNESS_LOG_LEVEL) });
  const delivery = rawEnv.BASECRADLE_DELIVERY_ID?.trim() || undefined;
  let wake: Wake;
  try {
    const assembled = await assemble(timeline, request.triggers, rawEnv, journal);
    if (assembled === "skip") {
      wakeSkipped(journal, { timeline, delivery });
      return 0;
    }
    wake = assembled;
  } catch (error) {
    return fail(journal, stderr, timeline, delivery, error);
  }
  try {
    await run(wake);
    return 0;
  } catch (error) {
    return fail(journal, stderr, timeline, delivery, error);
  } finally {
    await wake.loaded.mcp?.close(); // never throws; ends every server process group
    await closeMemoryProvider(wake.memory, journal);
  }
}

/** The wake proper: bookends, breaker, remember, the four reconciles, evidence release, in order. */
async function run(wake: Wake): Promise<void> {
  const { timeline, delivery, maxSteps, home } = wake.settings;
  const started = performance.now();
  wakeStart(wake.journal, {
    timeline,
    trigger: wake.triggers,
    provider: wake.settings.provider,
    model: wake.settings.model,
    delivery,
  });
  let outcome: "ok" | "error" | "declined" = "error";
  try {
    const verdict = await recordAndCheck(home, timeline, {
      max: wake.breaker.max,
      windowSeconds: wake.breaker.windowSeconds,
      cooldownSeconds: wake.breaker.cooldownSeconds,
      journal: wake.journal,
    });
    if (verdict === "declined") {
      outcome = "declined";
      return;
    }
    // remember, while the four first reads start (both awaited together, so either's failure
    // is this wake's error, reported like any other)
    [wake.messages, wake.readAhead] = await Promise.all([
      wake.store.load(sourceOf(timeline)),
      readAhead(wake),
    ]);
    await reconcileMessages(wake);
    await refreshReadAhead(wake, ["assets", "webhook_events", "tasks"]);
    await reconcileAssets(wake);
    await refreshReadAhead(wake, ["webhook_events", "tasks"]);
    await reconcileEvents(wake);
    await refreshReadAhead(wake, ["tasks"]);
    await reconcileTasks(wake);
    // last: it reads the claims the four reconciles have just settled
    await releaseSettledEvidence(wake);
    outcome = "ok";
  } finally {
    wakeEnd(wake.journal, {
      timeline,
      outcome,
      turns: wake.engine.turns,
      steps: wake.engine.steps,
      maxSteps,
      posted: wake.posts + wake.context.spoken,
      seconds: (performance.now() - started) / 1000,
      delivery,
    });
  }
}

/**
 * Builds everything a wake needs, in the reference's observable order: env → HARNESS_HOME →
 * model axes → claim liveness → the shared runtime resolution (reconcile → prompts → the outer
 * sandbox narrows → memory → tools → params) → platform client → timeline (404 ⇒ skip) →
 * identity → guardrails. Returns `"skip"` when the timeline no longer exists. The provider, the
 * tool registry and the gate are built by the first engaged turn (an idle wake loads none).
 */
async function assemble(
  timeline: string,
  triggers: WakeTriggers,
  rawEnv: Record<string, string>,
  journal: Journal,
): Promise<Wake | "skip"> {
  // The command line already settled the timeline and the triggers (a flag wins over its variable),
  // so a stale BASECRADLE_MESSAGE that a flag overrides must not refuse the wake.
  const env = parseEnv({
    ...rawEnv,
    BASECRADLE_TIMELINE: timeline,
    BASECRADLE_MESSAGE: triggers.message ?? "",
    BASECRADLE_ASSET: triggers.asset ?? "",
    BASECRADLE_EVENT: triggers.event ?? "",
  });
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
    throw new WakeConfigError(
      "No API key: pass api_key=... or set the AI_API_KEY environment variable.",
    );
  }
  registerSecret(env.aiApiKey);
  registerSecret(env.token);
  registerSecret(env.password);
  // The timeline and the dashboard are fetched while the configuration resolves (each is a network
  // round trip in production) and awaited after it, so errors keep the reference's order:
  // configuration, then credentials, then the timeline (404 ⇒ skip), then the dashboard.
  const early = startPlatformReads(timeline, env.platform);
  // `kill(pid, 0)` needs run permission, which the locked sandbox revokes: judge claim owners now.
  const isAlive = livenessSnapshot(home, timeline);
  const runtime = await resolveRuntime(env, {
    journal,
    reconcile: true,
    narrow: true,
    vars: rawEnv,
  });
  const { configHome, prompts, tools: resolution } = runtime;
  const memory = runtime.memory.provider;
  if ("error" in early) throw early.error;
  const { client } = early;
  let viewers: Set<string>;
  try {
    const { timeline: found } = await early.timeline;
    viewers = new Set([found.owner.uuid, ...found.participants.map((p) => p.uuid)]);
  } catch (error) {
    if (error instanceof NotFoundError) return "skip"; // deleted while the delivery queued
    throw error;
  }
  const { identity } = await early.dashboard;
  const guardrails = await readGuardrails(configHome);
  const gate = new DeferredGate(async () => {
    const { Gate } = await lazyImport<typeof import("../gate/gate.ts")>("lib/gate/gate.ts");
    return new Gate({ client, guardrails, journal, secrets: [env.token, env.aiApiKey] });
  });
  const context = new WakeContext({
    client,
    gate,
    timeline,
    self: { uuid: identity.uuid, handle: identity.handle },
    journal,
    model: env.aiModel,
  });
  // The provider and the tools are built by the first engaged turn (the model axes and the API
  // key were validated above, so building them cannot fail on configuration any more).
  const loaded: Wake["loaded"] = {};
  const engine = new EngineSlot(async () => {
    const { buildEngine, loadWakeMcp } = await engaged();
    await gate.ready();
    // MCP only here, on the engaged path: an idle wake (or an empty `mcp/`) never loads the SDK.
    const mcp = await loadWakeMcp({
      configHome,
      timeoutSeconds: env.mcpTimeoutSeconds,
      journal,
      configs: runtime.mcpRead,
      withheldEnv: SECRET_VARIABLES,
    });
    loaded.mcp = mcp;
    return buildEngine({
      provider: {
        provider: env.aiProvider,
        sdk: env.aiSdk,
        surface: env.aiSdkSurface,
        model,
        apiKey,
        baseURL: env.aiBaseUrl,
        params: runtime.modelParams.params,
        searchParams: runtime.searchParams,
        builtins: resolution.builtinNames,
      },
      active: resolution.activeTools,
      bindings: { context, configHome, images: mcp?.images },
      memoryTools: runtime.memoryTools,
      policy: runtime.policy,
      journal,
      maxSteps: env.maxSteps,
      responseRetries: env.responseRetries,
      extraTools: mcp?.tools,
    });
  });
  // One id for the wake: its claims and its turn records name the same one.
  const wakeId = newWakeId();
  return {
    settings: {
      home,
      timeline,
      maxSteps: env.maxSteps,
      window: env.contextMessages,
      onboard: env.onboard,
      probeSecret: env.nocProbeSecret,
      delivery: env.deliveryId,
      provider: env.aiProvider,
      model,
      maxContextTokens: env.maxContextTokens,
      wakeId,
      sdk: env.aiSdk,
      surface: env.aiSdkSurface,
      pace: {
        enabled: env.paceEnabled,
        charsPerSec: env.paceCharsPerSec,
        floorSeconds: env.paceFloorSeconds,
        maxBuilds: env.paceMaxBuilds,
      },
    },
    breaker: {
      max: env.wakeBreakerMax,
      windowSeconds: env.wakeBreakerWindowSeconds,
      cooldownSeconds: env.wakeBreakerCooldownSeconds,
    },
    triggers,
    journal,
    client,
    engine,
    context,
    claims: new ClaimStore(home, { journal, isAlive, wakeId }),
    store: new FileSessionStore(join(home, "sessions"), { journal }),
    memory,
    viewers,
    // Stable: config files and the registry only, so it is byte-identical while nothing changed.
    charter: async () => {
      const { composeCharter, defectsPart, manifestPart, safetyPart } = await engaged();
      return composeCharter({
        systemPrompt: prompts.systemPrompt,
        initialize: env.onboard ? prompts.initialize : undefined,
        manifest: env.onboard
          ? manifestPart([
            ...resolution.notes.map((n) => ({ name: n.name, note: n.note ?? undefined })),
            ...(loaded.mcp?.notes ?? []),
          ])
          : undefined,
        defects: env.onboard ? defectsPart(resolution.defects) : undefined,
        safety: env.onboard
          ? safetyPart([
            ...resolution.safetyNotices,
            ...(runtime.sandbox?.notices ?? []),
            ...(loaded.mcp?.notices ?? []),
          ])
          : undefined,
      });
    },
    messages: [],
    brief: { composed: false },
    posts: 0,
    billingWall: false,
    loaded,
  };
}

/**
 * The platform client, with the timeline and dashboard reads already under way — or the error
 * building the client raised (no credentials), held until the configuration has been judged.
 * A read whose result is never awaited (a refused configuration) drops its failure.
 */
function startPlatformReads(
  timeline: string,
  options: PlatformClientOptions,
):
  | {
    client: PlatformClient;
    timeline: ReturnType<PlatformClient["timelines"]["get"]>;
    dashboard: ReturnType<PlatformClient["users"]["dashboard"]>;
  }
  | { error: unknown } {
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

/**
 * `loadGuardrails(configHome)`, without loading the gate module when there is no file (the
 * common case, where the defaults apply): a missing file is the only case skipped, so a present
 * but unreadable or malformed one still stops the wake here, as before.
 */
async function readGuardrails(configHome: string): Promise<Guardrails | undefined> {
  try {
    await Deno.stat(join(configHome, GUARDRAILS_FILE));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined; // the gate's defaults
  }
  const { loadGuardrails } = await lazyImport<typeof import("../gate/guardrails.ts")>(
    "lib/gate/guardrails.ts",
  );
  return await loadGuardrails(configHome);
}

/** Exit 1: the ERROR `wake failed` line, and one stderr line (never a stack trace). */
function fail(
  journal: Journal,
  stderr: (line: string) => void,
  timeline: string,
  delivery: string | undefined,
  error: unknown,
): number {
  const message = oneLineError(error);
  wakeFailed(journal, { timeline, error: message, delivery });
  if (error instanceof Error && error.stack && journal.enabled("DEBUG")) {
    journal.text("DEBUG", error.stack);
  }
  stderr(`harness wake: ${message}`);
  return 1;
}

/**
 * `HARNESS_LOG_LEVEL` for the journal before the env is validated. An invalid value logs at INFO
 * here, so the `wake failed` line that reports it (from the env parse) still reaches the journal.
 */
function levelOf(raw: string | undefined): number {
  try {
    return parseLogLevel(raw);
  } catch {
    return LEVEL_NUMBERS.INFO;
  }
}
