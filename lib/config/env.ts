/**
 * The harness environment (docs/environment.md): one zod schema reads every variable this runtime uses
 * into a typed {@link HarnessEnv}. Defaults, blank handling and leniency follow the Python
 * harness so a box's `agent.env` means the same thing here; where the reference silently
 * accepts nonsense, this runtime refuses to load with a sentence naming the variable, the value
 * (never a secret's) and what it accepts. Pure: it reads only the mapping it is given.
 */
import { DEFAULT_MAX_STEPS } from "../core/types/step_counter.ts";
import * as z from "../base/zod.ts";
import {
  type LogFormat,
  LogFormatError,
  LogLevelError,
  parseLogFormat,
  parseLogLevel,
} from "../journal/level.ts";
import type { ProviderName } from "../providers/axes.ts";
import type { PlatformClientOptions } from "../platform/config.ts";
import { acrossChecked, checkAcross } from "./env_across.ts";
import { ConfigError, type ConfigIssue } from "./errors.ts";
import {
  DELIVERY_ID,
  FALSY,
  field,
  flag,
  httpUrl,
  lenientProfile,
  lenientSeconds,
  number,
  type ProfileName,
  ranged,
  Refusal,
  shown,
  text,
  uuid,
  verbatim,
} from "./env_fields.ts";
import { SECRET_VARIABLES } from "../journal/secret_variables.ts";

/**
 * The sentence a wake or poll says when `AI_API_KEY` is missing, naming the variable (the model
 * vendor's key is the one credential every engaged turn needs).
 */
export const MISSING_API_KEY =
  "AI_API_KEY is required — set it to this agent's API key for its model vendor (AI_PROVIDER, " +
  "default openai).";

/** Where variables come from: a plain mapping (e.g. `Deno.env.toObject()`) or a reader. */
export type EnvSource =
  | Readonly<Record<string, string | undefined>>
  | ((name: string) => string | undefined);

export type { ProfileName };

/** Variables whose values are credentials: never echoed in an error, a log line or a report. */
export { SECRET_VARIABLES };

/** The defaults (docs/environment.md#harness); exported so resolved-config can report them. */
export const ENV_DEFAULTS = {
  maxSteps: DEFAULT_MAX_STEPS,
  responseRetries: 2,
  contextMessages: 50,
  mcpTimeoutSeconds: 20,
  wakeBreakerMax: 10,
  wakeBreakerWindowSeconds: 60,
  paceCharsPerSec: 17,
  paceFloorSeconds: 20,
  coldStartIdleSeconds: 3600,
  paceMaxBuilds: 3,
  memoryProvider: "sqlite",
  memoryRecallK: 5,
} as const;

/** The parsed environment. Optional fields are `undefined` when unset or blank. */
export interface HarnessEnv {
  // model axes (docs/environment.md#model)
  /** `AI_PROVIDER`: the endpoint vendor (default `openai`). */
  readonly aiProvider: ProviderName;
  /** The adapter that runs (default `openai`; `AI_SDK=xai-sdk` runs on `openai`). */
  readonly aiSdk: "openai" | "openrouter" | "anthropic";
  /** `AI_SDK` as configured, lower-cased (default `openai`); differs from `aiSdk` for `xai-sdk`. */
  readonly aiSdkConfigured: string;
  /** `AI_SDK_SURFACE`, resolved to the SDK's default surface when unset. */
  readonly aiSdkSurface: string;
  /** `AI_MODEL`: required for a wake, checked there (resolved-config reports it raw or null). */
  readonly aiModel?: string;
  /** `AI_API_KEY` (secret). */
  readonly aiApiKey?: string;
  /** `AI_BASE_URL`: endpoint override; unset ⇒ the vendor default. */
  readonly aiBaseUrl?: string;

