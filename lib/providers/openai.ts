/**
 * OpenAIProvider: the official openai SDK on either surface, for OpenAI itself, xAI and
 * OpenRouter (chat only). The SDK is imported on the first call, so importing the library
 * never pays for it; SDK retries are off because the engine owns retries
 * (docs/models.md#retries-and-fault-classes).
 */
import { requireInstalled } from "../base/npm_packages.ts";
import { outboundFetch } from "../net/outbound.ts";
import type OpenAI from "openai";
import type { CacheMode, Provider } from "../core/types/provider.ts";
import type { Message } from "../core/types/message.ts";
import type { ToolSpec } from "../core/types/tool.ts";
import { ProviderError } from "../core/types/faults.ts";
import { mapOpenAIError } from "./fault_mapping.ts";
import { OPENAI_OWNED_KEYS, stripOwned } from "./params.ts";
import { fromChatReply, toChatMessages, toChatTools } from "./openai_chat.ts";
import {
  fromResponsesReply,
  RESPONSES_BUILTINS,
  toResponsesInput,
  toResponsesTools,
} from "./openai_responses.ts";
import {
  attachUsage,
  contextFromModel,
  contextLimitFrom,
  type ContextLimitSource,
} from "./usage.ts";
import { isRecord, requireApiKey } from "./wire.ts";
import { withoutNodeGlobals } from "./without_node_globals.ts";
import { DEFAULT_BASE_URLS } from "./axes.ts";

/** The two wire surfaces of the openai SDK. */
export type OpenAISurface = "responses" | "chat";

export { DEFAULT_BASE_URLS } from "./axes.ts";

/** The header that makes OpenRouter return its routing metadata (the served endpoint). */
export const OPENROUTER_METADATA_HEADER = "X-OpenRouter-Metadata";

/** Per-call timeout when none is given, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** How to build an {@link OpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** The model id, as the endpoint names it. */
  readonly model: string;
  /** The API key sent as the bearer token. */
  readonly apiKey: string;
  /** Endpoint; defaults per `providerLabel` (`openai`: the SDK default). */
  readonly baseURL?: string;
  /** Wire surface; `responses` by default. OpenRouter accepts only `chat`. */
  readonly surface?: OpenAISurface;
  /**
   * model_params.json: spread into every call; owned keys are dropped
   * (docs/configuration.md#model_paramsjson-and-search_paramsjson).
   */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Active server-side built-ins by plugin name (`web_search`, `code_execution`, `x_search`). */
  readonly builtins?: readonly string[];
  /** The endpoint vendor: `openai` (default), `xai` or `openrouter`. */
  readonly providerLabel?: string;
  /** Extra default headers (params `extra_headers` merge under these; the harness wins). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** Per-call timeout in milliseconds (default 60 s). */
  readonly timeoutMs?: number;
  /**
   * How prompt caching is reached (docs/models.md#prompt-caching); `automatic` by default, as on
   * OpenAI, xAI and OpenRouter's automatic vendors. Set `explicit` to opt in for a vendor whose
   * cache needs a breakpoint: the brief then anchors the last frozen turn (the charter on a first
   * wake) and the chat surface sends it as a text part with
   * `cache_control: {type: "ephemeral"}`. The responses surface has no breakpoint and sends no
   * marker. `none` declares no prompt cache.
   */
  readonly cacheMode?: CacheMode;
  /**
   * The code container this request should run in (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox), asked per
   * request: OpenAI's `code_interpreter` rides with that id, or `{type: "auto"}` when it answers
   * undefined (no container yet this wake).
   */
  readonly codeContainer?: () => string | undefined;
  /**
   * Sent as `prompt_cache_key` on OpenAI's Responses surface (docs/models.md#prompt-caching), so
   * the requests of one conversation reach the cache that holds their prefix. Not sent to other
   * vendors or on the chat surface; a `prompt_cache_key` in model_params.json wins.
   */
  readonly promptCacheKey?: string;
}

type OpenAIModule = typeof import("openai");

/** A model brain over the openai SDK. See {@link OpenAIProviderOptions}. */
export class OpenAIProvider implements Provider {
  /** How prompt caching is reached: `automatic` unless the operator opted in (see options). */
  readonly cacheMode: CacheMode;
  /** The endpoint vendor label for log lines. */
  readonly provider: string;
  /** The model id. */
  readonly model: string;
  /** The wire surface in use. */
  readonly surface: OpenAISurface;
  /** The built-ins actually wired on this vendor and surface. */
  readonly builtins: readonly string[];
  /** Input tokens of the most recent call, when it reported usage. */
  lastTokensIn?: number;
  /** Where the last `contextLimit()` answer came from (a floor carries its reason). */
  contextLimitSource?: ContextLimitSource;

  readonly #options: OpenAIProviderOptions;
  #sdk?: Promise<{ module: OpenAIModule; client: OpenAI }>;
  #contextLimit?: number;

  /** Validates the options; the SDK itself loads on the first call. */
  constructor(options: OpenAIProviderOptions) {
    requireApiKey(options.apiKey);
    requireInstalled(["openai"]); // the SDK loads on the first call: a missing install is said now
    this.#options = options;
    this.provider = options.providerLabel ?? "openai";
    this.model = options.model;
    this.surface = options.surface ?? "responses";
    this.cacheMode = options.cacheMode ?? "automatic";
    if (this.provider === "openrouter" && this.surface !== "chat") {
      throw new ProviderError(
        "AI_PROVIDER=openrouter over the openai SDK is chat-only: set AI_SDK_SURFACE=chat.",
      );
    }
    this.builtins = wiredBuiltins(this.provider, this.surface, options.builtins ?? []);
  }

