/**
 * The Responses wire (openai SDK, `surface: "responses"`, the default): input items and tools
 * out, one assistant Message back.
 */
import type OpenAI from "openai";
import type { Message, ToolCall } from "../core/types/message.ts";
import type { ToolSpec } from "../core/types/tool.ts";
import {
  type Citation,
  dataUrl,
  isRecord,
  parseToolArguments,
  records,
  str,
  withFooter,
} from "./wire.ts";

type InputItem = OpenAI.Responses.ResponseInputItem;
type ResponsesTool = OpenAI.Responses.Tool;

/**
 * Messages as Responses input items: system ⇒ `developer`, tool calls ⇒ `function_call` items
 * with JSON-string arguments, tool results ⇒ `function_call_output`, images ⇒ `input_image`.
 */
export function toResponsesInput(messages: readonly Message[]): InputItem[] {
  const items: InputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        items.push({ role: "developer", content: message.content ?? "" });
        break;
      case "user":
        if (!message.images?.length) {
          items.push({ role: "user", content: message.content ?? "" });
          break;
        }
        items.push({
          role: "user",
          content: [
            ...(message.content ? [{ type: "input_text" as const, text: message.content }] : []),
            ...message.images.map((image) => ({
              type: "input_image" as const,
              image_url: dataUrl(image),
              detail: "auto" as const,
            })),
          ],
        });
        break;
      case "assistant":
        if (message.content) items.push({ role: "assistant", content: message.content });
        for (const call of message.toolCalls ?? []) {
          items.push({
            type: "function_call",
            call_id: call.id,
            name: call.name,
            arguments: JSON.stringify(call.arguments),
          });
        }
        break;
      case "tool":
        items.push({
          type: "function_call_output",
          call_id: message.toolCallId ?? "",
          output: message.content ?? "",
        });
        break;
    }
  }
  return items;
}

/** The Responses built-ins this adapter can switch on, by plugin name. */
export const RESPONSES_BUILTINS: ReadonlySet<string> = new Set(["web_search", "code_execution"]);

/** Function tools plus the active built-ins, in Responses form. */
export function toResponsesTools(
  tools: readonly ToolSpec[],
  builtins: readonly string[],
): ResponsesTool[] {
  const out: ResponsesTool[] = [];
  for (const name of builtins) {
    if (name === "web_search") out.push({ type: "web_search" });
    if (name === "code_execution") {
      out.push({ type: "code_interpreter", container: { type: "auto" } });
    }
  }
  for (const tool of tools) {
    out.push({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    });
  }
  return out;
}

/**
 * Reads a Responses reply: `output_text` parts concatenated, `url_citation` annotations into
 * the footer, `function_call` items into tool calls (ids are the `call_id`s).
 */
export function fromResponsesReply(reply: unknown): Message {
  const output = records(isRecord(reply) ? reply.output : undefined);
  const texts: string[] = [];
  const citations: Citation[] = [];
  const toolCalls: ToolCall[] = [];
  for (const item of output) {
    if (item.type === "message") {
      for (const part of records(item.content)) {
        if (part.type !== "output_text") continue;
        texts.push(str(part.text) ?? "");
        for (const annotation of records(part.annotations)) {
          const url = str(annotation.url);
          if (annotation.type === "url_citation" && url) {
            citations.push({ url, title: str(annotation.title) });
          }
        }
      }
    } else if (item.type === "function_call") {
      const name = str(item.name);
      if (!name) continue;
      toolCalls.push({
        id: str(item.call_id) ?? str(item.id) ?? "",
        name,
        arguments: parseToolArguments(item.arguments),
      });
    }
  }
  const content = withFooter(texts.length ? texts.join("") : null, citations);
  const message: Message = { role: "assistant", content };
  if (toolCalls.length) message.toolCalls = toolCalls;
  return message;
}
