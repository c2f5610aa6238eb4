/**
 * The provider × SDK × surface matrix (docs/environment.md#model) on its own, without any adapter:
 * config validates the model axes of every wake, and an idle wake must not load the adapters (or,
 * through them, anything of a model SDK) to do it.
 */
import { ProviderError } from "../core/types/faults.ts";

/** The endpoint vendors (`AI_PROVIDER`). */
export const PROVIDERS = ["openai", "xai", "openrouter", "anthropic"] as const;
/** An endpoint vendor. */
export type ProviderName = typeof PROVIDERS[number];

/** Surfaces per SDK, default first (`AI_SDK` ⇒ `AI_SDK_SURFACE`). */
export const SDK_SURFACES: Readonly<Record<string, readonly string[]>> = {
  openai: ["responses", "chat"],
  openrouter: ["chat"],
  anthropic: ["messages"],
};

/** Default base URL per endpoint vendor when none is given (`openai` uses the SDK's own). */
export const DEFAULT_BASE_URLS: Readonly<Record<string, string>> = {
  xai: "https://api.x.ai/v1",
  openrouter: "https://openrouter.ai/api/v1",
};

/** The cells this build can run, for error messages and docs. */
export const SUPPORTED_CELLS =
  "AI_SDK=openai with AI_PROVIDER=openai or xai (AI_SDK_SURFACE=responses|chat) or " +
  "AI_PROVIDER=openrouter (AI_SDK_SURFACE=chat); AI_SDK=openrouter with AI_PROVIDER=openrouter; " +
  "AI_SDK=anthropic with AI_PROVIDER=anthropic (AI_SDK_SURFACE=messages); " +
  "AI_SDK=xai-sdk with AI_PROVIDER=xai (run on the openai SDK)";

/**
 * SDK profiles of the Python harness that run here on another adapter, and how
 * (docs/models.md#ai_sdkxai-sdk-runs-on-the-openai-sdk): `xai-sdk` (its native gRPC adapter, the
 * fleet's Grok personas) becomes the openai SDK on the Responses surface at xAI's endpoint, which
 * serves the same models, Live Search, code execution and media, so a persona switches without
 * an edit.
 */
export const SDK_PROFILES: Readonly<
  Record<string, {
    readonly provider: ProviderName;
    readonly surfaces: readonly string[];
    readonly sdk: "openai";
    readonly surface: string;
  }>
> = {
  "xai-sdk": { provider: "xai", surfaces: ["native"], sdk: "openai", surface: "responses" },
};

/** The SDK that actually runs for `AI_SDK=sdk`: a profile's adapter, else `sdk` itself. */
export function runningSdk(sdk: string): string {
  const name = sdk.trim().toLowerCase();
  return SDK_PROFILES[name]?.sdk ?? name;
}

/** The model axes wrongly combined; the message names the variable to fix. */
export class ProviderConfigError extends ProviderError {
  /** The class name, so stack traces and journal lines say which fault this is. */
  override name = "ProviderConfigError";
}

/** The three model axes after validation: lower-cased, the surface resolved to its default. */
export interface ModelAxes {
  /** `AI_PROVIDER`. */
  readonly provider: ProviderName;
  /** `AI_SDK`: an SDK this build has an adapter for. */
  readonly sdk: "openai" | "openrouter" | "anthropic";
  /** `AI_SDK_SURFACE`, or the SDK's default surface when it was unset. */
  readonly surface: string;
  /**
   * `AI_SDK` as configured (lower-cased): equal to {@link sdk} except for a profile of
   * {@link SDK_PROFILES} (`xai-sdk`), which names what the box asked for, not what runs.
   */
  readonly configuredSdk: string;
}

/**
 * Validates the provider × SDK × surface matrix (docs/environment.md#model) without building
 * anything, so config can refuse a bad cell at load time with the same sentences `buildProvider`
 * uses. Values are stripped and lower-cased; unset means `openai` / the provider's own SDK
 * (`anthropic` for `anthropic`, else `openai`) / the SDK's default.
 * @throws {ProviderConfigError} naming the variable to fix.
 */
