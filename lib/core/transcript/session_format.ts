/**
 * The on-disk transcript (docs/home-layout.md#transcripts): a JSON array of message records with
 * snake_case keys, written as Python `json.dumps(records, indent=2, ensure_ascii=True)` so a file
 * written by either runtime is byte-identical. Reading tolerates missing keys (`arguments` ⇒ `{}`,
 * `items` ⇒ `[]`) and ignores unknown ones. Never written: `images`, `cacheAnchor`, `usage`,
 * `codeRun` (pixels are seen once, the others belong to one request).
 */
import * as z from "../../base/zod.ts";
import type { Message, ToolCall } from "../types/message.ts";
import { dumpsIndented, parsePythonJson } from "../../pycompat/json.ts";

/** A plain JSON object. A custom check keeps the parsed object itself (number spellings ride on it). */
const JsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  { message: "expected an object" },
);

/** One recorded tool call. */
const ToolCallRecord = z.object({
  id: z.string(),
  name: z.string(),
  arguments: JsonObject.optional(),
});

/** One recorded message; `null` is read as absent everywhere, as Python's `.get()` would. */
const MessageRecord = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string().nullish(),
  tool_calls: z.array(ToolCallRecord).nullish(),
  tool_call_id: z.string().nullish(),
  injected: z.boolean().nullish(),
  items: z.array(z.string()).nullish(),
});

/** The whole transcript file. */
export const TranscriptSchema = z.array(MessageRecord);

/** A message as read from disk (unknown keys already dropped). */
export type MessageRecord = z.infer<typeof MessageRecord>;

/** A message as written to disk, keys in the reference's order. */
export interface WrittenRecord {
  role: Message["role"];
  content?: string;
  tool_calls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  tool_call_id?: string;
  injected?: true;
  items?: string[];
}

/** A transcript file that is not valid JSON or not the transcript schema. Fatal to a wake. */
export class TranscriptError extends Error {
  override name = "TranscriptError";
  constructor(readonly path: string, reason: string, options?: ErrorOptions) {
    super(`corrupt transcript ${path}: ${reason}`, options);
  }
}

/** A record read from disk as a `Message`. A missing `content` is `null`. */
export function fromRecord(record: MessageRecord): Message {
  const message: Message = { role: record.role, content: record.content ?? null };
  if (record.tool_calls?.length) {
    message.toolCalls = record.tool_calls.map((call): ToolCall => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments ?? {},
    }));
  }
  if (typeof record.tool_call_id === "string") message.toolCallId = record.tool_call_id;
  if (record.injected) message.injected = true;
  if (record.items?.length) message.items = [...record.items];
  return message;
}

/** A `Message` as the record the reference writes: only keys that carry meaning, in its order. */
export function toRecord(message: Message): WrittenRecord {
  const record: WrittenRecord = { role: message.role };
  if (typeof message.content === "string") record.content = message.content;
  if (message.toolCalls?.length) {
    // `arguments` by reference: the object carries the Python spellings of its numbers.
    record.tool_calls = message.toolCalls.map((c) => ({
      id: c.id,
      name: c.name,
      arguments: c.arguments,
    }));
  }
  if (typeof message.toolCallId === "string") record.tool_call_id = message.toolCallId;
  if (message.injected) record.injected = true;
  if (message.items?.length) record.items = [...message.items];
  return record;
}

function describe(issue: z.core.$ZodIssue): string {
  const [index, ...rest] = issue.path;
  const where = typeof index === "number" ? `message ${index}` : "transcript";
  const field = rest.length ? ` ${rest.map(String).join(".")}` : "";
  return `${where}${field}: ${issue.message}`;
}

/**
 * Parses a transcript file's text. Throws `TranscriptError` naming `path` when the text is not
 * JSON or not the schema.
 */
export function parseTranscript(text: string, path: string): Message[] {
  let data: unknown;
  try {
    data = parsePythonJson(text);
  } catch (error) {
    throw new TranscriptError(path, `not valid JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  const parsed = TranscriptSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
    throw new TranscriptError(path, issues.slice(0, 3).map(describe).join("; ") + more, {
      cause: parsed.error,
    });
  }
  return parsed.data.map(fromRecord);
}

/** The file text for `messages`, byte-identical to the Python reference's (no caps applied here). */
export function serializeTranscript(messages: readonly Message[]): string {
  return dumpsIndented(messages.map(toRecord));
}
