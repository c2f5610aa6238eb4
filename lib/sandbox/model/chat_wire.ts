/**
 * The Chat Completions wire of the demo model: `POST …/chat/completions` read into a
 * {@link DemoConversation}, and the decision written back as a `chat.completion` (or, with
 * `stream: true`, as the equivalent `chat.completion.chunk` server-sent events).
 */
import type { DemoCall, DemoConversation, DemoDecision, DemoTurn } from "./demo_model.ts";
import {
  argumentsText,
  contentText,
  DEMO_CREATED,
  DEMO_FINGERPRINT,
  digest,
  estimateTokens,
  isRecord,
  ModelRequestError,
  records,
  str,
} from "./wire_common.ts";

/** The prompt as the emulated cache sees it: the tools, then the messages (lib/sandbox/model/prompt_cache.ts). */
export function chatPrompt(body: Record<string, unknown>): string {
  return JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages ?? []);
}

/** Reads a Chat Completions request body. */
export function chatConversation(body: Record<string, unknown>): DemoConversation {
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new ModelRequestError(400, "'messages' must be a non-empty array.", "messages");
  }
  const turns = records(body.messages).map(chatTurn);
  const tools = body.tool_choice === "none" ? [] : records(body.tools).flatMap((tool) => {
    const fn = isRecord(tool.function) ? tool.function : {};
    return tool.type === "function" && str(fn.name) ? [str(fn.name)] : [];
  });
  return { turns, tools };
}

function chatTurn(message: Record<string, unknown>): DemoTurn {
  const text = contentText(message.content);
  switch (message.role) {
    case "user":
      return { role: "user", text };
    case "assistant": {
      const calls: DemoCall[] = records(message.tool_calls).map((call) => {
        const fn = isRecord(call.function) ? call.function : {};
        return { id: str(call.id), name: str(fn.name), arguments: argumentsText(fn.arguments) };
      });
      return { role: "assistant", text, calls };
    }
    case "tool":
      return { role: "tool", callId: str(message.tool_call_id), text };
    default:
      // system, developer and anything newer are instructions, never a question
      return { role: "system", text };
  }
}

/** The pieces both the plain and the streamed reply are made of. */
interface ChatReply {
  readonly id: string;
  readonly model: string;
  readonly content: string | null;
  readonly toolCall?: { id: string; name: string; arguments: string };
  readonly finishReason: "stop" | "tool_calls";
  readonly usage: Record<string, unknown>;
}

function chatReply(
  body: Record<string, unknown>,
  conversation: DemoConversation,
  decision: DemoDecision,
  cached: number,
): ChatReply {
  const seed = digest(JSON.stringify(conversation));
  const promptChars = JSON.stringify(body.messages ?? []).length +
    JSON.stringify(body.tools ?? []).length;
  const call = decision.kind === "call"
    ? {
      id: `call_${seed.slice(0, 24)}`,
      name: decision.name,
      arguments: JSON.stringify(decision.arguments),
    }
    : undefined;
  const output = call ? call.name + call.arguments : decision.kind !== "call" ? decision.text : "";
  const prompt = estimateTokens(promptChars);
  const completion = estimateTokens(output.length);
  return {
    id: `chatcmpl-${seed.slice(0, 29)}`,
    model: str(body.model),
    content: decision.kind !== "call" ? decision.text : null,
    toolCall: call,
    finishReason: call ? "tool_calls" : "stop",
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: Math.min(cached, prompt), audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
  };
}

/** A complete `chat.completion` object for `decision`. */
export function chatCompletion(
  body: Record<string, unknown>,
  conversation: DemoConversation,
  decision: DemoDecision,
  cached = 0,
): Record<string, unknown> {
  const reply = chatReply(body, conversation, decision, cached);
  const message: Record<string, unknown> = {
    role: "assistant",
    content: reply.content,
    refusal: null,
    annotations: [],
  };
  if (reply.toolCall) {
    const { id, name, arguments: args } = reply.toolCall;
    message.tool_calls = [{ id, type: "function", function: { name, arguments: args } }];
  }
  return {
    id: reply.id,
    object: "chat.completion",
    created: DEMO_CREATED,
    model: reply.model,
    system_fingerprint: DEMO_FINGERPRINT,
    service_tier: "default",
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
    usage: reply.usage,
  };
}

/**
 * The same reply as server-sent events: a role chunk, one content or tool-call chunk, the
 * finish chunk, a usage chunk when `stream_options.include_usage` asks, then `[DONE]`.
 */
export function chatStream(
  body: Record<string, unknown>,
  conversation: DemoConversation,
  decision: DemoDecision,
  cached = 0,
): Response {
  const reply = chatReply(body, conversation, decision, cached);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    id: reply.id,
    object: "chat.completion.chunk",
    created: DEMO_CREATED,
    model: reply.model,
    system_fingerprint: DEMO_FINGERPRINT,
    choices,
    ...extra,
  });
  const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
    index: 0,
    delta: d,
    logprobs: null,
    finish_reason: finish,
  });
  const events: unknown[] = [chunk([delta({ role: "assistant", content: "" })])];
  if (reply.toolCall) {
    const { id, name, arguments: args } = reply.toolCall;
    events.push(chunk([delta({
      tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: args } }],
    })]));
  } else {
    events.push(chunk([delta({ content: reply.content ?? "" })]));
  }
  events.push(chunk([delta({}, reply.finishReason)]));
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  if (options.include_usage === true) events.push(chunk([], { usage: reply.usage }));
  const text = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("") +
    "data: [DONE]\n\n";
  return new Response(text, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}