export function validateModelAxes(
  axes: { readonly provider?: string; readonly sdk?: string; readonly surface?: string },
): ModelAxes {
  const provider = (axes.provider ?? "openai").trim().toLowerCase();
  // Anthropic is reached only through its own SDK, so naming the provider is enough.
  const sdk = (axes.sdk?.trim() || (provider === "anthropic" ? "anthropic" : "openai"))
    .toLowerCase();
  const surface = axes.surface?.trim().toLowerCase() || undefined;
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    throw new ProviderConfigError(
      `Unknown AI_PROVIDER '${provider}'; expected one of (${PROVIDERS.join(", ")}).`,
    );
  }
  const profile = SDK_PROFILES[sdk];
  if (profile) {
    if (provider !== profile.provider) {
      throw new ProviderConfigError(
        `AI_SDK=${sdk} reaches xAI's native endpoint, so it requires ` +
          `AI_PROVIDER=${profile.provider} (got '${provider}').`,
      );
    }
    if (surface !== undefined && !profile.surfaces.includes(surface)) {
      throw new ProviderConfigError(
        `Unknown AI_SDK_SURFACE '${surface}' for AI_SDK='${sdk}'; expected one of (${
          profile.surfaces.join(", ")
        }).`,
      );
    }
    return {
      provider: profile.provider,
      sdk: profile.sdk,
      surface: profile.surface,
      configuredSdk: sdk,
    };
  }
  const surfaces = SDK_SURFACES[sdk];
  if (!surfaces) {
    throw new ProviderConfigError(
      `AI_SDK='${sdk}' has no adapter — expected one of (${
        [...Object.keys(SDK_SURFACES), ...Object.keys(SDK_PROFILES)].join(", ")
      }). ` +
        `Supported here: ${SUPPORTED_CELLS}.`,
    );
  }
  if (surface !== undefined && !surfaces.includes(surface)) {
    throw new ProviderConfigError(
      `Unknown AI_SDK_SURFACE '${surface}' for AI_SDK='${sdk}'; expected one of (${
        surfaces.join(", ")
      }).`,
    );
  }
  if (sdk === "openrouter" && provider !== "openrouter") {
    throw new ProviderConfigError(
      "AI_SDK=openrouter reaches OpenRouter's native endpoint, so it requires " +
        `AI_PROVIDER=openrouter (got '${provider}').`,
    );
  }
  if ((sdk === "anthropic") !== (provider === "anthropic")) {
    throw new ProviderConfigError(
      sdk === "anthropic"
        ? "AI_SDK=anthropic reaches Anthropic's Messages API, so it requires " +
          `AI_PROVIDER=anthropic (got '${provider}').`
        : `AI_PROVIDER=anthropic is reached through Anthropic's own SDK: set AI_SDK=anthropic ` +
          `(or leave AI_SDK unset), not '${sdk}'.`,
    );
  }
  const resolved = surface ?? surfaces[0];
  if (sdk === "openai" && provider === "openrouter" && resolved !== "chat") {
    throw new ProviderConfigError(
      "AI_PROVIDER=openrouter over the openai SDK is chat-only: set AI_SDK_SURFACE=chat " +
        "(or AI_SDK=openrouter).",
    );
  }
  return {
    provider: provider as ProviderName,
    sdk: sdk as ModelAxes["sdk"],
    surface: resolved,
    configuredSdk: sdk,
  };
}

/**
 * The INFO line a wake writes when `AI_SDK` names a profile that runs on another adapter (what
 * runs, where, with which tools), or `undefined` when the configured SDK is the one that runs.
 */
export function profileNotice(
  axes: Pick<ModelAxes, "sdk" | "surface" | "configuredSdk" | "provider">,
  baseURL: string | undefined,
): string | undefined {
  if (axes.configuredSdk === axes.sdk) return undefined;
  const endpoint = baseURL ?? DEFAULT_BASE_URLS[axes.provider] ?? "the SDK's default endpoint";
  return `AI_SDK=${axes.configuredSdk} (the Python harness's native gRPC adapter) runs on the ` +
    `${axes.sdk} SDK at ${endpoint}, ${axes.surface} surface: the same xAI models, with Live ` +
    "Search (web_search, x_search), xAI code execution and the grok media tools wherever their " +
    "plugins are active, as under the xai-sdk profile.";
}
