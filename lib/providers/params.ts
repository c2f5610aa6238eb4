/**
 * model_params.json pass-through (docs/configuration.md#model_paramsjson-and-search_paramsjson).
 * The harness owns some keys per SDK (the model, the key, the wire shape); those are stripped
 * before a call so a params file can never silently swap the model or break the wire. Config logs
 * the WARNING; adapters strip again silently so a library user passing raw params gets the same
 * guarantee.
 */
import type { ChatRequest } from "@openrouter/sdk/models";
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources";

/** Keys the harness sets itself on the openai SDK. */
export const OPENAI_OWNED_KEYS: ReadonlySet<string> = new Set([
  "model",
  "api_key",
  "base_url",
  "provider",
  "surface",
  "timeout",
  "max_retries",
  "builtin_tools",
  "code_container",
  "messages",
  "input",
  "tools",
  "stream",
]);

/**
 * Keys dropped under `AI_SDK=xai-sdk`, which runs on the openai SDK: the openai SDK's own, plus
 * the ones the Python xai-sdk adapter owned (`api_host`, `client`), so a Grok persona's
 * model_params.json never sends them to the Responses API.
 */
export const XAI_SDK_PROFILE_OWNED_KEYS: ReadonlySet<string> = new Set([
  ...OPENAI_OWNED_KEYS,
  "api_host",
  "client",
]);

/** Keys the harness sets itself on the openrouter SDK. */
export const OPENROUTER_OWNED_KEYS: ReadonlySet<string> = new Set([
  "model",
  "api_key",
  "base_url",
  "timeout",
  "client",
  "builtin_tools",
  "web_search_params",
  "messages",
  "tools",
  "stream",
  "http_headers",
]);

/** Params split into what is sent and which owned keys were dropped. */
export interface SplitParams {
  readonly kept: Record<string, unknown>;
  readonly stripped: readonly string[];
}

/** Drops the owned keys of one SDK from a params object. */
export function stripOwned(
  params: Readonly<Record<string, unknown>> | undefined,
  owned: ReadonlySet<string>,
): SplitParams {
  const kept: Record<string, unknown> = {};
  const stripped: string[] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (owned.has(key)) stripped.push(key);
    else kept[key] = value;
  }
  return { kept, stripped };
}

/** snake_case ⇒ camelCase (`max_tokens` ⇒ `maxTokens`); camelCase passes unchanged. */
export function camelKey(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Every top-level key `chatRequest` accepts. `satisfies` makes `deno check` fail when an SDK
 * upgrade adds or removes one, so this list cannot drift silently.
 */
const CHAT_REQUEST_KEYS = {
  cacheControl: true,
  debug: true,
  frequencyPenalty: true,
  imageConfig: true,
  logitBias: true,
  logprobs: true,
  maxCompletionTokens: true,
  maxTokens: true,
  messages: true,
  metadata: true,
  minP: true,
  modalities: true,
  model: true,
  models: true,
  parallelToolCalls: true,
  plugins: true,
  prediction: true,
  presencePenalty: true,
  promptCacheKey: true,
  promptCacheOptions: true,
  provider: true,
  reasoning: true,
  reasoningEffort: true,
  repetitionPenalty: true,
  responseFormat: true,
  seed: true,
  serviceTier: true,
  sessionId: true,
  stop: true,
  stopServerToolsWhen: true,
  stream: true,
  streamOptions: true,
  temperature: true,
  toolChoice: true,
  tools: true,
  topA: true,
  topK: true,
  topLogprobs: true,
  topP: true,
  trace: true,
  user: true,
} as const satisfies Record<keyof ChatRequest, true>;

/** Keys the openrouter SDK has no room for (the openai SDK's escape hatches); dropped. */
export const OPENROUTER_DROPPED_KEYS: ReadonlySet<string> = new Set([
  "extra_body",
  "extra_headers",
]);

/**
 * Whether `key` (snake_case, as model_params.json spells it, or camelCase) is a top-level
 * `chatRequest` parameter of the openrouter SDK. Its schemas drop any other key without a word,
 * so both the configuration check and the adapter refuse one instead.
 */
export function isOpenRouterChatKey(key: string): boolean {
  return Object.hasOwn(CHAT_REQUEST_KEYS, camelKey(key));
}

/**
 * Keys the harness sets itself on the anthropic SDK: the model, the conversation and its tools,
 * and `cache_control`, because the harness places the prompt-cache breakpoints
 * (docs/models.md#prompt-caching-on-anthropic).
 */
export const ANTHROPIC_OWNED_KEYS: ReadonlySet<string> = new Set([
  "model",
  "api_key",
  "base_url",
  "timeout",
  "max_retries",
  "builtin_tools",
  "messages",
  "system",
  "tools",
  "stream",
  "cache_control",
]);

/**
 * Every top-level key `messages.create` accepts. `satisfies` makes `deno check` fail when an SDK
 * upgrade adds or removes one, so this list cannot drift silently.
 */
const MESSAGE_CREATE_KEYS = {
  cache_control: true,
  container: true,
  diagnostics: true,
  inference_geo: true,
  max_tokens: true,
  messages: true,
  metadata: true,
  model: true,
  output_config: true,
  service_tier: true,
  speed: true,
  stop_sequences: true,
  stream: true,
  system: true,
  thinking: true,
  tool_choice: true,
  tools: true,
  user_profile_id: true,
  workspace_id: true,
} as const satisfies Record<keyof MessageCreateParamsNonStreaming, true>;

/** The escape hatches: `extra_body` is merged into the request, `extra_headers` become headers. */
export const ANTHROPIC_ESCAPE_KEYS: ReadonlySet<string> = new Set(["extra_body", "extra_headers"]);

/**
 * Why `key` (an unowned model_params.json key) cannot be sent on the anthropic SDK, or undefined
 * when it can. The Messages API refuses a body key it does not know, so an unknown key is
 * refused at load, naming it, rather than failing every call. `thinking` is refused too: a
 * thinking reply's blocks must be sent back between tool steps, which this adapter does not do.
 */
export function anthropicParamProblem(key: string): string | undefined {
  if (ANTHROPIC_ESCAPE_KEYS.has(key)) return undefined;
  if (key === "thinking") {
    return "'thinking' is not supported on AI_SDK=anthropic yet: a thinking reply's blocks " +
      "must be returned to the API between tool steps, and the harness does not carry them";
  }
  if (!Object.hasOwn(MESSAGE_CREATE_KEYS, key)) {
    return `'${key}' is not a request parameter of Anthropic's Messages API (snake_case: ` +
      "max_tokens, stop_sequences, tool_choice, metadata, service_tier, …; or extra_body / " +
      "extra_headers)";
  }
  return undefined;
}
