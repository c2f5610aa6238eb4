/**
 * The model adapters: OpenAI (and xAI, OpenRouter) over the openai SDK, OpenRouter over its
 * own SDK, Anthropic over its own SDK, the echo example, the matrix-checking factory and the
 * shared fault mapping.
 * Importing this module loads no SDK; each adapter imports its SDK on its first call.
 */
export { OpenAIProvider } from "./openai.ts";
export type { OpenAIProviderOptions, OpenAISurface } from "./openai.ts";
export { DEFAULT_BASE_URLS, DEFAULT_TIMEOUT_MS, OPENROUTER_METADATA_HEADER } from "./openai.ts";
export { OpenRouterProvider } from "./openrouter.ts";
export type { OpenRouterProviderOptions } from "./openrouter.ts";
export {
  ANTHROPIC_BASE_URL,
  AnthropicProvider,
  DEFAULT_MAX_TOKENS,
  MAX_PAUSE_CONTINUATIONS,
} from "./anthropic.ts";
export type { AnthropicProviderOptions } from "./anthropic.ts";
export { CACHE_BREAKPOINT, NOTE_TAG, toAnthropicRequest } from "./anthropic_wire.ts";
export type { AnthropicRequest } from "./anthropic_wire.ts";
export { promptCacheKey } from "./cache_key.ts";
export { EchoProvider } from "./echo.ts";
export {
  buildProvider,
  ProviderConfigError,
  PROVIDERS,
  SDK_SURFACES,
  SUPPORTED_CELLS,
} from "./factory.ts";
export type { BuildProviderOptions, ProviderName } from "./factory.ts";
export {
  classifyHttpFault,
  mapAnthropicError,
  mapOpenAIError,
  mapOpenRouterError,
  matchesAny,
  OUT_OF_FUNDS_PHRASES,
  OVERFLOW_PHRASES,
  parseRetryAfter,
  TOO_LARGE_PHRASES,
} from "./fault_mapping.ts";
export type { HttpFault } from "./fault_mapping.ts";
export {
  CONTEXT_FLOOR,
  contextFromEndpoints,
  contextFromModel,
  extractUsage,
  routingFrom,
  selectedEndpoint,
} from "./usage.ts";
export type { ContextLimitSource, ProviderRouting, RoutableEndpoint } from "./usage.ts";
export {
  ANTHROPIC_OWNED_KEYS,
  OPENAI_OWNED_KEYS,
  OPENROUTER_OWNED_KEYS,
  stripOwned,
} from "./params.ts";
export type { SplitParams } from "./params.ts";
export { citationFooter, parseToolArguments, RAW_ARGUMENTS_KEY } from "./wire.ts";
export type { Citation } from "./wire.ts";
