/**
 * A wire-level model server for tests: real SDKs talk HTTP to it, nothing is mocked in-process.
 *
 * It speaks OpenAI Chat Completions (`POST …/chat/completions`), OpenAI Responses
 * (`POST …/responses`), Anthropic Messages (`POST …/v1/messages`; the anthropic SDK's baseURL is
 * `origin`, without `/v1`), models retrieve (`GET …/models/<id>`) and OpenRouter's endpoints
 * listing (`GET …/models/<author>/<slug>/endpoints`); OpenRouter's chat is the same
 * `…/chat/completions` route. Every request is recorded (method, path, headers, parsed body).
 *
 * ```ts
 * await using mock = await ModelMock.start();          // 127.0.0.1, port 0
 * mock.reply("chat", { json: chatCompletion({ content: "hi" }) });   // queue, FIFO per route
 * mock.reply("chat", (req) => ({ json: chatCompletion({ content: String(req.body) }) }));
 * mock.always("model", { json: { id: "m", context_length: 32768 } }); // when the queue is empty
 * new OpenAI({ baseURL: mock.baseURL, apiKey: "sk-test" });           // baseURL ends in /v1
 * mock.requests[0].body;  mock.hits("chat");  mock.lastBody("chat");
 * ```
 *
 * A reply is `{ json }` (JSON body), `{ text, contentType? }` (raw text: HTML pages,
 * truncated JSON, hand-made SSE), `{ bytes, contentType? }` (a binary body), `{ stream, contentType? }`
 * (a body streamed as the client reads it), with optional `status` (200), `headers`, and `delayMs`
 * (sleeps before answering; cut short by `close()`). A function reply receives the recorded
 * request and returns one of those. An unscripted request gets a 599 JSON error naming the
 * route, so a missing script fails loudly. Routes: `chat`, `responses`, `messages`, `model`, `endpoints`,
 * the media routes `images` (`…/images/generations`), `image_edits` (`…/images/edits`) and
 * `transcriptions` (`…/audio/transcriptions`, multipart bodies are also recorded as `form`),
 * the containers API `containers` (create), `container_files` (list), `container_file_content`
 * and `container_file_create`, or `other` (anything else). `closedPort()` returns a port nothing listens on (for
 * connection-refused tests). The fixture builders below produce bodies the strict openrouter
 * SDK accepts (it rejects e.g. a chat completion without `system_fingerprint`).
 */

/** The routes the mock knows. */
export type Route =
  | "chat"
  | "responses"
  | "messages"
  | "model"
  | "endpoints"
  | "images"
  | "image_edits"
  | "transcriptions"
  | "containers"
  | "container_files"
  | "container_file_content"
  | "container_file_create"
  | "other";

/** One multipart field as the mock saw it: a text value, or a file's name, type and bytes. */
export type FormValue = string | { filename: string; type: string; bytes: Uint8Array };

/** One request as the mock saw it. */
export interface RecordedRequest {
  readonly route: Route;
  readonly method: string;
  /** Path without the query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  readonly headers: Headers;
  /** Parsed JSON body, the raw text when it was not JSON, undefined when empty. */
  readonly body: unknown;
  /** A multipart body's fields by name (repeated names keep every value), else undefined. */
  readonly form?: Readonly<Record<string, FormValue[]>>;
}

/** A scripted answer. */
export type MockReply =
  & { status?: number; headers?: Record<string, string>; delayMs?: number }
  & (
    | { json: unknown }
    | { text: string; contentType?: string }
    | { bytes: Uint8Array<ArrayBuffer>; contentType?: string }
    | { stream: ReadableStream<Uint8Array<ArrayBuffer>>; contentType?: string }
  );

/** A reply, or a function of the request producing one. */
export type MockScript =
  | MockReply
  | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

function routeOf(method: string, path: string): Route {
  if (method === "POST" && path.endsWith("/chat/completions")) return "chat";
  if (method === "POST" && path.endsWith("/responses")) return "responses";
  if (method === "POST" && path.endsWith("/v1/messages")) return "messages";
  if (method === "POST" && path.endsWith("/images/generations")) return "images";
  if (method === "POST" && path.endsWith("/images/edits")) return "image_edits";
  if (method === "POST" && path.endsWith("/audio/transcriptions")) return "transcriptions";
  if (method === "POST" && path.endsWith("/containers")) return "containers";
  if (/\/containers\/[^/]+\/files$/.test(path)) {
    return method === "POST" ? "container_file_create" : "container_files";
  }
  if (method === "GET" && /\/containers\/[^/]+\/files\/[^/]+\/content$/.test(path)) {
    return "container_file_content";
  }
  if (method === "GET" && /\/models\/[^/]+\/[^/]+\/endpoints$/.test(path)) return "endpoints";
  if (method === "GET" && /\/models\/.+/.test(path)) return "model";
  return "other";
}

