/**
 * OpenRouterProvider: OpenRouter through its own SDK (`AI_SDK=openrouter`). Lazy-imported
 * (it costs ~250 ms to load), SDK retries off (its default retries 5xx for up to an hour),
 * never streams. The SDK validates replies strictly and renames fields to camelCase; the raw
 * body is kept per call because its schema drops the `url_citation` annotations.
 */
import { requireInstalled } from "../base/npm_packages.ts";
import { outboundFetch } from "../net/outbound.ts";
import type { OpenRouter } from "@openrouter/sdk";
import type { CacheMode, Provider } from "../core/types/provider.ts";
import type { Message } from "../core/types/message.ts";
import type { ToolSpec } from "../core/types/tool.ts";
import { ProviderError } from "../core/types/faults.ts";
import { mapOpenRouterError } from "./fault_mapping.ts";
import { OPENROUTER_OWNED_KEYS, stripOwned } from "./params.ts";
import { chatReplyCitations, chatReplyMessage, fromChatReply } from "./openai_chat.ts";
import { openRouterParams, toOpenRouterMessages, toOpenRouterTools } from "./openrouter_wire.ts";
import {
  attachUsage,
  contextFromEndpoints,
  contextLimitFrom,
  type ContextLimitSource,
  type RoutableEndpoint,
  routingFrom,
} from "./usage.ts";
import { citationFooter, isRecord, records, requireApiKey, str } from "./wire.ts";
import { DEFAULT_TIMEOUT_MS } from "./openai.ts";

/** How to build an {@link OpenRouterProvider}. */
export interface OpenRouterProviderOptions {
  /** `author/slug[:variant]`. */
  readonly model: string;
  /** The OpenRouter API key. */
  readonly apiKey: string;
  /** Default `https://openrouter.ai/api/v1`. */
  readonly baseURL?: string;
  /**
   * model_params.json: snake_case keys, checked against `chatRequest`
   * (docs/configuration.md#model_paramsjson-and-search_paramsjson).
   */
  readonly params?: Readonly<Record<string, unknown>>;
  /** search_params.json: the `openrouter:web_search` tool's `parameters`. */
  readonly searchParams?: Readonly<Record<string, unknown>>;
  /** Active built-ins; only `web_search` is wired here. */
  readonly builtins?: readonly string[];
  /** Per-call timeout in milliseconds (default 60 s). */
  readonly timeoutMs?: number;
}

type Sdk = {
  readonly module: typeof import("@openrouter/sdk");
  readonly errors: typeof import("@openrouter/sdk/models/errors");
};

/** What the endpoints listing says about the model (shared by context limit and vision). */
interface Listing {
  readonly endpoints: RoutableEndpoint[];
  readonly inputModalities: readonly string[];
}

/** A model brain over the native openrouter SDK. See {@link OpenRouterProviderOptions}. */
export class OpenRouterProvider implements Provider {
  /** OpenRouter caches automatically where the upstream does. */
  readonly cacheMode: CacheMode = "automatic";
  /** Always `openrouter`. */
  readonly provider = "openrouter";
  /** The model id. */
  readonly model: string;
  /** `["web_search"]` when the server tool is on. */
  readonly builtins: readonly string[];
  /** Input tokens of the most recent call, when it reported usage. */
  lastTokensIn?: number;
  /** Where the last `contextLimit()` answer came from (a floor carries its reason). */
  contextLimitSource?: ContextLimitSource;

  readonly #options: OpenRouterProviderOptions;
  #sdk?: Promise<Sdk>;
  #listing?: Promise<Listing>;
  #contextLimit?: number;

