/**
 * The request's anatomy (docs/records.md#the-request-anatomy): a turn's first request cut into
 * its parts in the order the provider receives them — the tool declarations, the charter and the
 * knowledge pack (one system message, two parts), the frozen transcript, the volatile brief, the
 * recalled memory, the working-state block and the new turn — each with its size, the sha256 of
 * its text and the text itself. Measured from the request the engine actually sends (the first
 * call of the view), so it is right for every provider: the vendor's wire differs, the order and
 * the bytes of each part do not. The turn record keeps sizes and hashes; the text is kept only
 * when request capture is on.
 */
import { codePointLength } from "../../base/code_points.ts";
import { sha256HexAsync } from "../../base/sha256.ts";
import type { TurnHook } from "../../core/turn_hook.ts";
import type { Message, Usage } from "../../core/types/message.ts";
import type { ToolSpec } from "../../core/types/tool.ts";
import { imageChars, messageChars, toolChars } from "./attribution.ts";
import { newestUserTurn } from "./brief.ts";
import { PART_JOINER } from "../../runtime/charter.ts";

/** One part of the request, with its text. */
export interface AnatomyPart {
  readonly name: string;
  /** Characters, counted as the `context attribution` line counts them. */
  readonly chars: number;
  readonly sha256: string;
  /** How many messages the part holds (message parts only). */
  readonly messages?: number;
  /** The part as text: each message as `<role>` and its content, calls and images. */
  readonly text: string;
}

/** What {@link anatomyOf} reads the request against. */
export interface AnatomyInput {
  /** The messages the provider was sent. */
  readonly sent: readonly Message[];
  /** The tool declarations sent with them. */
  readonly tools: readonly ToolSpec[];
  /**
   * The stable parts the request leads with, in order (`charter`, `knowledge`): the leading
   * system message is their non-empty texts joined as the brief joins them, and each is a part.
   */
  readonly lead: readonly (readonly [name: string, text: string | undefined])[];
  /** The volatile brief's text and its named parts (`now`, `budget`, `dashboard`, `memory`). */
  readonly volatile?: {
    readonly text: string;
    readonly parts: readonly (readonly [name: string, text: string])[];
  };
  /** The working-state block, when the request carries one. */
  readonly block?: string;
}

/** Cuts the request into its parts, in request order; the standard parts are always present. */
export async function anatomyOf(input: AnatomyInput): Promise<AnatomyPart[]> {
  const { sent } = input;
  const parts: Promise<AnatomyPart>[] = [toolsPart(input.tools)];
  let at = 0;
  const lead = input.lead.filter((entry): entry is [string, string] => !!entry[1]?.trim());
  if (
    lead.length > 0 && sent[0]?.role === "system" &&
    sent[0].content === lead.map(([, text]) => text).join(PART_JOINER)
  ) {
    // The first is the message as if it held that part alone; each later one is its text with
    // the joiner before it, so the parts' sizes add up to the message's.
    lead.forEach(([name, text], i) =>
      parts.push(
        i === 0
          ? messagePart(name, [{ role: "system", content: text }])
          : textPart(name, PART_JOINER + text),
      )
    );
    at = 1;
  }
  const user = newestUserTurn(sent);
  let end = user < 0 ? sent.length : user;
  const isSystem = (i: number, text: string | undefined) =>
    text !== undefined && i >= at && sent[i]?.role === "system" && sent[i].content === text;
  let block: Message | undefined;
  if (isSystem(end - 1, input.block)) block = sent[--end];
  let volatile: Message | undefined;
  if (isSystem(end - 1, input.volatile?.text)) volatile = sent[--end];
  parts.push(messagePart("transcript", sent.slice(at, end)));
  const [brief, recall] = splitVolatile(volatile, input.volatile?.parts ?? []);
  parts.push(textPart("brief", brief), textPart("recall", recall));
  parts.push(messagePart("working_state", block ? [block] : []));
  parts.push(messagePart("new_turn", user < 0 ? [] : sent.slice(user)));
  return await Promise.all(parts);
}

/**
 * The volatile message split into the brief proper (time, budget, dashboard) and the recalled
 * memory, which the brief composes last; the joiner before the memory counts to the brief.
 */
function splitVolatile(
  message: Message | undefined,
  named: readonly (readonly [string, string])[],
): [string, string] {
  const text = message?.content ?? "";
  const memory = named.find(([name]) => name === "memory")?.[1] ?? "";
  if (!message) return ["", ""];
  if (memory === "" || !text.endsWith(memory)) return [render(message), ""];
  const head = text.slice(0, text.length - memory.length);
  return [render({ ...message, content: head }), memory];
}

async function toolsPart(tools: readonly ToolSpec[]): Promise<AnatomyPart> {
  const text = tools.map((t) =>
    JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters })
  ).join("\n");
  return { name: "tools", chars: toolChars(tools), sha256: await sha256HexAsync(text), text };
}

async function messagePart(name: string, messages: readonly Message[]): Promise<AnatomyPart> {
  const rendered = await Promise.all(messages.map(renderWithImages));
  const text = rendered.join("\n");
  const chars = messages.reduce((sum, m) => sum + messageChars(m) + imageChars(m), 0);
  return { name, chars, sha256: await sha256HexAsync(text), messages: messages.length, text };
}

async function textPart(name: string, text: string): Promise<AnatomyPart> {
  // The brief's text is a rendered message; the recalled memory is plain text inside it.
  const chars = name === "recall" ? len(text) : len(text.replace(/^<system>\n/, ""));
  return { name, chars, sha256: await sha256HexAsync(text), text };
}

/** A message as text: `<role>` (and the call id it answers), its content, its calls. */
function render(message: Message): string {
  const head = message.toolCallId ? `<${message.role} ${message.toolCallId}>` : `<${message.role}>`;
  const lines = [head, message.content ?? ""];
  for (const call of message.toolCalls ?? []) {
    lines.push(`→ ${call.name} ${call.id} ${JSON.stringify(call.arguments)}`);
  }
  return lines.join("\n");
}

/** {@link render}, plus one line per inline image naming its size and hash, never its bytes. */
async function renderWithImages(message: Message): Promise<string> {
  const lines = [render(message)];
  for (const image of message.images ?? []) {
    const hash = await sha256HexAsync(image.data);
    lines.push(
      `[image ${image.mimeType} "${image.alt}": ${image.data.length} base64 characters, ` +
        `sha256 ${hash}]`,
    );
  }
  return lines.join("\n");
}

/** A hook handing the first step's provider-reported usage to `onUsage`, as snake_case counters. */
export function firstCallHook(onUsage: (usage: Record<string, number>) => void): TurnHook {
  return {
    afterStep(context) {
      if (context.step === 1 && context.reply.usage) onUsage(usageCounters(context.reply.usage));
    },
  };
}

/**
 * Every numeric field of `usage` under its snake_case name (`tokensIn` → `tokens_in`, `cost` →
 * `cost_usd`), so a provider that reports more counters is recorded without a schema change.
 */
export function usageCounters(usage: Usage): Record<string, number> {
  const counters: Record<string, number> = {};
  for (const [key, value] of Object.entries(usage)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) continue;
    const name = key === "cost" ? "cost_usd" : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    counters[name] = value;
  }
  return counters;
}

function len(text: string): number {
  return codePointLength(text);
}