/** The scripted model server. Start with {@link ModelMock.start}; close (or `await using`). */
export class ModelMock {
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  readonly #queues = new Map<Route, MockScript[]>();
  readonly #fallback = new Map<Route, MockScript>();
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #closing = new AbortController();

  private constructor() {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** Starts a mock on 127.0.0.1 with an OS-chosen port. */
  static start(): Promise<ModelMock> {
    return Promise.resolve(new ModelMock());
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** `http://127.0.0.1:<port>/v1`, what SDKs take as baseURL / serverURL. */
  get baseURL(): string {
    return `${this.origin}/v1`;
  }

  /** Queues replies for a route; each request takes the next one. */
  reply(route: Route, ...scripts: MockScript[]): this {
    const queue = this.#queues.get(route) ?? [];
    queue.push(...scripts);
    this.#queues.set(route, queue);
    return this;
  }

  /** The reply for a route once its queue is empty. */
  always(route: Route, script: MockScript): this {
    this.#fallback.set(route, script);
    return this;
  }

  /** How many requests hit a route (all routes when omitted). */
  hits(route?: Route): number {
    return route ? this.requests.filter((r) => r.route === route).length : this.requests.length;
  }

  /** The requests of one route. */
  requestsTo(route: Route): RecordedRequest[] {
    return this.requests.filter((r) => r.route === route);
  }

  /** The body of the newest request to a route, as a JSON object. */
  lastBody(route: Route): Record<string, unknown> {
    const list = this.requestsTo(route);
    const body = list.at(-1)?.body;
    if (typeof body !== "object" || body === null) {
      throw new Error(`model_mock: no JSON request recorded on route ${route}`);
    }
    return body as Record<string, unknown>;
  }

  /** Stops the server; pending delays end at once. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.#server.shutdown();
  }

  /** `await using mock = await ModelMock.start()` closes it at scope end. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const bytes = new Uint8Array(await request.arrayBuffer());
    const type = request.headers.get("content-type") ?? "";
    // Parsed from the bytes read once (Request.clone() would touch the legacy request.signal).
    const form = type.startsWith("multipart/form-data")
      ? await formOf(new Response(bytes, { headers: { "content-type": type } }))
      : undefined;
    const text = new TextDecoder().decode(bytes);
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const recorded: RecordedRequest = {
      route: routeOf(request.method, url.pathname),
      method: request.method,
      path: url.pathname,
      headers: request.headers,
      body,
      form,
    };
    this.requests.push(recorded);
    const script = this.#queues.get(recorded.route)?.shift() ?? this.#fallback.get(recorded.route);
    if (!script) {
      return Response.json(
        {
          error: { message: `model_mock: nothing scripted for ${recorded.method} ${url.pathname}` },
        },
        { status: 599 },
      );
    }
    const reply = typeof script === "function" ? await script(recorded) : script;
    if (reply.delayMs) await this.#sleep(reply.delayMs);
    const headers = new Headers(reply.headers);
    if ("json" in reply) {
      headers.set("content-type", "application/json");
      return new Response(JSON.stringify(reply.json), { status: reply.status ?? 200, headers });
    }
    headers.set("content-type", reply.contentType ?? "application/json");
    const payload = "bytes" in reply ? reply.bytes : "stream" in reply ? reply.stream : reply.text;
    return new Response(payload, { status: reply.status ?? 200, headers });
  }

  // request.signal is not watched: Deno flags that as legacy; close() ends every delay instead
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#closing.signal.addEventListener("abort", done, { once: true });
    });
  }
}

async function formOf(request: Response): Promise<Record<string, FormValue[]>> {
  const fields: Record<string, FormValue[]> = {};
  for (const [name, value] of (await request.formData()).entries()) {
    const entry: FormValue = typeof value === "string" ? value : {
      filename: value.name,
      type: value.type,
      bytes: new Uint8Array(await value.arrayBuffer()),
    };
    (fields[name] ??= []).push(entry);
  }
  return fields;
}

/** A TCP port on 127.0.0.1 that nothing listens on (bound, then released). */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

// ---------------------------------------------------------------------------------------------
// Fixture builders

/** A tool call in a fixture: id, name and arguments (object ⇒ JSON, string ⇒ sent verbatim). */
export interface FixtureCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown> | string;
}

/** Usage numbers in fixture form (snake_case, as on the wire). */
export interface FixtureUsage {
  readonly prompt?: number;
  readonly completion?: number;
  readonly cached?: number;
  readonly cost?: number;
}

function args(call: FixtureCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

/** OpenRouter routing metadata whose `selected` endpoint is `selected`. */
export function openrouterMetadata(selected: string, others: string[] = []): unknown {
  const available = [selected, ...others].map((provider) => ({
    model: "m",
    provider,
    selected: provider === selected,
  }));
  return {
    attempt: 1,
    endpoints: { available, total: available.length },
    is_byok: false,
    region: null,
    requested: "m",
    strategy: "direct",
    summary: "ok",
  };
}

/**
 * A Chat Completions body (valid for both the openai and the strict openrouter SDK).
 * `annotations` are `{url, title}` pairs rendered as `url_citation` annotations.
 */
export function chatCompletion(options: {
  content?: string | null;
  toolCalls?: readonly FixtureCall[];
  usage?: FixtureUsage;
  annotations?: readonly { url: string; title?: string }[];
  metadataSelected?: string;
  provider?: string;
  extra?: Record<string, unknown>;
} = {}): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: options.content === undefined ? (options.toolCalls ? null : "ok") : options.content,
  };
  if (options.toolCalls?.length) {
    message.tool_calls = options.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: args(call) },
    }));
  }
  if (options.annotations) {
    message.annotations = options.annotations.map((a) => ({
      type: "url_citation",
      url_citation: { url: a.url, title: a.title, start_index: 0, end_index: 1 },
    }));
  }
  const body: Record<string, unknown> = {
    id: "chatcmpl-mock",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "mock-model",
    system_fingerprint: null,
    choices: [{
      index: 0,
      finish_reason: options.toolCalls?.length ? "tool_calls" : "stop",
      message,
      logprobs: null,
    }],
  };
  if (options.usage) {
    const u = options.usage;
    const prompt = u.prompt ?? 0;
    const completion = u.completion ?? 0;
    const usage: Record<string, unknown> = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    };
    if (u.cached !== undefined) usage.prompt_tokens_details = { cached_tokens: u.cached };
    if (u.cost !== undefined) usage.cost = u.cost;
    body.usage = usage;
  }
  if (options.provider) body.provider = options.provider;
  if (options.metadataSelected) {
    body.openrouter_metadata = openrouterMetadata(options.metadataSelected, ["OtherCloud"]);
  }
  return { ...body, ...options.extra };
}

