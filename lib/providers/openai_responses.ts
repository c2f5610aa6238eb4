/**
 * The Responses wire (openai SDK, `surface: "responses"`, the default): input items and tools
 * out, one assistant Message back.
 */
import type OpenAI from "openai";
import type { CodeRun, CodeRunFile, Ending, Message, ToolCall } from "../core/types/message.ts";
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

/**
 * How the code built-in rides for this request: OpenAI's `code_interpreter` with a container (the
 * turn's container id, else `{type: "auto"}`), or xAI's, which takes no container (its Responses
 * surface documents the tool as a bare `{type: "code_interpreter"}`; docs/tools.md#code_execution-run-code-in-the-vendors-sandbox).
 */
export type CodeBuiltin =
  | { readonly vendor: "openai"; readonly container?: string }
  | { readonly vendor: "xai" };

/** Function tools plus the active built-ins, in Responses form. */
export function toResponsesTools(
  tools: readonly ToolSpec[],
  builtins: readonly string[],
  code: CodeBuiltin = { vendor: "openai" },
): ResponsesTool[] {
  const out: ResponsesTool[] = [];
  for (const name of builtins) {
    if (name === "web_search") out.push({ type: "web_search" });
    if (name === "code_execution") out.push(codeInterpreter(code));
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

function codeInterpreter(code: CodeBuiltin): ResponsesTool {
  if (code.vendor === "xai") {
    // xAI's tool has no container parameter; the SDK's type insists on one, the wire does not.
    return { type: "code_interpreter" } as unknown as ResponsesTool;
  }
  return { type: "code_interpreter", container: code.container ?? { type: "auto" } };
}

/**
 * The text a reply that only ran code (no text, no calls) is recorded with. A reply with neither
 * would read to the recovery as a wake killed inside the model call, and the turn would be driven
 * again — running the code a second time (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox).
 */
export const CODE_ONLY_REPLY = "[I ran code in the vendor's sandbox.]";

/**
 * Reads a Responses reply: `output_text` parts concatenated, `url_citation` annotations into
 * the footer, `function_call` items into tool calls (ids are the `call_id`s), and the code trace —
 * `code_interpreter_call` items' source and container, `container_file_citation` annotations —
 * into `codeRun`. A `refusal` part sets `ending: "refused"` (its words kept as `refusal`); an
 * `incomplete` reply cut by `max_output_tokens` sets `ending: "truncated"`, leaving its function
 * calls out (the last may be half written) and marking the message `cutCall`.
 */
export function fromResponsesReply(reply: unknown): Message {
  const output = records(isRecord(reply) ? reply.output : undefined);
  const texts: string[] = [];
  const citations: Citation[] = [];
  const toolCalls: ToolCall[] = [];
  const cells: string[] = [];
  const cited = new Map<string, CodeRunFile>();
  let container: string | undefined;
  let ranCode = false;
  const refusals: string[] = [];
  for (const item of output) {
    if (item.type === "message") {
      for (const part of records(item.content)) {
        if (part.type === "refusal") refusals.push(str(part.refusal)?.trim() ?? "");
        if (part.type !== "output_text") continue;
        texts.push(str(part.text) ?? "");
        for (const annotation of records(part.annotations)) {
          const url = str(annotation.url);
          if (annotation.type === "url_citation" && url) {
            citations.push({ url, title: str(annotation.title) });
          }
          const fileId = str(annotation.file_id);
          if (annotation.type === "container_file_citation" && fileId) {
            if (!cited.has(fileId)) {
              cited.set(fileId, { fileId, filename: str(annotation.filename) ?? fileId });
            }
            container ??= str(annotation.container_id);
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
    } else if (item.type === "code_interpreter_call") {
      ranCode = true;
      const code = str(item.code);
      if (code) cells.push(code);
      container ??= str(item.container_id);
    }
  }
  let content = withFooter(texts.length ? texts.join("") : null, citations);
  if (ranCode && !content && !toolCalls.length) content = CODE_ONLY_REPLY;
  const message: Message = { role: "assistant", content };
  const ending = responsesEnding(reply, refusals);
  if (ending) message.ending = ending;
  if (ending === "refused" && refusals.some(Boolean)) {
    message.refusal = refusals.filter(Boolean).join("\n");
  }
  if (ending === "truncated" && toolCalls.length) message.cutCall = true;
  else if (toolCalls.length) message.toolCalls = toolCalls;
  if (ranCode || cited.size) {
    const run: CodeRun = { container, cells, cited: [...cited.values()] };
    message.codeRun = run;
  }
  return message;
}

/**
 * Why a Responses reply ended other than by the model's choice: a refusal part, or an
 * `incomplete` status whose reason is the content filter (refused) or the output limit (cut).
 */
function responsesEnding(reply: unknown, refusals: readonly string[]): Ending | undefined {
  if (refusals.length) return "refused";
  if (!isRecord(reply) || reply.status !== "incomplete") return undefined;
  const reason = isRecord(reply.incomplete_details) ? reply.incomplete_details.reason : undefined;
  if (reason === "content_filter") return "refused";
  return reason === "max_output_tokens" ? "truncated" : undefined;
}