  // harness knobs (docs/environment.md#harness)
  /** `HARNESS_HOME`: root of per-agent state; required for wake and cleanup, checked there. */
  readonly harnessHome?: string;
  /** `HARNESS_MAX_STEPS`: per-turn step budget (default 24). */
  readonly maxSteps: number;
  /** `HARNESS_RESPONSE_RETRIES`: extra attempts for transient provider faults (default 2). */
  readonly responseRetries: number;
  /** `HARNESS_MAX_CONTEXT_TOKENS`: context ceiling override; `0` disables compaction. */
  readonly maxContextTokens?: number;
  /** `HARNESS_CONTEXT_MESSAGES`: bootstrap read window (default 50); `"all"` is unbounded. */
  readonly contextMessages: number | "all";
  /** `HARNESS_ONBOARD`: compose the operating brief (default on). */
  readonly onboard: boolean;
  /** `HARNESS_PROFILE`: anything but `unlocked` is `locked` (fail-closed). */
  readonly profile: ProfileName;
  /**
   * `HARNESS_MEMORY_PROVIDER`: `sqlite` (default), `recall`, `mempalace` (lower-cased) or a module
   * spec, bound by the memory loader.
   */
  readonly memoryProvider: string;
  /** `HARNESS_MEMORY_RECALL_K`: chunks recalled into a turn by `recall` (0–20, default 5; 0 = none). */
  readonly memoryRecallK: number;
  /** `MEMPALACE_PALACE_PATH` (else `MEMPAL_PALACE_PATH`): a MemPalace palace to import from. */
  readonly palacePath?: string;
  /** `HARNESS_MEMORY_EMBEDDINGS_MODEL`: an embeddings model for recall's hybrid rank; unset ⇒ none. */
  readonly memoryEmbeddingsModel?: string;
  /** `HARNESS_MEMORY_EMBEDDINGS_URL`: where that model is served (default `AI_BASE_URL`). */
  readonly memoryEmbeddingsUrl?: string;
  /** `HARNESS_MCP_TIMEOUT`: per-request MCP timeout in seconds (default 20; lenient). */
  readonly mcpTimeoutSeconds: number;
  /** `HARNESS_WAKE_BREAKER_MAX`: wakes allowed per window; `≤ 0` disables the breaker. */
  readonly wakeBreakerMax: number;
  /** `HARNESS_WAKE_BREAKER_WINDOW`: rolling window in seconds (default 60). */
  readonly wakeBreakerWindowSeconds: number;
  /** `HARNESS_WAKE_BREAKER_COOLDOWN`: post-trip cooldown in seconds (default: the window). */
  readonly wakeBreakerCooldownSeconds: number;
  /**
   * `HARNESS_CATCH_UP`: list every kind once more after the wake's start second has passed and
   * answer what is new (default on; docs/operating.md#catch-up-before-exit).
   */
  readonly catchUp: boolean;
  /**
   * `HARNESS_WAKE_STARTED_AT`: when the launcher started this wake, epoch seconds; the catch-up
   * counts from it when it is later than the process's own start (a process started ahead of its
   * delivery). Unset: the process's start.
   */
  readonly wakeStartedAt?: number;
  /** `HARNESS_PACE_ENABLED`: read-speed pacing for AI peers (default on). */
  readonly paceEnabled: boolean;
  /** `HARNESS_PACE_CHARS_PER_SEC`: simulated reading rate; `≤ 0` means no read time. */
  readonly paceCharsPerSec: number;
  /** `HARNESS_PACE_FLOOR_SECONDS`: minimum read delay (default 20). */
  readonly paceFloorSeconds: number;
  /** `HARNESS_PACE_MAX_BUILDS`: rebuild and settle-restart cap, at least 1 (default 3). */
  readonly paceMaxBuilds: number;
  /**
   * `HARNESS_COLD_START_IDLE_SECONDS`: idle seconds after which a request shortens old tool
   * results (default 3600); `0` (or `off`) disables the filter.
   */
  readonly coldStartIdleSeconds: number;
  /**
   * `HARNESS_CAPTURE_REQUESTS`: keep the text of each turn's first request beside its record
   * (default off; the playground turns it on for its wakes; docs/records.md#the-request-anatomy).
   */
  readonly captureRequests: boolean;
  /** `HARNESS_LOG_LEVEL` as a Python logging number (default 20, INFO). */
  readonly logLevel: number;
  /** `HARNESS_LOG_FORMAT`: `text` (default) or `json`, one object per line. */
  readonly logFormat: LogFormat;
  /** `HARNESS_SYSTEM_PROMPT`: legacy charter, used only by a never-installed config home. */
  readonly systemPrompt?: string;