/** A Responses API body: text (with `url_citation` annotations) and `function_call` items. */
export function responsesReply(options: {
  text?: string;
  toolCalls?: readonly FixtureCall[];
  usage?: FixtureUsage;
  annotations?: readonly { url: string; title?: string }[];
  /** `code_interpreter_call` items, before the message. */
  code?: readonly { code: string; container: string }[];
  /** `container_file_citation` annotations on the message. */
  citedFiles?: readonly { fileId: string; filename: string; container: string }[];
} = {}): Record<string, unknown> {
  const output: Record<string, unknown>[] = [];
  (options.code ?? []).forEach((run, index) => {
    output.push({
      type: "code_interpreter_call",
      id: `ci_${index + 1}`,
      code: run.code,
      container_id: run.container,
      outputs: null,
      status: "completed",
    });
  });
  if (options.text !== undefined) {
    output.push({
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{
        type: "output_text",
        text: options.text,
        annotations: [
          ...(options.annotations ?? []).map((a) => ({
            type: "url_citation",
            url: a.url,
            title: a.title,
            start_index: 0,
            end_index: 1,
          })),
          ...(options.citedFiles ?? []).map((f) => ({
            type: "container_file_citation",
            file_id: f.fileId,
            filename: f.filename,
            container_id: f.container,
            start_index: 0,
            end_index: 1,
          })),
        ],
      }],
    });
  }
  for (const call of options.toolCalls ?? []) {
    output.push({
      type: "function_call",
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: args(call),
      status: "completed",
    });
  }
  const body: Record<string, unknown> = {
    id: "resp_mock",
    object: "response",
    created_at: 1_700_000_000,
    model: "mock-model",
    status: "completed",
    output,
  };
  if (options.usage) {
    const u = options.usage;
    body.usage = {
      input_tokens: u.prompt ?? 0,
      output_tokens: u.completion ?? 0,
      total_tokens: (u.prompt ?? 0) + (u.completion ?? 0),
      input_tokens_details: { cached_tokens: u.cached ?? 0 },
    };
  }
  return body;
}

/** One content block of an Anthropic Messages fixture reply. */
export type AnthropicFixtureBlock =
  | { readonly text: string; readonly citations?: readonly { url: string; title?: string }[] }
  | { readonly toolUse: FixtureCall }
  | { readonly raw: Record<string, unknown> };