  /** One model call on the configured surface; SDK failures become fault classes. */
  async chat(messages: readonly Message[], tools: readonly ToolSpec[] = []): Promise<Message> {
    const { module, client } = await this.#load();
    let reply: unknown;
    try {
      reply = this.surface === "responses"
        ? await client.responses.create(
          this.#body({
            tools: this.#responsesTools(tools),
            input: toResponsesInput(messages),
          }) as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming,
        )
        : await client.chat.completions.create(
          this.#body({
            tools: toChatTools(tools),
            messages: toChatMessages(messages),
          }) as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
        );
    } catch (error) {
      throw mapOpenAIError(error, module.default, { endpoint: client.baseURL });
    }
    const message = this.surface === "responses" ? fromResponsesReply(reply) : fromChatReply(reply);
    this.lastTokensIn = attachUsage(message, reply)?.tokensIn;
    return message;
  }

  /**
   * The model's context ceiling: the first positive integer among `context_length`,
   * `context_window`, `max_context_length` of `models.retrieve(model)`; otherwise (OpenAI
   * states none, or the call failed) the 128,000 floor, with the reason in
   * `contextLimitSource`. Answered once per instance.
   */
  async contextLimit(): Promise<number> {
    if (this.#contextLimit !== undefined) return this.#contextLimit;
    const { limit, source } = await contextLimitFrom(
      "models.retrieve",
      "models.retrieve states no context window",
      async () => {
        const { client } = await this.#load();
        return contextFromModel(await client.models.retrieve(this.model));
      },
    );
    this.contextLimitSource = source;
    this.#contextLimit = limit;
    return limit;
  }

  #responsesTools(tools: readonly ToolSpec[]) {
    if (this.provider === "xai") {
      // xAI's search built-ins ride search_parameters; only its code execution is a tool
      // (docs/models.md#what-runs-where).
      const code = this.builtins.filter((name) => name === "code_execution");
      return toResponsesTools(tools, code, { vendor: "xai" });
    }
    const builtins = this.provider === "openai" ? this.builtins : [];
    return toResponsesTools(tools, builtins, {
      vendor: "openai",
      container: this.#options.codeContainer?.(),
    });
  }

  /**
   * The request body: params first, then what the harness owns on top — tools BEFORE the
   * conversation, so the serialised request starts with everything that is stable across wakes
   * (params, model, the sorted tool list) and the provider's prompt cache can reuse it.
   */
  #body(wire: { tools: unknown[] } & Record<string, unknown>): Record<string, unknown> {
    const { kept } = stripOwned(this.#options.params, OPENAI_OWNED_KEYS);
    const { extra_body: extraBody, extra_headers: _headers, ...rest } = kept;
    const body: Record<string, unknown> = { ...rest };
    if (isRecord(extraBody)) Object.assign(body, extraBody);
    const search = xaiSearchParameters(this.provider, this.builtins);
    if (search) body.search_parameters = search;
    const cacheKey = this.#options.promptCacheKey;
    if (cacheKey && this.provider === "openai" && this.surface === "responses") {
      body.prompt_cache_key ??= cacheKey;
    }
    body.model = this.model;
    for (const [key, value] of Object.entries(wire)) {
      if (key === "tools" && Array.isArray(value) && value.length === 0) continue;
      body[key] = value;
    }
    return body;
  }

  #load(): Promise<{ module: OpenAIModule; client: OpenAI }> {
    this.#sdk ??= (async () => {
      // Hidden: the SDK reads `process` when its module loads (without_node_globals.ts).
      const module = await withoutNodeGlobals(() => import("openai"));
      const options = this.#options;
      const client = withoutNodeGlobals(() =>
        new module.default({
          apiKey: options.apiKey,
          baseURL: options.baseURL ?? DEFAULT_BASE_URLS[this.provider],
          maxRetries: 0,
          timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          defaultHeaders: this.#headers(),
          fetch: outboundFetch("model"),
        })
      );
      return { module, client };
    })();
    // a failed import must not stick: the next call tries again
    this.#sdk.catch(() => (this.#sdk = undefined));
    return this.#sdk;
  }

  #headers(): Record<string, string> {
    const fromParams = isRecord(this.#options.params?.extra_headers)
      ? this.#options.params.extra_headers
      : {};
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(fromParams)) {
      if (typeof value === "string") headers[key] = value;
    }
    Object.assign(headers, this.#options.extraHeaders);
    if (this.provider === "openrouter") headers[OPENROUTER_METADATA_HEADER] = "enabled";
    return headers;
  }
}

/** Which requested built-ins this vendor and surface can run (docs/models.md#what-runs-where). */
function wiredBuiltins(
  provider: string,
  surface: OpenAISurface,
  requested: readonly string[],
): string[] {
  if (provider === "openai" && surface === "responses") {
    return requested.filter((name) => RESPONSES_BUILTINS.has(name));
  }
  if (provider === "xai") {
    // xAI runs code only as a Responses tool; its chat surface has no server-side code tool.
    const wired = new Set([
      "web_search",
      "x_search",
      ...(surface === "responses" ? ["code_execution"] : []),
    ]);
    return requested.filter((name) => wired.has(name));
  }
  return [];
}

/** xAI Live Search: active web_search/x_search become `search_parameters` on either surface. */
function xaiSearchParameters(
  provider: string,
  builtins: readonly string[],
): Record<string, unknown> | undefined {
  const searches = builtins.filter((name) => name === "web_search" || name === "x_search");
  if (provider !== "xai" || searches.length === 0) return undefined;
  const sources = searches.map((name) => ({ type: name === "x_search" ? "x" : "web" }));
  return { mode: "on", sources, return_citations: true };
}
