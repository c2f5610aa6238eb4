/**
 * AnthropicProvider: Claude through Anthropic's own SDK (`AI_PROVIDER=anthropic`,
 * `AI_SDK=anthropic`) on the Messages API. The SDK is imported on the first call, so importing
 * the library never pays for it; its retries are off because the engine owns retries
 * (docs/models.md#retries-and-fault-classes). Prompt caching is explicit on this API: the request
 * carries two breakpoints placed by design (anthropic_wire.ts), and the reply's cache reads and
 * writes are reported as usage. A `pause_turn` stop is resumed here, a bounded number of times;
 * a refusal or a cut reply is reported on the message (`ending`), never rewritten.
 */
import { outboundFetch } from "../net/outbound.ts";
import type Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
} from "@anthropic-ai/sdk/resources";
import type { CacheMode, Provider } from "../core/types/provider.ts";
import type { Message } from "../core/types/message.ts";
import type { ToolSpec } from "../core/types/tool.ts";
import { ProviderError } from "../core/types/faults.ts";
import { mapAnthropicError } from "./fault_mapping.ts";
import { ANTHROPIC_OWNED_KEYS, anthropicParamProblem, stripOwned } from "./params.ts";
import { ANTHROPIC_BUILTINS, toAnthropicRequest } from "./anthropic_wire.ts";
import { anthropicUsage, fromAnthropicContent } from "./anthropic_reply.ts";
import { contextLimitFrom, type ContextLimitSource } from "./usage.ts";
import { isRecord, records, requireApiKey } from "./wire.ts";
import { withoutNodeGlobals } from "./without_node_globals.ts";
import { DEFAULT_TIMEOUT_MS } from "./openai.ts";

/** Anthropic's endpoint when `AI_BASE_URL` is unset (the SDK appends `/v1/messages`). */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/**
 * `max_tokens` when model_params.json sets none: the API requires one. Enough for any reply an
 * agent posts and a long tool call; a reply cut at it ends `truncated`.
 */
export const DEFAULT_MAX_TOKENS = 8192;

/**
 * How many times one call resumes a `pause_turn` stop (a long server-side tool run the API
 * paused). Past it, the reply so far is returned, marked `truncated`.
 */
export const MAX_PAUSE_CONTINUATIONS = 3;

/** How to build an {@link AnthropicProvider}. */
export interface AnthropicProviderOptions {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** The Anthropic API key (sent as `x-api-key`). */
  readonly apiKey: string;
  /** `AI_BASE_URL`, without `/v1`; default {@link ANTHROPIC_BASE_URL}. */
  readonly baseURL?: string;
  /**
   * model_params.json: spread into every call; owned keys are dropped, unknown ones refused
   * (docs/configuration.md#model_paramsjson-and-search_paramsjson).
   */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Active server-side built-ins by plugin name; only `web_search` is wired. */
  readonly builtins?: readonly string[];
  /** Per-call timeout in milliseconds (default 60 s). */
  readonly timeoutMs?: number;
}

type AnthropicModule = typeof import("@anthropic-ai/sdk");

/** What the model listing says about the model (context window and image input). */
interface ModelFacts {
  readonly contextWindow?: number;
  readonly vision?: boolean;
}

/** A model brain over the anthropic SDK. See {@link AnthropicProviderOptions}. */
export class AnthropicProvider implements Provider {
  /** The Messages API caches only where the request marks it. */
  readonly cacheMode: CacheMode = "explicit";
  /** Always `anthropic`. */
  readonly provider = "anthropic";
  /** The model id. */
  readonly model: string;
  /** The built-ins actually wired (`web_search`). */
  readonly builtins: readonly string[];
  /** Input tokens of the most recent call (cache reads and writes included). */
  lastTokensIn?: number;
  /** Where the last `contextLimit()` answer came from (a floor carries its reason). */
  contextLimitSource?: ContextLimitSource;

  readonly #options: AnthropicProviderOptions;
  readonly #params: Record<string, unknown>;
  readonly #headers: Record<string, string>;
  #sdk?: Promise<{ module: AnthropicModule; client: Anthropic }>;
  /** The tools of the latest call that offered any. */
  #lastTools: readonly ToolSpec[] = [];
  #facts?: Promise<ModelFacts>;
  #contextLimit?: number;

  /**
   * Validates the options — a model_params key the API would refuse throws here, naming it —
   * and loads nothing: the SDK loads on the first call.
   */
  constructor(options: AnthropicProviderOptions) {
    requireApiKey(options.apiKey);
    this.#options = options;
    this.model = options.model;
    this.builtins = (options.builtins ?? []).filter((name) => ANTHROPIC_BUILTINS.has(name));
    const { kept } = stripOwned(options.params, ANTHROPIC_OWNED_KEYS);
    for (const key of Object.keys(kept)) {
      const problem = anthropicParamProblem(key);
      if (problem) throw new ProviderError(`A key in model_params.json was refused: ${problem}.`);
    }
    const { extra_body: extraBody, extra_headers: extraHeaders, ...rest } = kept;
    this.#params = { ...rest, ...(isRecord(extraBody) ? extraBody : {}) };
    this.#headers = {};
    if (isRecord(extraHeaders)) {
      for (const [key, value] of Object.entries(extraHeaders)) {
        if (typeof value === "string") this.#headers[key] = value;
      }
    }
  }