/** Usage numbers of an Anthropic fixture reply, as on the wire. */
export interface AnthropicFixtureUsage {
  readonly input?: number;
  readonly output?: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

/**
 * An Anthropic Messages reply: `content` blocks (text with `web_search_result_location`
 * citations, `tool_use` with object input, or any raw block), the stop reason (`end_turn` by
 * default, `tool_use` when a tool is used), `stop_details` and usage.
 */
export function anthropicMessage(options: {
  content?: readonly AnthropicFixtureBlock[];
  stopReason?: string;
  stopDetails?: Record<string, unknown> | null;
  usage?: AnthropicFixtureUsage;
} = {}): Record<string, unknown> {
  const content = (options.content ?? [{ text: "ok" }]).map((block) => {
    if ("raw" in block) return block.raw;
    if ("toolUse" in block) {
      const call = block.toolUse;
      return {
        type: "tool_use",
        id: call.id,
        name: call.name,
        input: typeof call.arguments === "string" ? JSON.parse(call.arguments) : call.arguments,
      };
    }
    return {
      type: "text",
      text: block.text,
      citations: block.citations
        ? block.citations.map((c) => ({
          type: "web_search_result_location",
          url: c.url,
          title: c.title ?? null,
          cited_text: "…",
          encrypted_index: "x",
        }))
        : null,
    };
  });
  const usesTool = content.some((block) => block.type === "tool_use");
  const u = options.usage ?? {};
  return {
    id: "msg_mock",
    type: "message",
    role: "assistant",
    model: "mock-model",
    content,
    stop_reason: options.stopReason ?? (usesTool ? "tool_use" : "end_turn"),
    stop_sequence: null,
    stop_details: options.stopDetails ?? null,
    usage: {
      input_tokens: u.input ?? 0,
      output_tokens: u.output ?? 0,
      cache_creation_input_tokens: u.cacheWrite ?? 0,
      cache_read_input_tokens: u.cacheRead ?? 0,
    },
  };
}

/** An Anthropic error body: `{type: "error", error: {type, message}}`. */
export function anthropicError(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

/** A containers-API file listing (one page). */
export function containerFiles(
  container: string,
  files: readonly { id: string; path: string; bytes: number; source: "user" | "assistant" }[],
): Record<string, unknown> {
  return {
    object: "list",
    data: files.map((f) => ({
      id: f.id,
      object: "container.file",
      container_id: container,
      created_at: 1_700_000_000,
      bytes: f.bytes,
      path: f.path,
      source: f.source,
    })),
    first_id: files[0]?.id ?? null,
    last_id: files.at(-1)?.id ?? null,
    has_more: false,
  };
}

/** An OpenAI-shaped error body: `{error: {message, type, param, code}}`. */
export function openaiError(
  message: string,
  options: { type?: string; code?: string | null; param?: string | null } = {},
): Record<string, unknown> {
  return {
    error: {
      message,
      type: options.type ?? "invalid_request_error",
      param: options.param ?? null,
      code: options.code ?? null,
    },
  };
}

/** An OpenRouter-shaped error body: `{error: {code: <int>, message, metadata?}}`. */
export function openrouterError(
  code: number,
  message: string,
  metadata?: Record<string, unknown>,
): Record<string, unknown> {
  return { error: metadata ? { code, message, metadata } : { code, message } };
}

/** One endpoint of an OpenRouter endpoints listing, in the strict SDK's wire shape. */
export function listingEndpoint(options: {
  tag: string;
  contextLength: number;
  maxPromptTokens?: number | null;
  status?: number;
}): Record<string, unknown> {
  return {
    name: `Mock | ${options.tag}`,
    model_id: "author/model",
    model_name: "Model",
    context_length: options.contextLength,
    max_prompt_tokens: options.maxPromptTokens ?? null,
    max_completion_tokens: null,
    pricing: { prompt: "0", completion: "0" },
    provider_name: options.tag.split("/")[0],
    tag: options.tag,
    quantization: null,
    status: options.status ?? 0,
    supported_parameters: ["tools"],
    supports_implicit_caching: false,
    supports_tool_choice: { auto: true, function: true, none: true, required: true },
    latency_last_30m: null,
    throughput_last_30m: null,
    uptime_last_1d: null,
    uptime_last_30m: null,
    uptime_last_5m: null,
  };
}

/** An OpenRouter endpoints listing (`{data: {…, architecture, endpoints}}`). */
export function endpointsListing(
  endpoints: readonly Record<string, unknown>[],
  inputModalities: readonly string[] = ["text"],
): Record<string, unknown> {
  return {
    data: {
      id: "author/model",
      name: "Model",
      created: 1_700_000_000,
      description: "mock",
      architecture: {
        input_modalities: inputModalities,
        output_modalities: ["text"],
        instruct_type: null,
        modality: "text->text",
        tokenizer: null,
      },
      endpoints,
    },
  };
}
