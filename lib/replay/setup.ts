/**
 * What a replay runs under (docs/records.md#what-is-re-run): the charter, the tools and the
 * gate's checks a config home resolves to for one model, resolved exactly as a wake resolves them
 * (`resolveRuntime`, no reconcile, no permission narrowing) — so a charter or tool change in
 * that config home is what the replay tries. The record's own charter is not stored; only its
 * hash is, which the replay's is compared with.
 */
import { canonicalHash, sha256Hex } from "../home/records/canonical.ts";
import { parseEnv } from "../config/env.ts";
import type { KnowledgePack } from "../config/knowledge.ts";
import type { Policy } from "../core/policy.ts";
import { ToolRegistry } from "../core/registry.ts";
import type { ImagePrepPolicy } from "../core/types/image_policy.ts";
import type { Tool } from "../core/types/tool.ts";
import { surfaceChecks } from "../gate/checks.ts";
import type { SurfaceChecks } from "../gate/clear.ts";
import { DEFAULT_GUARDRAILS, type ToneSettings } from "../gate/guardrails.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { ReplayTone } from "./tone.ts";
import type { BuildProviderOptions } from "../providers/factory.ts";
import { enforceHostRules, resolveRuntime } from "../runtime/resolve.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import {
  agentCharter,
  agentKnowledge,
  agentProviderOptions,
  agentToolInputs,
} from "../runtime/configured_agent.ts";
import { buildTools, loadOptionalFactories, workingStateTools } from "../runtime/tool_set.ts";
import { replayContext } from "./context.ts";

/** The model a turn is replayed against. */
export interface ReplayModel {
  /** `AI_PROVIDER`. */
  readonly provider: string;
  /** `AI_SDK`. */
  readonly sdk: string;
  /** `AI_SDK_SURFACE`; undefined: the SDK's default. */
  readonly surface?: string;
  /** `AI_MODEL`. */
  readonly model: string;
  /** `AI_API_KEY`. */
  readonly apiKey: string;
  /** `AI_BASE_URL`; undefined: the vendor's. */
  readonly baseURL?: string;
}

/** Everything one (config home, model) pair resolves to. */
export interface ReplaySetup {
  readonly configHome: string;
  /** The charter text, or undefined when every part is blank. */
  readonly charter: string | undefined;
  /** sha256 of the charter, as a record's `prompt_hash` (null without one). */
  readonly charterHash: string | null;
  /** The config home's knowledge pack, rendered after the charter as a wake renders it. */
  readonly knowledge: KnowledgePack;
  /** sha256 of the canonical tool manifest, as a record's `tool_manifest_hash`. */
  readonly manifestHash: string;
  /** The real tools, built but never run: the replay wraps their declarations. */
  readonly tools: readonly Tool[];
  readonly policy: Policy;
  /**
   * The outbound gate's checks of every surface: the config home's guardrails and the harness's
   * secrets, exactly as a wake's gate builds them.
   */
  readonly checks: SurfaceChecks;
  /**
   * The tone check (docs/records.md#replaying-the-tone-check), when the config home's
   * guardrails.json configures one: recorded verdicts reused, other posts judged live.
   */
  readonly tone?: ReplayTone;
  /**
   * Gate refusals in one turn that close its speaking (`max_refusals_per_turn`,
   * docs/security.md#stop-at-the-second-refusal).
   */
  readonly maxRefusals: number;
  readonly maxSteps: number;
  readonly responseRetries: number;
  /** Whether the volatile brief (time, step budget) is composed. */
  readonly onboard: boolean;
  readonly imagePrep: ImagePrepPolicy | null;
  /** What the provider is built from. */
  readonly provider: BuildProviderOptions;
}

/** What {@link prepareReplay} needs. */
export interface PrepareOptions {
  /** The process environment (the `HARNESS_*` knobs, `HOME`, the secrets to screen for). */
  readonly env: Readonly<Record<string, string>>;
  /** `--config-home`; undefined: `BASECRADLE_CONFIG_HOME`, else `$HOME/.config/basecradle`. */
  readonly configHome?: string;
  readonly model: ReplayModel;
  /**
   * A scratch `HARNESS_HOME` for the memory provider the resolution binds: the records' home is
   * only read, never written.
   */
  readonly scratchHome: string;
  /**
   * Install the config home's `host_rules.json` as this process's fence (default true), so the
   * model is reached only where a wake's model call may go (docs/security.md#host-rules). Off
   * only for the sandbox model this process serves itself, where nothing leaves the process.
   */
  readonly enforceHostRules?: boolean;
  /** Where the fence's `host refused` and `url refused` lines go (default: silent). */
  readonly journal?: Journal;
  /** `--rejudge-tone`: ask the tone judge for every post, never reusing a recorded verdict. */
  readonly rejudgeTone?: boolean;
}

