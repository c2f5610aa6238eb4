/**
 * buildProvider: the provider × SDK × surface matrix (docs/environment.md#model) as one validated
 * constructor. Plain options in, a Provider out; reading the environment is config's job.
 */
import type { Provider } from "../core/types/provider.ts";
import { OpenAIProvider, type OpenAISurface } from "./openai.ts";
import { OpenRouterProvider } from "./openrouter.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { validateModelAxes } from "./axes.ts";

export {
  ProviderConfigError,
  type ProviderName,
  PROVIDERS,
  SDK_SURFACES,
  SUPPORTED_CELLS,
  validateModelAxes,
} from "./axes.ts";

/** Everything {@link buildProvider} needs; mirrors the `AI_*` variables and params files. */
export interface BuildProviderOptions {
  /** `AI_PROVIDER` (default `openai`). */
  readonly provider?: string;
  /** `AI_SDK` (default `openai`). */
  readonly sdk?: string;
  /** `AI_SDK_SURFACE`; unset ⇒ the SDK's default. */
  readonly surface?: string;
  /** `AI_MODEL`. */
  readonly model: string;
  /** `AI_API_KEY`. */
  readonly apiKey: string;
  /** `AI_BASE_URL`; unset ⇒ the vendor default. */
  readonly baseURL?: string;
  /** model_params.json. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** search_params.json (native openrouter `web_search` only). */
  readonly searchParams?: Readonly<Record<string, unknown>>;
  /** Active built-in plugins by name. */
  readonly builtins?: readonly string[];
  /** Per-call timeout in milliseconds. */
  readonly timeoutMs?: number;
  /** The code container of this wake, asked per request (openai SDK only). */
  readonly codeContainer?: () => string | undefined;
  /**
   * `prompt_cache_key` for OpenAI's Responses surface: stable per agent and timeline
   * ({@link import("./cache_key.ts").promptCacheKey}); ignored elsewhere.
   */
  readonly promptCacheKey?: string;
}

/** Validates the matrix and builds the adapter. Throws ProviderConfigError on a bad cell. */
export function buildProvider(options: BuildProviderOptions): Provider {
  const { provider, sdk, surface } = validateModelAxes(options);
  if (sdk === "anthropic") {
    return new AnthropicProvider({
      model: options.model,
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      params: options.params,
      builtins: options.builtins,
      timeoutMs: options.timeoutMs,
    });
  }
  if (sdk === "openrouter") {
    return new OpenRouterProvider({
      model: options.model,
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      params: options.params,
      searchParams: options.searchParams,
      builtins: options.builtins,
      timeoutMs: options.timeoutMs,
    });
  }
  return new OpenAIProvider({
    model: options.model,
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    surface: surface as OpenAISurface,
    params: options.params,
    builtins: options.builtins,
    providerLabel: provider,
    timeoutMs: options.timeoutMs,
    codeContainer: options.codeContainer,
    promptCacheKey: options.promptCacheKey,
  });
}