  // platform and identity (docs/environment.md#platform-and-identity)
  /** `BASECRADLE_BASE_URL`: platform root; unset ⇒ https://basecradle.com. */
  /** The platform client's options as its own reader took them from these variables. */
  readonly platform: PlatformClientOptions;
  readonly baseUrl?: URL;
  /** `BASECRADLE_TOKEN` (secret). */
  readonly token?: string;
  /** `BASECRADLE_EMAIL`: set together with the password, or not at all. */
  readonly email?: string;
  /** `BASECRADLE_PASSWORD` (secret; taken verbatim). */
  readonly password?: string;
  /** `BASECRADLE_SESSION_NAME`: label for a minted credential. */
  readonly sessionName?: string;
  /** `BASECRADLE_ENV_FILE`: where a minted token is persisted. */
  readonly envFile?: string;
  /** `BASECRADLE_TIMELINE`: fallback for `--timeline`. */
  readonly timeline?: string;
  /** `BASECRADLE_MESSAGE`: fallback for `--message`. */
  readonly message?: string;
  /** `BASECRADLE_EVENT`: fallback for `--event`. */
  readonly event?: string;
  /** `BASECRADLE_ASSET`: fallback for `--asset`. */
  readonly asset?: string;
  /** `BASECRADLE_CONFIG_HOME`, as written (`~` is expanded by `resolveConfigHome`). */
  readonly configHome?: string;
  /** `BASECRADLE_AGENT_SLUG`, else the OS user from LOGNAME/USER/LNAME/USERNAME. */
  readonly agentSlug?: string;
  /** `BASECRADLE_DELIVERY_ID`: the router's correlation id (`delivery=` on wake lines). */
  readonly deliveryId?: string;
  /** `NOC_PROBE_SECRET` (secret; taken verbatim): enables the synthetic-probe short-circuit. */
  readonly nocProbeSecret?: string;

  // tool-scoped and misc (docs/environment.md#tools-and-misc)
  /** `XAI_MANAGEMENT_KEY` (secret) for the xAI balance tool. */
  readonly xaiManagementKey?: string;
  /** `XAI_TEAM_ID`: team override for the xAI balance tool. */
  readonly xaiTeamId?: string;
  /** `XAI_MANAGEMENT_URL`: the xAI Management API root; unset ⇒ https://management-api.x.ai. */
  readonly xaiManagementUrl?: string;
  /** `NTFY_DM_TOKEN` (secret) for the direct-message-to-origin tool. */
  readonly ntfyDmToken?: string;
  /** `NTFY_DM_URL`: the direct-message endpoint; unset ⇒ the public ntfy topic. */
  readonly ntfyDmUrl?: string;
  /** `HOME`: the default config home's parent. */
  readonly home?: string;
  /** `NO_COLOR` non-empty at parse time (the journal still reads it per line). */
  readonly noColor: boolean;
  /** `FORCE_COLOR` as set (the journal reads it per line: `0` or `false` turn colour off). */
  readonly forceColor?: string;
  /** `OTEL_DENO` is `true` or `1`: Deno exports traces, and the harness adds its spans. */
  readonly tracing: boolean;