  /**
   * One model call, resuming a paused turn; SDK failures become fault classes. A call without
   * tools (the engine's reserve call) after calls with them sends the same tools with
   * `tool_choice: none`: the API refuses `tool_use` blocks in a request that defines no tools, and
   * the unchanged tools keep the cached prefix.
   */
  async chat(messages: readonly Message[], tools: readonly ToolSpec[] = []): Promise<Message> {
    const { module, client } = await this.#load();
    const toolless = tools.length === 0 && this.#lastTools.length > 0;
    if (tools.length) this.#lastTools = tools;
    const wire = toAnthropicRequest(messages, toolless ? this.#lastTools : tools, this.builtins);
    const body: Record<string, unknown> = {
      max_tokens: DEFAULT_MAX_TOKENS,
      ...this.#params,
      ...(toolless ? { tool_choice: { type: "none" } } : {}),
      model: this.model,
      // tools → system → messages: the order the API renders and caches
      ...wire,
    };
    const replies: Record<string, unknown>[] = [];
    const paused: ContentBlockParam[] = [];
    for (let continuation = 0;; continuation++) {
      const request = paused.length
        ? { ...body, messages: [...wire.messages, { role: "assistant", content: paused }] }
        : body;
      let reply: unknown;
      try {
        reply = await client.messages.create(
          request as unknown as MessageCreateParamsNonStreaming,
        );
      } catch (error) {
        throw mapAnthropicError(error, module.default, { endpoint: client.baseURL });
      }
      if (!isRecord(reply)) throw new ProviderError("The Messages API answered without a message.");
      replies.push(reply);
      // A paused turn is continued by sending its content back as the assistant's own.
      if (reply.stop_reason !== "pause_turn") break;
      paused.push(...(records(reply.content) as unknown as ContentBlockParam[]));
      if (continuation === MAX_PAUSE_CONTINUATIONS) break;
    }
    const last = replies[replies.length - 1];
    const content = replies.flatMap((reply) => records(reply.content));
    const stop = typeof last.stop_reason === "string" ? last.stop_reason : undefined;
    const message = fromAnthropicContent(content, stop, last.stop_details);
    const usage = anthropicUsage(replies);
    if (usage) message.usage = usage;
    this.lastTokensIn = usage?.tokensIn;
    return message;
  }

  /**
   * The model's context window, `max_input_tokens` of `models.retrieve(model)`; otherwise (the
   * listing states none, or the call failed) the 128,000 floor, with the reason in
   * `contextLimitSource`. Answered once per instance.
   */
  async contextLimit(): Promise<number> {
    if (this.#contextLimit !== undefined) return this.#contextLimit;
    const { limit, source } = await contextLimitFrom(
      "models.retrieve",
      "models.retrieve states no max_input_tokens",
      async () => (await this.#modelFacts()).contextWindow,
    );
    this.contextLimitSource = source;
    this.#contextLimit = limit;
    return limit;
  }

  /**
   * Whether the model reads images, from the listing's `capabilities.image_input`: absent (or a
   * failed listing) ⇒ unknown, so images are still shown.
   */
  async supportsVision(): Promise<boolean | undefined> {
    try {
      return (await this.#modelFacts()).vision;
    } catch {
      return undefined;
    }
  }

  #modelFacts(): Promise<ModelFacts> {
    this.#facts ??= (async () => {
      const { module, client } = await this.#load();
      let info: unknown;
      try {
        info = await client.models.retrieve(this.model);
      } catch (error) {
        throw mapAnthropicError(error, module.default, { endpoint: client.baseURL });
      }
      return modelFacts(info);
    })();
    // cached only when it worked; a failure is asked again by the next caller
    this.#facts.catch(() => (this.#facts = undefined));
    return this.#facts;
  }

  #load(): Promise<{ module: AnthropicModule; client: Anthropic }> {
    this.#sdk ??= (async () => {
      // Hidden: the SDK reads `process` when its module loads (without_node_globals.ts).
      const module = await withoutNodeGlobals(() => import("@anthropic-ai/sdk"));
      const options = this.#options;
      const client = withoutNodeGlobals(() =>
        new module.default({
          apiKey: options.apiKey,
          baseURL: options.baseURL ?? ANTHROPIC_BASE_URL,
          maxRetries: 0,
          timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          defaultHeaders: this.#headers,
          fetch: outboundFetch("model"),
          // The harness writes its own model spans; the SDK neither traces nor sends trace headers.
          openTelemetry: { traces: false, propagation: false },
        })
      );
      return { module, client };
    })();
    // a failed import must not stick: the next call tries again
    this.#sdk.catch(() => (this.#sdk = undefined));
    return this.#sdk;
  }
}

/** `max_input_tokens` and `capabilities.image_input.supported` of a model listing entry. */
function modelFacts(info: unknown): ModelFacts {
  if (!isRecord(info)) return {};
  const window = info.max_input_tokens;
  const capabilities = isRecord(info.capabilities) ? info.capabilities : {};
  const image = isRecord(capabilities.image_input) ? capabilities.image_input.supported : undefined;
  return {
    contextWindow: typeof window === "number" && Number.isInteger(window) && window > 0
      ? window
      : undefined,
    vision: typeof image === "boolean" ? image : undefined,
  };
}