  /** The endpoint every call goes to (`AI_BASE_URL`, else OpenRouter's), also named by faults. */
  get #serverURL(): string {
    return this.#options.baseURL ?? "https://openrouter.ai/api/v1";
  }

  /** Validates the options; the SDK itself loads on the first call. */
  constructor(options: OpenRouterProviderOptions) {
    requireApiKey(options.apiKey);
    requireInstalled(["@openrouter/sdk"]); // the SDK loads on the first call: a missing install is said now
    this.#options = options;
    this.model = options.model;
    this.builtins = (options.builtins ?? []).filter((name) => name === "web_search");
  }

  /** One `chat.send`; SDK failures become fault classes. */
  async chat(messages: readonly Message[], tools: readonly ToolSpec[] = []): Promise<Message> {
    const { kept } = stripOwned(this.#options.params, OPENROUTER_OWNED_KEYS);
    // checked before loading anything: a bad params file fails without a network call
    const params = openRouterParams(kept);
    const sdk = await this.#load();
    const raw: { body?: Promise<string> } = {};
    const client = this.#client(sdk, raw);
    const wireTools = toOpenRouterTools(
      tools,
      this.builtins.includes("web_search") ? this.#options.searchParams ?? {} : undefined,
    );
    let result: unknown;
    try {
      result = await client.chat.send({
        xOpenRouterMetadata: "enabled",
        chatRequest: {
          ...params,
          model: this.model,
          // tools before the conversation: the stable part of the request comes first
          ...(wireTools.length ? { tools: wireTools } : {}),
          messages: toOpenRouterMessages(messages),
          stream: false,
        },
      });
    } catch (error) {
      throw mapOpenRouterError(error, sdk.errors, { endpoint: this.#serverURL });
    }
    const message = fromChatReply(result);
    const footer = citationFooter(await rawCitations(raw.body));
    if (footer && !message.content?.includes("\n\nSources:\n")) {
      message.content = (message.content ?? "") + footer;
    }
    this.lastTokensIn = attachUsage(message, result)?.tokensIn;
    return message;
  }

  /**
   * The ceiling over the endpoints OpenRouter may route to (`endpoints.list`): max of
   * min(context_length, max_prompt_tokens), honouring the `provider` routing params. Any
   * failure ⇒ the 128,000 floor, reason in `contextLimitSource`. Answered once per instance.
   */
  async contextLimit(): Promise<number> {
    if (this.#contextLimit !== undefined) return this.#contextLimit;
    const { limit, source } = await contextLimitFrom(
      "endpoints.list",
      "no routable endpoint states a context length",
      async () => {
        const listing = await this.#loadListing();
        return contextFromEndpoints(listing.endpoints, routingFrom(this.#options.params));
      },
    );
    this.contextLimitSource = source;
    this.#contextLimit = limit;
    return limit;
  }

  /**
   * Whether the model takes images, from the listing's `architecture.input_modalities`:
   * absent or empty (or a failed listing) ⇒ unknown, so images are still shown.
   */
  async supportsVision(): Promise<boolean | undefined> {
    try {
      const { inputModalities } = await this.#loadListing();
      return inputModalities.length ? inputModalities.includes("image") : undefined;
    } catch {
      return undefined;
    }
  }

  #loadListing(): Promise<Listing> {
    this.#listing ??= (async () => {
      const [author, slugWithVariant] = splitModel(this.model);
      const slug = slugWithVariant.split(":")[0];
      const sdk = await this.#load();
      let response: unknown;
      try {
        response = await this.#client(sdk).endpoints.list({ author, slug });
      } catch (error) {
        throw mapOpenRouterError(error, sdk.errors, { endpoint: this.#serverURL });
      }
      return parseListing(response);
    })();
    // cached per process only when it worked; a failure is retried by the next caller
    this.#listing.catch(() => (this.#listing = undefined));
    return this.#listing;
  }

  #load(): Promise<Sdk> {
    this.#sdk ??= (async () => ({
      module: await import("@openrouter/sdk"),
      errors: await import("@openrouter/sdk/models/errors"),
    }))();
    this.#sdk.catch(() => (this.#sdk = undefined));
    return this.#sdk;
  }

  /** A client for one call; `raw` receives the successful response body as text. */
  #client(sdk: Sdk, raw?: { body?: Promise<string> }): OpenRouter {
    const options = this.#options;
    const httpClient = new sdk.module.HTTPClient({
      fetcher: async (input, init) => {
        const response = await outboundFetch("model")(input, init);
        if (raw && response.ok) raw.body = response.clone().text().catch(() => "");
        return response;
      },
    });
    return new sdk.module.OpenRouter({
      apiKey: options.apiKey,
      serverURL: this.#serverURL,
      retryConfig: { strategy: "none" },
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      httpClient,
    });
  }
}

function splitModel(model: string): [string, string] {
  const slash = model.indexOf("/");
  if (slash <= 0 || slash === model.length - 1) {
    throw new ProviderError(`model '${model}' is not in author/slug form`);
  }
  return [model.slice(0, slash), model.slice(slash + 1)];
}

/** The SDK's parsed listing (`{data: {architecture, endpoints}}`, camelCase), narrowed. */
function parseListing(response: unknown): Listing {
  const data = isRecord(response) && isRecord(response.data) ? response.data : {};
  const architecture = isRecord(data.architecture) ? data.architecture : {};
  const modalities = Array.isArray(architecture.inputModalities)
    ? architecture.inputModalities.filter((m): m is string => typeof m === "string")
    : [];
  const endpoints = records(data.endpoints).map((e): RoutableEndpoint => ({
    contextLength: typeof e.contextLength === "number" ? e.contextLength : undefined,
    maxPromptTokens: typeof e.maxPromptTokens === "number" ? e.maxPromptTokens : undefined,
    status: typeof e.status === "number" ? e.status : undefined,
    tag: str(e.tag),
  }));
  return { endpoints, inputModalities: modalities };
}

/** `url_citation` annotations from the raw body, which the SDK's schema does not keep. */
async function rawCitations(body: Promise<string> | undefined) {
  if (!body) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(await body);
  } catch {
    return [];
  }
  const message = chatReplyMessage(parsed);
  return message ? chatReplyCitations(parsed, message) : [];
}
