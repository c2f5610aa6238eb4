/**
 * The `context attribution` line (docs/journal.md#the-line-catalogue): what the model is about to be sent, in
 * characters, split into the tool declarations, the brief (the charter and the volatile parts,
 * never persisted), the transcript's sections and the images — computed from the request's own
 * messages, so `total = tools + brief + history + images` holds exactly.
 */
import { SUMMARY_MARKER } from "../../core/types/summary_marker.ts";
import { isStepCounter } from "../../core/types/step_counter.ts";
import { codePointLength } from "../../base/code_points.ts";
import type { Message } from "../../core/types/message.ts";
import type { ToolSpec } from "../../core/types/tool.ts";
import type { Attribution, HistorySection } from "../../journal/catalogue_context.ts";

/** What one turn's first request is made of. */
export interface AttributionInput {
  /** The session's channel key, `timeline:<uuid>`. */
  readonly source: string;
  /** The messages the provider is sent (the brief view of the transcript). */
  readonly sent: readonly Message[];
  /** The transcript the view was made from: a sent message not among these is the brief's. */
  readonly transcript: readonly Message[];
  /** The brief's composed parts in composition order (name, text); blank parts are left out. */
  readonly briefParts: readonly (readonly [name: string, text: string])[];
  /** The tool declarations sent. */
  readonly tools: readonly ToolSpec[];
}

/** The attribution of one request. */
export function attribute(input: AttributionInput): Attribution {
  const inTranscript = new Set(input.transcript);
  const history: Record<HistorySection, number> = {
    charter: 0,
    summary: 0,
    steps: 0,
    user: 0,
    assistant: 0,
    tool: 0,
    other: 0,
  };
  let brief = 0;
  let images = 0;
  for (const message of input.sent) {
    images += imageChars(message);
    if (!inTranscript.has(message)) {
      brief += messageChars(message);
      continue;
    }
    history[sectionOf(message)] += messageChars(message);
  }
  return {
    source: input.source,
    messages: input.sent.length,
    tools: toolChars(input.tools),
    toolsCount: input.tools.length,
    brief,
    briefParts: input.briefParts.filter(([, text]) => text.trim() !== "")
      .map(([name, text]) => [name, len(text)] as const),
    history,
    images,
  };
}

/** `len(content) + Σ(len(call name) + len(compact JSON of args))`. */
export function messageChars(message: Message): number {
  let chars = len(message.content ?? "");
  for (const call of message.toolCalls ?? []) {
    chars += len(call.name) + len(JSON.stringify(call.arguments));
  }
  return chars;
}

/** `Σ(len(url) + len(alt))`, the url being the image's data URL. */
export function imageChars(message: Message): number {
  return (message.images ?? []).reduce(
    (sum, image) => sum + len(`data:${image.mimeType};base64,`) + len(image.data) + len(image.alt),
    0,
  );
}

/** The section a transcript message is counted under. */
export function sectionOf(message: Message): HistorySection {
  switch (message.role) {
    case "user":
    case "assistant":
    case "tool":
      return message.role;
    case "system": {
      const content = message.content ?? "";
      if (content.startsWith(SUMMARY_MARKER)) return "summary";
      if (isStepCounter(message)) return "steps";
      return "charter";
    }
    default:
      return "other";
  }
}

function len(text: string): number {
  return codePointLength(text);
}

/** The characters the tool declarations carry: names, descriptions and parameter schemas. */
export function toolChars(tools: readonly ToolSpec[]): number {
  return tools.reduce(
    (sum, t) => sum + len(t.name) + len(t.description) + len(JSON.stringify(t.parameters)),
    0,
  );
}
