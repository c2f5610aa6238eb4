/**
 * The message model the engine, providers and transcripts share. In memory it is camelCase;
 * `session_format.ts` maps it to the reference's on-disk JSON (snake_case keys).
 */

/** Who said it. */
export type Role = "system" | "user" | "assistant" | "tool";

/** One tool call the model asked for. `arguments` is the parsed JSON object. */
export interface ToolCall {
  /** The provider-supplied call id; the tool turn answering it carries the same id. */
  readonly id: string;
  /** The name of the tool to run. */
  readonly name: string;
  /** The arguments, parsed from the model's JSON. */
  readonly arguments: Record<string, unknown>;
}

/** An image shown to the model. Pixels are never persisted. */
export interface ImageContent {
  /** Short human label ("the file you shared", a filename). */
  readonly alt: string;
  /** e.g. `image/png`. */
  readonly mimeType: string;
  /** Base64 bytes, without a data: prefix. */
  readonly data: string;
}

/** What a provider says it cost, when it says so. Never persisted. */
export interface Usage {
  /** Prompt (input) tokens. */
  readonly tokensIn?: number;
  /** Completion (output) tokens. */
  readonly tokensOut?: number;
  /** Input plus output tokens, as the provider counted them. */
  readonly tokensTotal?: number;
  /** Input tokens served from the provider's prompt cache (a cache read). */
  readonly cachedTokens?: number;
  /**
   * Input tokens written to the provider's prompt cache by this call (Anthropic's
   * `cache_creation_input_tokens`); absent where the vendor does not say.
   */
  readonly cacheWriteTokens?: number;
  /** USD, when the provider states it. */
  readonly cost?: number;
  /** The upstream that served the call (OpenRouter routing), when stated. */
  readonly endpoint?: string;
}

/** One file a code run's reply cited (a `container_file_citation`). */
export interface CodeRunFile {
  /** The vendor's file id inside the container. */
  readonly fileId: string;
  /** The file's name as cited. */
  readonly filename: string;
}

/**
 * What a server-side code run did during one model reply (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox): the
 * cells of source it executed, the container they ran in, and the files the reply cited. Never
 * persisted: the harness bridges it to assets right after the reply.
 */
export interface CodeRun {
  /** The vendor's container id, when the vendor names one (OpenAI does; xAI does not). */
  readonly container?: string;
  /** The executed source, one entry per cell, in order. */
  readonly cells: readonly string[];
  /** Files the reply cited, deduplicated by id. */
  readonly cited: readonly CodeRunFile[];
}

/**
 * Why a reply ended other than by the model's own choice: it refused (a refusal part, a chat
 * `refusal`, a `refusal` stop reason), or the output limit cut it (`incomplete` /
 * `max_output_tokens`, `finish_reason: length`, `max_tokens`). A refusal is a hand-off, never text
 * to rewrite; a cut reply is not a normal final answer.
 */
export type Ending = "refused" | "truncated";

/** One turn of a conversation. */
export interface Message {
  /** Who said it. */
  readonly role: Role;
  /** Text; `null`/absent on an assistant turn that only calls tools. */
  content?: string | null;
  /** Assistant turns: the calls to run, in order. */
  toolCalls?: ToolCall[];
  /** Tool turns: which call this answers. */
  toolCallId?: string;
  /** A user-role turn that is the turn's own work (image caption, note) — never a boundary. */
  injected?: boolean;
  /** Platform item uuids a user turn rendered, or the turns a compaction summary replaced. */
  items?: string[];
  /** Pixels for the model; never persisted, evicted after the turn that showed them. */
  images?: ImageContent[];
  /** Prompt-cache breakpoint for explicit-cache providers; never persisted. */
  cacheAnchor?: boolean;
  /** Provider-reported usage on an assistant reply; never persisted. */
  usage?: Usage;
  /** A server-side code run the reply made; never persisted. */
  codeRun?: CodeRun;
  /** Assistant replies: set when the reply ended by refusal or truncation; never persisted. */
  ending?: Ending;
  /** Assistant replies: the refusal's own words when the vendor gave them; never persisted. */
  refusal?: string;
  /**
   * Assistant replies ending `truncated`: set when the limit cut a tool call (its half-written
   * call is left out), so the loop asks again instead of acting on a partial plan; never persisted.
   */
  cutCall?: boolean;
}

/** The factories {@link Message} offers, typed explicitly so the kit's public API is too. */
export interface MessageFactories {
  /** A system turn. */
  system(content: string): Message;
  /** A user turn, optionally carrying the platform item uuids it rendered. */
  user(content: string, options?: { items?: string[]; injected?: boolean }): Message;
  /** An assistant turn: text, tool calls, or both. */
  assistant(options?: { content?: string | null; toolCalls?: ToolCall[]; usage?: Usage }): Message;
  /** A tool result answering `toolCallId`. */
  tool(toolCallId: string, content: string): Message;
}

/** Factories for the common shapes: `Message.user("hi")`, `Message.assistant({ content })`. */
export const Message: MessageFactories = {
  /** A system turn. */
  system(content: string): Message {
    return { role: "system", content };
  },
  /** A user turn, optionally carrying the platform item uuids it rendered. */
  user(content: string, options: { items?: string[]; injected?: boolean } = {}): Message {
    const message: Message = { role: "user", content };
    if (options.injected) message.injected = true;
    if (options.items?.length) message.items = [...options.items];
    return message;
  },
  /** An assistant turn: text, tool calls, or both. */
  assistant(
    options: { content?: string | null; toolCalls?: ToolCall[]; usage?: Usage } = {},
  ): Message {
    const message: Message = { role: "assistant", content: options.content ?? null };
    if (options.toolCalls?.length) message.toolCalls = options.toolCalls.map((c) => ({ ...c }));
    if (options.usage) message.usage = options.usage;
    return message;
  },
  /** A tool result answering `toolCallId`. */
  tool(toolCallId: string, content: string): Message {
    return { role: "tool", toolCallId, content };
  },
};
