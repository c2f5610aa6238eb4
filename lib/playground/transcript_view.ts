/**
 * A wake's tool calls as its transcript persisted them (docs/home-layout.md#transcripts): the
 * calls and results the transcript gained during the wake, each call paired with its result.
 */
import { join } from "node:path";
import { quote } from "../pycompat/quote.ts";
import { TranscriptSchema } from "../core/transcript/session_format.ts";
import type { MessageRecord } from "../core/transcript/session_format.ts";

/** One tool call and its result, exactly as persisted (the transcript's caps applied). */
export interface ToolCallView {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** The tool message's content; null when the transcript holds no result for the call. */
  readonly result: string | null;
}

function transcriptPath(home: string, timeline: string): string {
  return join(home, "sessions", `${quote(`timeline:${timeline}`)}.json`);
}

async function readTranscript(home: string, timeline: string): Promise<MessageRecord[]> {
  try {
    const text = await Deno.readTextFile(transcriptPath(home, timeline));
    const parsed = TranscriptSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    // No transcript yet (an idle wake, a first wake that failed early), or one being replaced.
    return [];
  }
}

/** How many messages the timeline's transcript holds now (0 when there is none). */
export async function transcriptLength(home: string, timeline: string): Promise<number> {
  return (await readTranscript(home, timeline)).length;
}

/**
 * The tool calls in the messages after the first `before`. A transcript that shrank (compacted
 * during the wake) has no such boundary any more: then every call it still holds is shown.
 */
export async function readToolCalls(
  home: string,
  timeline: string,
  before: number,
): Promise<ToolCallView[]> {
  const all = await readTranscript(home, timeline);
  const added = all.length >= before ? all.slice(before) : all;
  const results = new Map<string, string>();
  for (const message of added) {
    if (message.role === "tool" && message.tool_call_id) {
      results.set(message.tool_call_id, message.content ?? "");
    }
  }
  return added.flatMap((message) =>
    (message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments ?? {},
      result: results.get(call.id) ?? null,
    }))
  );
}
