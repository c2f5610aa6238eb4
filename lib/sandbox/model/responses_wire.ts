/**
 * The Responses wire of the demo model: `POST …/responses` read into a
 * {@link DemoConversation} (`instructions` and `developer`/`system` items as system turns,
 * `function_call`/`function_call_output` items as calls and results), and the decision written
 * back as a completed `response` object. Streaming is refused with a clear 400.
 */
import type { DemoConversation, DemoDecision, DemoTurn } from "./demo_model.ts";
import {
  argumentsText,
  contentText,
  DEMO_CREATED,
  digest,
  estimateTokens,
  ModelRequestError,
  records,
  str,
} from "./wire_common.ts";

/** Reads a Responses request body. */
export function responsesConversation(body: Record<string, unknown>): DemoConversation {
  if (body.stream === true) {
    throw new ModelRequestError(
      400,
      "The sandbox demo model does not stream on the Responses surface; send stream: false " +
        "(or use /chat/completions, which streams).",
      "stream",
      "unsupported_value",
    );
  }
  const turns: DemoTurn[] = [];
  if (typeof body.instructions === "string" && body.instructions !== "") {
    turns.push({ role: "system", text: body.instructions });
  }
  if (typeof body.input === "string") {
    turns.push({ role: "user", text: body.input });
  } else if (Array.isArray(body.input)) {
    for (const item of records(body.input)) {
      const turn = responsesTurn(item);
      if (turn) turns.push(turn);
    }
  } else {
    throw new ModelRequestError(400, "'input' must be a string or an array of items.", "input");
  }
  const offered = body.tool_choice === "none" ? [] : records(body.tools);
  const tools = offered.flatMap((tool) =>
    tool.type === "function" && str(tool.name) ? [str(tool.name)] : []
  );
  const interpreter = offered.find((tool) => tool.type === "code_interpreter");
  if (!interpreter) return { turns, tools };
  const container = typeof interpreter.container === "string" ? interpreter.container : undefined;
  return { turns, tools, code: { container } };
}

function responsesTurn(item: Record<string, unknown>): DemoTurn | undefined {
  if (item.type === "function_call") {
    const call = {
      id: str(item.call_id),
      name: str(item.name),
      arguments: argumentsText(item.arguments),
    };
    return { role: "assistant", text: "", calls: [call] };
  }
  if (item.type === "function_call_output") {
    return { role: "tool", callId: str(item.call_id), text: contentText(item.output) };
  }
  // Easy input messages carry no `type`; full ones say "message". Other items (reasoning,
  // built-in tool calls) say nothing the demo model acts on.
  if (item.type !== undefined && item.type !== "message") return undefined;
  const text = contentText(item.content);
  if (item.role === "user") return { role: "user", text };
  if (item.role === "assistant") return { role: "assistant", text, calls: [] };
  return { role: "system", text };
}

/** The prompt as the emulated cache sees it: the tools, the instructions, then the input. */
export function responsesPrompt(body: Record<string, unknown>): string {
  return JSON.stringify(body.tools ?? []) + JSON.stringify(body.instructions ?? "") +
    JSON.stringify(body.input ?? "");
}

/**
 * A completed `response` object for `decision`; a code decision reports its run in `container`
 * (the routes recorded it there), and `cached` is the emulated cache's answer for the prompt.
 */
export function responsesReply(
  body: Record<string, unknown>,
  conversation: DemoConversation,
  decision: DemoDecision,
  container?: string,
  cached = 0,
): Record<string, unknown> {
  const seed = digest(JSON.stringify(conversation));
  const promptChars = JSON.stringify(body.input ?? "").length +
    JSON.stringify(body.instructions ?? "").length + JSON.stringify(body.tools ?? []).length;
  const output: Record<string, unknown>[] = [];
  let produced: string;
  if (decision.kind === "call") {
    const args = JSON.stringify(decision.arguments);
    produced = decision.name + args;
    output.push({
      type: "function_call",
      id: `fc_${seed.slice(0, 24)}`,
      // the same id the chat wire would give this conversation's call
      call_id: `call_${seed.slice(0, 24)}`,
      name: decision.name,
      arguments: args,
      status: "completed",
    });
  } else {
    produced = decision.text;
    if (decision.kind === "code") {
      produced += decision.code;
      output.push({
        type: "code_interpreter_call",
        id: `ci_${seed.slice(0, 24)}`,
        code: decision.code,
        container_id: container ?? "",
        outputs: null,
        status: "completed",
      });
    }
    output.push({
      type: "message",
      id: `msg_${seed.slice(0, 24)}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: decision.text, annotations: [], logprobs: [] }],
    });
  }
  const input = estimateTokens(promptChars);
  const out = estimateTokens(produced.length);
  return {
    id: `resp_${seed.slice(0, 32)}`,
    object: "response",
    created_at: DEMO_CREATED,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: str(body.model),
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: body.tool_choice ?? "auto",
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: 1,
    truncation: "disabled",
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: Math.min(cached, input) },
      output_tokens: out,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + out,
    },
    user: null,
    metadata: {},
  };
}
