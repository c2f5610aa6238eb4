/**
 * Shared fixtures for the core tests: a scripted in-process Provider (our own contract, not an
 * SDK mock), a journal that records what was written, a fixed clock and a few small tools.
 * It holds no tests of its own (its self-checks live in engine_steps.test.ts), so importing it
 * registers nothing twice.
 */
import type { EventOptions, Fields, Journal, Level } from "../../lib/journal/journal.ts";
import { type ImageContent, Message, type ToolCall } from "../../lib/core/types/message.ts";
import type { Provider } from "../../lib/core/types/provider.ts";
import { Tool, type ToolOutput, type ToolSpec } from "../../lib/core/types/tool.ts";

/** One scripted answer: a reply, a fault to throw, or a function of the request. */
export type Scripted =
  | Message
  | Error
  | ((messages: readonly Message[], tools?: readonly ToolSpec[]) => Message | Promise<Message>);

/** What one `chat` call was given (deep copies, so later mutation does not rewrite history). */
export interface ChatCall {
  readonly messages: Message[];
  readonly tools?: ToolSpec[];
}

/** A provider that answers from a script, in order, and records every call. */
export class ScriptedProvider implements Provider {
  readonly calls: ChatCall[] = [];
  readonly provider = "scripted";
  readonly model = "script-1";
  #script: Scripted[];
  builtins?: readonly string[];
  vision?: boolean;

  constructor(script: Scripted[], options: { builtins?: string[]; vision?: boolean } = {}) {
    this.#script = [...script];
    this.builtins = options.builtins;
    this.vision = options.vision;
  }

  supportsVision(): boolean | undefined {
    return this.vision;
  }

  async chat(messages: readonly Message[], tools?: readonly ToolSpec[]): Promise<Message> {
    this.calls.push({
      messages: structuredClone([...messages]),
      ...(tools ? { tools: structuredClone([...tools]) } : {}),
    });
    const next = this.#script.shift();
    if (next === undefined) throw new Error("script exhausted");
    if (next instanceof Error) throw next;
    if (typeof next === "function") return await next(messages, tools);
    return structuredClone(next);
  }
}

/** An assistant reply calling tools: `calls("echo", { text: "a" }, "boom", {})`. */
export function calls(...pairs: (string | Record<string, unknown>)[]): Message {
  const toolCalls: ToolCall[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    toolCalls.push({
      id: `call_${toolCalls.length + 1}`,
      name: pairs[i] as string,
      arguments: (pairs[i + 1] ?? {}) as Record<string, unknown>,
    });
  }
  return Message.assistant({ toolCalls });
}

/** A plain text reply. */
export function text(content: string): Message {
  return Message.assistant({ content });
}

/** One recorded journal entry. */
export type Entry =
  | { kind: "event"; level: Level; head: string; fields: Fields; options?: EventOptions }
  | { kind: "text"; level: Level; text: string };

/** A journal that keeps every entry, with a plain rendering for exact assertions. */
export class RecordingJournal implements Journal {
  readonly entries: Entry[] = [];
  event(level: Level, head: string, fields: Fields = {}, options?: EventOptions): void {
    this.entries.push({ kind: "event", level, head, fields: { ...fields }, options });
  }
  text(level: Level, text: string): void {
    this.entries.push({ kind: "text", level, text });
  }
  enabled(): boolean {
    return true;
  }
  /** `LEVEL head k=v …` (omitting undefined/null values, no quoting) or `LEVEL text`. */
  lines(): string[] {
    return this.entries.map((e) => {
      if (e.kind === "text") return `${e.level} ${e.text}`;
      const pairs = Object.entries(e.fields).filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => `${k}=${v}`);
      return [e.level, e.head, ...pairs].join(" ");
    });
  }
  /** Lines of one level. */
  at(level: Level): string[] {
    return this.lines().filter((l) => l.startsWith(`${level} `));
  }
}

/** A clock frozen at `iso`. */
export function fixedClock(iso = "2026-03-04T05:06:07.890Z"): () => Date {
  return () => new Date(iso);
}

/** A sleep that records its waits and returns at once. */
export function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: (ms) => (waits.push(ms), Promise.resolve()) };
}

/** Echoes `text`, recording every call it ran. */
export class EchoTool extends Tool {
  readonly name: string = "echo";
  readonly description = "Return the given text.";
  override readonly parameters = {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  };
  readonly ran: string[] = [];
  run(args: { text: string }): string {
    this.ran.push(args.text);
    return `echo: ${args.text}`;
  }
}

/** Always throws. */
export class BoomTool extends Tool {
  readonly name = "boom";
  readonly description = "Fails.";
  run(): string {
    throw new Error("the fuse was lit");
  }
}

/** Returns text plus images. */
export class ViewTool extends Tool {
  readonly name = "view";
  readonly description = "Show a picture.";
  constructor(readonly images: ImageContent[]) {
    super();
  }
  run(): ToolOutput {
    return { text: `viewed ${this.images.length} image(s)`, images: this.images };
  }
}

/**
 * A valid 1×1 PNG, base64: small and whole, so the engine's image preparation passes it through
 * byte for byte (a truncated one would be sent as text, as a corrupt file must be).
 */
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A tiny image for image tests. */
export function image(alt: string): ImageContent {
  return { alt, mimeType: "image/png", data: TINY_PNG };
}