  /**
   * Lenient fallbacks that happened (a profile typo running locked, an unusable MCP timeout),
   * one sentence each, for the wake to put in the journal: failing closed must not be silent.
   */
  readonly warnings: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// The schema: one entry per variable, keyed by its real name.

const Schema = z.object({
  AI_PROVIDER: text(),
  AI_SDK: text(),
  AI_SDK_SURFACE: text(),
  AI_MODEL: text(),
  AI_API_KEY: text(),
  AI_BASE_URL: httpUrl("AI_BASE_URL", "https://api.openai.com/v1"),

  HARNESS_HOME: text(),
  HARNESS_MAX_STEPS: ranged("HARNESS_MAX_STEPS", ENV_DEFAULTS.maxSteps),
  HARNESS_RESPONSE_RETRIES: ranged(
    "HARNESS_RESPONSE_RETRIES",
    ENV_DEFAULTS.responseRetries,
    "0 disables the retry",
  ),
  HARNESS_MAX_CONTEXT_TOKENS: ranged(
    "HARNESS_MAX_CONTEXT_TOKENS",
    undefined,
    "0 disables compaction",
  ),
  // Unlike its neighbours, an empty value here is an error in the reference, not the default.
  HARNESS_CONTEXT_MESSAGES: field((raw): number | "all" => {
    if (raw === undefined) return ENV_DEFAULTS.contextMessages;
    if (raw.trim().toLowerCase() === "all") return "all";
    return number("HARNESS_CONTEXT_MESSAGES", raw, undefined, "'all' or ");
  }),
  HARNESS_ONBOARD: flag(true),
  HARNESS_PROFILE: z.string().optional(),
  HARNESS_MEMORY_PROVIDER: field((raw) => {
    const value = raw?.trim() ?? "";
    if (value === "" || value.toLowerCase() === "sqlite") return ENV_DEFAULTS.memoryProvider;
    // The built-in names are case-insensitive, as `sqlite` is; a module path keeps its case.
    return /^(recall|mempalace)$/i.test(value) ? value.toLowerCase() : value;
  }),
  HARNESS_MEMORY_RECALL_K: ranged(
    "HARNESS_MEMORY_RECALL_K",
    ENV_DEFAULTS.memoryRecallK,
    "0 turns automatic recall off",
  ),
  MEMPALACE_PALACE_PATH: z.string().optional(),
  HARNESS_MEMORY_EMBEDDINGS_MODEL: z.string().optional(),
  HARNESS_MEMORY_EMBEDDINGS_URL: httpUrl(
    "HARNESS_MEMORY_EMBEDDINGS_URL",
    "https://api.openai.com/v1",
  ),
  MEMPAL_PALACE_PATH: z.string().optional(),
  HARNESS_MCP_TIMEOUT: z.string().optional(),
  HARNESS_WAKE_BREAKER_MAX: ranged(
    "HARNESS_WAKE_BREAKER_MAX",
    ENV_DEFAULTS.wakeBreakerMax,
    "0 or less disables the breaker",
  ),
  HARNESS_WAKE_BREAKER_WINDOW: ranged(
    "HARNESS_WAKE_BREAKER_WINDOW",
    ENV_DEFAULTS.wakeBreakerWindowSeconds,
  ),
  HARNESS_WAKE_BREAKER_COOLDOWN: ranged("HARNESS_WAKE_BREAKER_COOLDOWN", undefined),
  HARNESS_CATCH_UP: flag(true),
  HARNESS_WAKE_STARTED_AT: ranged("HARNESS_WAKE_STARTED_AT", undefined, "e.g. `date +%s.%N`"),
  HARNESS_PACE_ENABLED: flag(true),
  HARNESS_PACE_CHARS_PER_SEC: ranged(
    "HARNESS_PACE_CHARS_PER_SEC",
    ENV_DEFAULTS.paceCharsPerSec,
    "0 or less means no reading time",
  ),
  HARNESS_PACE_FLOOR_SECONDS: ranged("HARNESS_PACE_FLOOR_SECONDS", ENV_DEFAULTS.paceFloorSeconds),
  HARNESS_PACE_MAX_BUILDS: ranged(
    "HARNESS_PACE_MAX_BUILDS",
    ENV_DEFAULTS.paceMaxBuilds,
    "values below 1 mean 1",
  ),
  HARNESS_COLD_START_IDLE_SECONDS: field((raw) => {
    if (raw === undefined || raw.trim() === "") return ENV_DEFAULTS.coldStartIdleSeconds;
    if (FALSY.has(raw.trim().toLowerCase())) return 0;
    return number("HARNESS_COLD_START_IDLE_SECONDS", raw, "0 or off disables the filter");
  }),
  HARNESS_CAPTURE_REQUESTS: flag(false),
  HARNESS_LOG_LEVEL: field((raw) => {
    try {
      return parseLogLevel(raw);
    } catch (error) {
      if (error instanceof LogLevelError) throw new Refusal(error.message);
      throw error;
    }
  }),
  HARNESS_LOG_FORMAT: field((raw) => {
    try {
      return parseLogFormat(raw);
    } catch (error) {
      if (error instanceof LogFormatError) throw new Refusal(error.message);
      throw error;
    }
  }),
  HARNESS_SYSTEM_PROMPT: text(),

  // Checked by the platform client's own reader (optionsFromEnv) in the object step below.
  BASECRADLE_BASE_URL: z.string().optional(),
  BASECRADLE_TOKEN: z.string().optional(),
  BASECRADLE_EMAIL: z.string().optional(),
  BASECRADLE_PASSWORD: z.string().optional(),
  BASECRADLE_SESSION_NAME: z.string().optional(),
  BASECRADLE_ENV_FILE: text(),
  BASECRADLE_TIMELINE: uuid("BASECRADLE_TIMELINE"),
  BASECRADLE_MESSAGE: uuid("BASECRADLE_MESSAGE"),
  BASECRADLE_EVENT: uuid("BASECRADLE_EVENT"),
  BASECRADLE_ASSET: uuid("BASECRADLE_ASSET"),
  BASECRADLE_CONFIG_HOME: text(),
  BASECRADLE_AGENT_SLUG: text(),
  BASECRADLE_DELIVERY_ID: field((raw) => {
    const value = raw?.trim();
    if (!value) return undefined;
    if (!DELIVERY_ID.test(value)) {
      throw new Refusal(
        "BASECRADLE_DELIVERY_ID must be 1 to 128 characters from A-Z a-z 0-9 _ . : -, " +
          `got ${shown(value)}.`,
      );
    }
    return value;
  }),
  NOC_PROBE_SECRET: verbatim(),

  XAI_MANAGEMENT_KEY: text(),
  XAI_TEAM_ID: text(),
  XAI_MANAGEMENT_URL: httpUrl("XAI_MANAGEMENT_URL", "https://management-api.x.ai"),
  NTFY_DM_TOKEN: text(),
  NTFY_DM_URL: httpUrl("NTFY_DM_URL", "https://ntfy.sh/my-topic"),
  HOME: text(),
  NO_COLOR: field((raw) => raw !== undefined && raw !== ""),
  FORCE_COLOR: text(),
  // Read by Deno itself (with OTEL_EXPORTER_OTLP_* and OTEL_SERVICE_NAME), and by the journal.
  OTEL_DENO: field((raw) => ["true", "1"].includes((raw ?? "").trim().toLowerCase())),
  // The OS user, the agent slug's fallback (the reference asks getpass, which reads these).
  LOGNAME: text(),
  USER: text(),
  LNAME: text(),
  USERNAME: text(),
}).superRefine((v, ctx) => {
  // Run even when a single field was refused (`when`), so one error lists everything to fix.
  for (const message of checkAcross(v)) ctx.addIssue({ code: "custom", message });
}, { when: () => true }).transform((v): HarnessEnv => {
  const warnings: string[] = [];

  const profile = lenientProfile(v.HARNESS_PROFILE, warnings);
  const mcpTimeoutSeconds = lenientSeconds(
    "HARNESS_MCP_TIMEOUT",
    v.HARNESS_MCP_TIMEOUT,
    ENV_DEFAULTS.mcpTimeoutSeconds,
    warnings,
  );

  const { axes, platform } = acrossChecked(v);
  return {
    aiProvider: axes.provider,
    aiSdk: axes.sdk,
    aiSdkConfigured: axes.configuredSdk,
    aiSdkSurface: axes.surface,
    aiModel: v.AI_MODEL,
    aiApiKey: v.AI_API_KEY,
    aiBaseUrl: v.AI_BASE_URL,
    harnessHome: v.HARNESS_HOME,
    maxSteps: v.HARNESS_MAX_STEPS,
    responseRetries: v.HARNESS_RESPONSE_RETRIES,
    maxContextTokens: v.HARNESS_MAX_CONTEXT_TOKENS,
    contextMessages: v.HARNESS_CONTEXT_MESSAGES,
    onboard: v.HARNESS_ONBOARD,
    profile,
    memoryProvider: v.HARNESS_MEMORY_PROVIDER,
    memoryRecallK: v.HARNESS_MEMORY_RECALL_K,
    palacePath: v.MEMPALACE_PALACE_PATH?.trim() || v.MEMPAL_PALACE_PATH?.trim() || undefined,
    memoryEmbeddingsModel: v.HARNESS_MEMORY_EMBEDDINGS_MODEL?.trim() || undefined,
    memoryEmbeddingsUrl: v.HARNESS_MEMORY_EMBEDDINGS_URL,
    mcpTimeoutSeconds,
    wakeBreakerMax: v.HARNESS_WAKE_BREAKER_MAX,
    wakeBreakerWindowSeconds: v.HARNESS_WAKE_BREAKER_WINDOW,
    wakeBreakerCooldownSeconds: v.HARNESS_WAKE_BREAKER_COOLDOWN ?? v.HARNESS_WAKE_BREAKER_WINDOW,
    catchUp: v.HARNESS_CATCH_UP,
    wakeStartedAt: v.HARNESS_WAKE_STARTED_AT,
    paceEnabled: v.HARNESS_PACE_ENABLED,
    paceCharsPerSec: v.HARNESS_PACE_CHARS_PER_SEC,
    paceFloorSeconds: v.HARNESS_PACE_FLOOR_SECONDS,
    paceMaxBuilds: Math.max(1, v.HARNESS_PACE_MAX_BUILDS),
    coldStartIdleSeconds: v.HARNESS_COLD_START_IDLE_SECONDS,
    captureRequests: v.HARNESS_CAPTURE_REQUESTS,
    logLevel: v.HARNESS_LOG_LEVEL,
    logFormat: v.HARNESS_LOG_FORMAT,
    systemPrompt: v.HARNESS_SYSTEM_PROMPT,
    platform,
    baseUrl: platform.baseUrl instanceof URL ? platform.baseUrl : undefined,
    token: platform.token,
    email: platform.email,
    password: platform.password,
    sessionName: platform.sessionName,
    envFile: v.BASECRADLE_ENV_FILE,
    timeline: v.BASECRADLE_TIMELINE,
    message: v.BASECRADLE_MESSAGE,
    event: v.BASECRADLE_EVENT,
    asset: v.BASECRADLE_ASSET,
    configHome: v.BASECRADLE_CONFIG_HOME,
    agentSlug: v.BASECRADLE_AGENT_SLUG ?? v.LOGNAME ?? v.USER ?? v.LNAME ?? v.USERNAME,
    deliveryId: v.BASECRADLE_DELIVERY_ID,
    nocProbeSecret: v.NOC_PROBE_SECRET,
    xaiManagementKey: v.XAI_MANAGEMENT_KEY,
    xaiTeamId: v.XAI_TEAM_ID,
    xaiManagementUrl: v.XAI_MANAGEMENT_URL,
    ntfyDmToken: v.NTFY_DM_TOKEN,
    ntfyDmUrl: v.NTFY_DM_URL,
    home: v.HOME,
    noColor: v.NO_COLOR,
    forceColor: v.FORCE_COLOR,
    tracing: v.OTEL_DENO,
    warnings,
  };
});

/** Every variable {@link parseEnv} reads, in schema order. */
export const ENV_VARIABLES: readonly string[] = Object.keys(Schema.in.shape);

/** The variable an issue's sentence is about: the first variable name it mentions. */
function variableOf(message: string): string {
  const names = ENV_VARIABLES.filter((name) => message.includes(name));
  names.sort((a, b) => message.indexOf(a) - message.indexOf(b) || b.length - a.length);
  return names[0] ?? "environment";
}

/**
 * What a command line settled before the environment is parsed: a flag wins over its variable,
 * so the variable is neither read nor judged (a stale malformed `BASECRADLE_MESSAGE` must not
 * refuse a wake whose `--message` replaced it). A key that is present but `undefined` means
 * "unset", whatever the variable holds.
 */
export interface EnvOverrides {
  /** `--timeline`, in place of `BASECRADLE_TIMELINE`. */
  readonly timeline?: string;
  /** `--message`, in place of `BASECRADLE_MESSAGE`. */
  readonly message?: string;
  /** `--asset`, in place of `BASECRADLE_ASSET`. */
  readonly asset?: string;
  /** `--event`, in place of `BASECRADLE_EVENT`. */
  readonly event?: string;
}

/** The variable each override stands in for. */
const OVERRIDDEN: Readonly<Record<keyof EnvOverrides, string>> = {
  timeline: "BASECRADLE_TIMELINE",
  message: "BASECRADLE_MESSAGE",
  asset: "BASECRADLE_ASSET",
  event: "BASECRADLE_EVENT",
};

/**
 * Parses the harness environment, with `overrides` in place of the variables they settle. Pure:
 * reads only `env`, touches no disk or network.
 * @throws {ConfigError} listing every refused variable, each named with what it accepts.
 */
export function parseEnv(env: EnvSource, overrides: EnvOverrides = {}): HarnessEnv {
  const source = typeof env === "function" ? env : (name: string) => env[name];
  const replaced = new Map(
    (Object.keys(overrides) as (keyof EnvOverrides)[]).map((key) => [OVERRIDDEN[key], key]),
  );
  const read = (name: string): string | undefined => {
    const key = replaced.get(name);
    return key === undefined ? source(name) : overrides[key];
  };
  const raw = Object.fromEntries(ENV_VARIABLES.map((name) => [name, read(name)]));
  const parsed = Schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues: ConfigIssue[] = parsed.error.issues.map((issue) => ({
    variable: variableOf(issue.message),
    message: issue.message,
  }));
  throw new ConfigError(issues, { cause: parsed.error });
}
