/**
 * The Anthropic Messages wire of the demo model: `POST …/anthropic/v1/messages` read into a
 * {@link DemoConversation} — the `system` blocks as a system turn, each user-side block as its
 * own turn (a `<system-note>` text block is a harness note, a `tool_result` a tool turn), an
 * assistant message's text and `tool_use` blocks as one assistant turn — and the decision written
 * back as a `message` object, with the cache reads and writes {@link DemoPromptCache} counted.
 * Errors leave in Anthropic's shape (`{type: "error", error: {type, message}}`).
 */
import type { DemoCall, DemoConversation, DemoDecision, DemoTurn } from "./demo_model.ts";
import type { CacheUse } from "./anthropic_cache.ts";
import {
  contentText,
  digest,
  estimateTokens,
  isRecord,
  jsonResponse,
  ModelRequestError,
  readModelBody,
  records,
  str,
} from "./wire_common.ts";

/** A request the Anthropic wire refuses, answered in Anthropic's error shape. */
export class AnthropicRequestError extends Error {
  override name = "AnthropicRequestError";

  /**
   * @param status HTTP status.
   * @param type Anthropic's error type (`invalid_request_error`, `authentication_error`, …).
   * @param message the sentence the SDK puts in its error message.
   */
  constructor(readonly status: number, readonly type: string, message: string) {
    super(message);
  }
}

/** `{type: "error", error: {type, message}}` with the error's status. */
export function anthropicErrorResponse(error: AnthropicRequestError): Response {
  return jsonResponse(error.status, {
    type: "error",
    error: { type: error.type, message: error.message },
  });
}

/** The text of a harness note block (`<system-note>…</system-note>`), or undefined. */
const NOTE = /^<system-note>\n([\s\S]*)\n<\/system-note>$/;

/**
 * Requires a key — an `x-api-key` header or `Authorization: Bearer`, as the SDK sends it (any
 * value: the sandbox has no vendor accounts) — and reads the body as a JSON object with a model
 * and `max_tokens`.
 */
export async function readAnthropicRequest(req: Request): Promise<Record<string, unknown>> {
  const bearer = /^Bearer \S+/i.test(req.headers.get("authorization") ?? "");
  if (!bearer && !req.headers.get("x-api-key")?.trim()) {
    throw new AnthropicRequestError(
      401,
      "authentication_error",
      "An API key is required (x-api-key or Authorization: Bearer): any AI_API_KEY works with " +
        "the sandbox demo model.",
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await readModelBody(req);
  } catch (error) {
    if (!(error instanceof ModelRequestError)) throw error;
    throw new AnthropicRequestError(error.status, "invalid_request_error", error.message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AnthropicRequestError(400, "invalid_request_error", "The body is not valid JSON.");
  }
  if (!isRecord(parsed)) {
    throw new AnthropicRequestError(400, "invalid_request_error", "The body must be an object.");
  }
  if (typeof parsed.model !== "string" || parsed.model === "") {
    throw new AnthropicRequestError(400, "invalid_request_error", "model: Field required");
  }
  if (typeof parsed.max_tokens !== "number") {
    throw new AnthropicRequestError(400, "invalid_request_error", "max_tokens: Field required");
  }
  if (parsed.stream === true) {
    throw new AnthropicRequestError(
      400,
      "invalid_request_error",
      "The sandbox demo model does not stream on the Messages wire; send stream: false.",
    );
  }
  return parsed;
}

/** Reads a Messages request body. */
export function anthropicConversation(body: Record<string, unknown>): DemoConversation {
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new AnthropicRequestError(
      400,
      "invalid_request_error",
      "messages: at least one message is required",
    );
  }
  const turns: DemoTurn[] = [];
  const system = contentText(body.system);
  if (system) turns.push({ role: "system", text: system });
  for (const message of records(body.messages)) {
    const blocks = typeof message.content === "string"
      ? [{ type: "text", text: message.content }]
      : records(message.content);
    if (message.role === "assistant") {
      const calls: DemoCall[] = blocks.filter((block) => block.type === "tool_use").map((
        block,
      ) => ({ id: str(block.id), name: str(block.name), arguments: JSON.stringify(block.input) }));
      const text = blocks.filter((block) => block.type === "text").map((b) => str(b.text)).join("");
      turns.push({ role: "assistant", text, calls });
      continue;
    }
    for (const block of blocks) {
      if (block.type === "tool_result") {
        turns.push({
          role: "tool",
          callId: str(block.tool_use_id),
          text: contentText(block.content),
        });
      } else if (block.type === "text") {
        const text = str(block.text);
        const note = NOTE.exec(text);
        turns.push(note ? { role: "system", text: note[1] } : { role: "user", text });
      }
    }
  }
  // As the API does: a conversation holding tool blocks must define its tools.
  const toolBlocks = records(body.messages).some((message) =>
    records(message.content).some((b) => b.type === "tool_use" || b.type === "tool_result")
  );
  if (toolBlocks && !records(body.tools).length) {
    throw new AnthropicRequestError(
      400,
      "invalid_request_error",
      "Requests which include `tool_use` or `tool_result` blocks must define tools.",
    );
  }
  const offered = isRecord(body.tool_choice) && body.tool_choice.type === "none"
    ? []
    : records(body.tools);
  const tools = offered.flatMap((tool) =>
    (tool.type === undefined || tool.type === "custom") && str(tool.name) ? [str(tool.name)] : []
  );
  return { turns, tools };
}

/** A complete `message` object for `decision`, its usage counted by `cache`. */
export function anthropicReply(
  body: Record<string, unknown>,
  conversation: DemoConversation,
  decision: DemoDecision,
  cache: CacheUse,
): Record<string, unknown> {
  const seed = digest(JSON.stringify(conversation));
  const content: Record<string, unknown>[] = [];
  let output: string;
  if (decision.kind === "call") {
    content.push({
      type: "tool_use",
      id: `toolu_${seed.slice(0, 24)}`,
      name: decision.name,
      input: decision.arguments,
    });
    output = decision.name + JSON.stringify(decision.arguments);
  } else {
    content.push({ type: "text", text: decision.text, citations: null });
    output = decision.text;
  }
  return {
    id: `msg_${seed.slice(0, 24)}`,
    type: "message",
    role: "assistant",
    model: str(body.model),
    content,
    stop_reason: decision.kind === "call" ? "tool_use" : "end_turn",
    stop_sequence: null,
    stop_details: null,
    usage: {
      input_tokens: cache.input,
      cache_creation_input_tokens: cache.written,
      cache_read_input_tokens: cache.read,
      output_tokens: estimateTokens(output.length),
    },
  };
}
