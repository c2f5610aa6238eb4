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

/**
 * How a tool call ended, as the `tool` journal line's `outcome=` reports it
 * (docs/journal.md#the-line-catalogue). The model reads a text either way; the outcome tells the
 * operator whether the call did what it was asked:
 *
 * - `ok`: it did.
 * - `error`: it failed: the tool threw, or the call named no tool (the engine decides these).
 * - `invalid`: the model's arguments were rejected before anything was done.
 * - `refused`: the tool declined on policy (an address fence, an unconfirmed irreversible act).
 * - `blocked`: the outbound gate blocked a post; nothing was sent.
 */
export type ToolOutcome = "ok" | "error" | ToolVerdict;

/** The outcomes a tool reports with `ToolContext.reportOutcome`: see {@link ToolOutcome}. */
export type ToolVerdict = "invalid" | "refused" | "blocked";

/** Every {@link ToolVerdict}, for checking a value a JavaScript tool reported. */
export const TOOL_VERDICTS: ReadonlySet<ToolVerdict> = new Set(["invalid", "refused", "blocked"]);

/** A tool's richer result: text, plus images the model should see on its next step. */
export interface ToolOutput {
  /** The result the model reads. */
  readonly text: string;
  /** Images the model sees on its next step; never persisted. */
  readonly images?: readonly ImageContent[];
}

/** What the engine tells a tool about the call it is running, and how the tool answers back. */
export interface ToolContext {
  /** The provider-supplied id of this call. */
  readonly callId: string;
  /** Aborted when the turn is being torn down. */
  readonly signal?: AbortSignal;
  /**
   * Says the call did not do what was asked although the tool answers with a text (whatever it
   * returns, string or {@link ToolOutput}, is unchanged): the `tool` journal line then logs this
   * outcome instead of `ok`. A side channel rather than a return type, so plain string results
   * keep working and a tool run outside the engine (no context) just answers. The last report
   * before `run` settles wins; a throw is `error` regardless. Absent when nothing listens.
   */
  readonly reportOutcome?: (outcome: ToolVerdict) => void;
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