/**
 * Resolves the config home for `model`, and puts its host rules in force for this process
 * (unless {@link PrepareOptions.enforceHostRules} is false): a replay's model call obeys them
 * as a wake's does.
 * @throws {ConfigError} (and the other resolution errors) naming the file and the fix, as a wake
 * would refuse.
 */
export async function prepareReplay(options: PrepareOptions): Promise<ReplaySetup> {
  const { model } = options;
  const raw: Record<string, string> = {
    ...options.env,
    HARNESS_HOME: options.scratchHome,
    AI_PROVIDER: model.provider,
    AI_SDK: model.sdk,
    AI_MODEL: model.model,
    AI_API_KEY: model.apiKey,
  };
  if (options.configHome !== undefined) raw.BASECRADLE_CONFIG_HOME = options.configHome;
  if (model.surface !== undefined) raw.AI_SDK_SURFACE = model.surface;
  else delete raw.AI_SDK_SURFACE;
  if (model.baseURL !== undefined) raw.AI_BASE_URL = model.baseURL;
  else delete raw.AI_BASE_URL;
  const env = parseEnv(raw);
  const runtime = await resolveRuntime(env, { reconcile: false, narrow: false, vars: raw });
  if (options.enforceHostRules !== false && runtime.hostRules) {
    await enforceHostRules(runtime.hostRules, options.journal ?? silentJournal);
  }
  const context = replayContext();
  const { active, memoryTools } = agentToolInputs(runtime);
  const tools = buildTools(
    active,
    { context, configHome: runtime.configHome },
    memoryTools,
    await loadOptionalFactories(active, (name) => raw[name]),
  );
  // Every wake also offers its working-state tools (summarize only while compaction is on), so
  // the replayed manifest is the recorded one; their calls are answered from the record.
  tools.push(...workingStateTools(
    new ScratchNotes(),
    env.maxContextTokens === 0 ? undefined : {
      accept: () => "Handoff accepted (a replay compacts nothing).",
    },
  ));
  // As the wake composes it, without the MCP servers' own notes: replay starts no MCP server,
  // so their tools are not offered either.
  const charter = agentCharter(runtime);
  const provider = agentProviderOptions(runtime, model);
  return {
    configHome: runtime.configHome,
    charter,
    charterHash: charter === undefined ? null : sha256Hex(charter),
    knowledge: await agentKnowledge(runtime),
    // The manifest as the wake's registry offers it (sorted by name, through the policy).
    manifestHash: canonicalHash(registryOf(tools, runtime.policy).specs()),
    tools,
    policy: runtime.policy,
    checks: surfaceChecks(runtime.guardrails ?? DEFAULT_GUARDRAILS, [
      env.token,
      env.aiApiKey,
      env.password,
    ]),
    maxRefusals: (runtime.guardrails ?? DEFAULT_GUARDRAILS).maxRefusalsPerTurn,
    tone: await replayTone(runtime.guardrails?.tone, provider, options.rejudgeTone === true),
    maxSteps: env.maxSteps,
    responseRetries: env.responseRetries,
    onboard: env.onboard,
    imagePrep: runtime.imagePrep,
    provider,
  };
}

/**
 * The replay's tone check over the replay's model connection, or undefined when it is off: the
 * wake's own judge, loaded only when the config home configures one.
 */
async function replayTone(
  settings: ToneSettings | undefined,
  provider: BuildProviderOptions,
  rejudge: boolean,
): Promise<ReplayTone | undefined> {
  if (settings === undefined) return undefined;
  const { wakeToneJudge } = await lazyImport<typeof import("../wake/tone_judge.ts")>(
    "lib/wake/tone_judge.ts",
  );
  const live = wakeToneJudge(settings, provider);
  return new ReplayTone({ settings, live, model: live.model, rejudge });
}

function registryOf(tools: readonly Tool[], policy: Policy): ToolRegistry {
  const registry = new ToolRegistry({ policy });
  for (const tool of tools) registry.register(tool);
  return registry;
}

/** The notes store the working-state tools take. */
type NoteBook = Parameters<typeof workingStateTools>[0];

/** Notes kept in memory for one replay: a replay writes nothing under any home. */
class ScratchNotes implements NoteBook {
  readonly #notes = new Map<string, string>();

  /** Every note, sorted by key. */
  notes(): Promise<[key: string, value: string][]> {
    return Promise.resolve([...this.#notes].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
  }

  /** One value, or `undefined`. */
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.#notes.get(key));
  }

  /** Creates or replaces a note. */
  write(key: string, value: string): Promise<"created" | "updated"> {
    const existed = this.#notes.has(key);
    this.#notes.set(key, value);
    return Promise.resolve(existed ? "updated" : "created");
  }

  /** Removes a note. */
  delete(key: string): Promise<"deleted" | "already_absent"> {
    return Promise.resolve(this.#notes.delete(key) ? "deleted" : "already_absent");
  }
}
