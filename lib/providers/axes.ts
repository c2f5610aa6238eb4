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

/** The cells this build can run, for error messages and docs. */
export const SUPPORTED_CELLS =
  "AI_SDK=openai with AI_PROVIDER=openai or xai (AI_SDK_SURFACE=responses|chat) or " +
  "AI_PROVIDER=openrouter (AI_SDK_SURFACE=chat); AI_SDK=openrouter with AI_PROVIDER=openrouter; " +
  "AI_SDK=anthropic with AI_PROVIDER=anthropic (AI_SDK_SURFACE=messages)";

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
  if (sdk === "xai-sdk") {
    throw new ProviderConfigError(
      "AI_SDK=xai-sdk is the Python harness's native gRPC adapter and has no TypeScript " +
        `counterpart. Supported here: ${SUPPORTED_CELLS}.`,
    );
  }
  const surfaces = SDK_SURFACES[sdk];
  if (!surfaces) {
    throw new ProviderConfigError(
      `AI_SDK='${sdk}' has no adapter — expected one of (${
        Object.keys(SDK_SURFACES).join(", ")
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
  return { provider: provider as ProviderName, sdk: sdk as ModelAxes["sdk"], surface: resolved };
}
