/**
 * A tool is one small class: a name, a description, a JSON Schema for its arguments and a
 * `run` method. Tools that need a dangerous capability declare it in `requires`, and the
 * policy decides at registration whether they may load.
 */
import type { ImageContent } from "./message.ts";

/** The capability that reaches a shell or arbitrary process execution. */
export const SHELL = "shell";

/** A capability a tool may require; policies refuse some of them. */
export type Capability = typeof SHELL | (string & Record<never, never>);

/** A JSON Schema object describing a tool's arguments. */
export type JsonSchema = Record<string, unknown>;

/** A tool's richer result: text, plus images the model should see on its next step. */
export interface ToolOutput {
  /** The result the model reads. */
  readonly text: string;
  /** Images the model sees on its next step; never persisted. */
  readonly images?: readonly ImageContent[];
}

/** What the engine tells a tool about the call it is running. */
export interface ToolContext {
  /** The provider-supplied id of this call. */
  readonly callId: string;
  /** Aborted when the turn is being torn down. */
  readonly signal?: AbortSignal;
}

/** What a tool looks like to a provider: the wire-level function declaration. */
export interface ToolSpec {
  /** The function name the model calls. */
  readonly name: string;
  /** What the tool does, written for the model. */
  readonly description: string;
  /** The JSON Schema of the arguments. */
  readonly parameters: JsonSchema;
}

/**
 * The base class for every tool. Subclass it, set the fields, implement `run`.
 *
 * ```ts
 * class Uppercase extends Tool {
 *   name = "uppercase";
 *   description = "Return the given text in uppercase.";
 *   parameters = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
 *   run(args: { text: string }) { return args.text.toUpperCase(); }
 * }
 * ```
 */
export abstract class Tool {
  /** The name the model calls it by. */
  abstract readonly name: string;
  /** What it does, for the model. */
  abstract readonly description: string;
  /** JSON Schema of its arguments. */
  readonly parameters: JsonSchema = { type: "object", properties: {} };
  /** Capabilities this tool needs; the policy may refuse it for them. */
  readonly requires: ReadonlySet<Capability> = new Set();

  /**
   * Runs one call. Arguments arrive as the model sent them (validate them: bad input should
   * become a message the model can read, by throwing an Error with a clear text).
   */
  abstract run(
    // deno-lint-ignore no-explicit-any -- subclasses narrow the argument type
    args: any,
    context?: ToolContext,
  ): string | ToolOutput | Promise<string | ToolOutput>;

  /** The declaration a provider sends on the wire. */
  spec(): ToolSpec {
    return { name: this.name, description: this.description, parameters: this.parameters };
  }
}

/** Normalises a tool's return value. */
export function toToolOutput(value: string | ToolOutput): ToolOutput {
  return typeof value === "string" ? { text: value } : value;
}
