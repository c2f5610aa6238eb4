/**
 * Runs one tool call and turns every failure into text the model can read
 * (docs/tools.md#conventions-shared-by-every-tool): bad input from the model must become a tool
 * error, never a crashed turn (docs/invariants.md#8-fail-loud-lose-nothing).
 */
import { errorMessage } from "../base/error_text.ts";
import { type Journal, withSpan } from "../journal/journal.ts";
import { toolRun } from "../journal/catalogue_engine.ts";
import type { ImageContent, ToolCall } from "./types/message.ts";
import type { ToolRegistry } from "./registry.ts";
import {
  TOOL_VERDICTS,
  type ToolOutcome,
  type ToolOutput,
  type ToolVerdict,
  toToolOutput,
} from "./types/tool.ts";

/** The reply to a call naming no registered tool. */
export function unknownToolText(name: string): string {
  return `Error: no tool named '${name}'.`;
}

/** The reply to a server-side built-in called as a function. */
export function builtinCalledText(name: string): string {
  return `${name} runs server-side — you don't call it as a function. State what you want to ` +
    "find in your text and the search runs automatically. Do not retry this function call.";
}

/** The reply when a tool throws. */
export function toolErrorText(name: string, message: string): string {
  return `Error running '${name}': ${message}`;
}

/** What one call produced. */
export interface ToolRun {
  /** The provider-supplied id the result answers. */
  readonly callId: string;
  /** The tool name the model called. */
  readonly name: string;
  /** The `tool` result text appended to the transcript. */
  readonly text: string;
  /** Pixels the model should see on its next step. */
  readonly images: readonly ImageContent[];
  /**
   * How the call ended: `error` for an unknown tool, a built-in called as a function, or a
   * throw; the tool's own `invalid`, `refused` or `blocked` when it answered without doing what
   * was asked; else `ok`.
   */
  readonly outcome: ToolOutcome;
  /** Why it failed (the WARNING line's `error=`), when it did. */
  readonly error?: string;
}

/** What dispatch needs besides the call. */
export interface DispatchOptions {
  /** Where the tool is looked up. */
  readonly registry: ToolRegistry;
  /** Names the provider runs server-side. */
  readonly builtins: ReadonlySet<string>;
  /** Where the `tool` lines go. */
  readonly journal: Journal;
  /** The clock durations are measured with. */
  readonly now: () => Date;
  /** Handed to the tool. */
  readonly signal?: AbortSignal;
}

/**
 * Runs `call` against the registry; never throws for anything the tool or model did. The call is
 * an `execute_tool <name>` trace span carrying its outcome (docs/journal.md#traces).
 */
export function runToolCall(call: ToolCall, options: DispatchOptions): Promise<ToolRun> {
  const attributes = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": call.name,
    "gen_ai.tool.call.id": call.id,
  };
  return withSpan(options.journal, `execute_tool ${call.name}`, attributes, async (span) => {
    const run = await dispatch(call, options);
    span.setAttributes({ "harness.outcome": run.outcome, "error.type": run.error && "tool_error" });
    return run;
  });
}

async function dispatch(call: ToolCall, options: DispatchOptions): Promise<ToolRun> {
  const started = options.now().getTime();
  const finish = (
    text: string,
    images: readonly ImageContent[],
    ended: { readonly error: string } | { readonly outcome: ToolOutcome },
  ): ToolRun => {
    const seconds = Math.max(0, (options.now().getTime() - started) / 1000);
    const error = "error" in ended ? ended.error : undefined;
    const outcome = "error" in ended ? "error" : ended.outcome;
    toolRun(options.journal, { name: call.name, seconds, outcome, error });
    return {
      callId: call.id,
      name: call.name,
      text,
      images,
      outcome,
      ...(error === undefined ? {} : { error }),
    };
  };
  const tool = options.registry.get(call.name);
  if (!tool) {
    // A built-in answered generically reads as "your tool is gone" and invites a retry loop.
    if (options.builtins.has(call.name)) {
      return finish(builtinCalledText(call.name), [], {
        error: `'${call.name}' is server-side, not a function`,
      });
    }
    return finish(unknownToolText(call.name), [], { error: `no tool named '${call.name}'` });
  }
  let reported: ToolVerdict | undefined;
  let settled = false;
  const reportOutcome = (verdict: ToolVerdict): void => {
    // Only the known words, and only while the call runs: a JavaScript tool's stray value must
    // not put an arbitrary word on the line, nor a late report rewrite one already logged.
    if (!settled && TOOL_VERDICTS.has(verdict)) reported = verdict;
  };
  try {
    const context = { callId: call.id, signal: options.signal, reportOutcome };
    let value: string | ToolOutput;
    try {
      value = await tool.run(call.arguments ?? {}, context);
    } finally {
      settled = true;
    }
    const output = toToolOutput(value);
    return finish(output.text, output.images ?? [], { outcome: reported ?? "ok" });
  } catch (error) {
    const message = errorMessage(error);
    return finish(toolErrorText(call.name, message), [], { error: message });
  }
}
