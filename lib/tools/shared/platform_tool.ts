/**
 * The base of every platform tool: a Tool bound to a {@link PlatformContext}, with its
 * arguments checked by zod before the tool's own code runs. A tool can be built unbound (a
 * library user registers it first and connects it later); until then every call answers with
 * a clear "not connected" text instead of failing obscurely.
 */
import type * as z from "../../base/zod.ts";
import { type JsonSchema, Tool, type ToolContext, type ToolOutput } from "../../core/types/tool.ts";
import type { PlatformContext } from "./platform_context.ts";
import { parseArgs } from "./args.ts";

/** The capability every platform tool declares; the shipped profiles permit it. */
export const BASECRADLE = "basecradle";

/** What an unbound platform tool answers, so the model (and a library user) know why. */
function notConnected(tool: string): string {
  return `Error: the '${tool}' tool is not connected to a timeline yet, so it cannot act on ` +
    "BaseCradle. It must be bound to a platform context (it is, inside a wake) before it can act.";
}

/** A tool that acts on BaseCradle through a bound {@link PlatformContext}. */
export abstract class PlatformTool<Args> extends Tool {
  /** Platform I/O is this tool's point; a profile forbidding it would refuse the tool. */
  override readonly requires: ReadonlySet<string> = new Set([BASECRADLE]);
  /** JSON Schema of the arguments, as the model sees it. */
  abstract override readonly parameters: JsonSchema;
  /** The zod schema the arguments are checked against before {@link act} runs. */
  protected abstract readonly schema: z.ZodType<Args>;
  #context: PlatformContext | undefined;

  /** Builds the tool, bound to `context` when one is given. */
  constructor(context?: PlatformContext) {
    super();
    this.#context = context;
  }

  /** Connects the tool to a wake's platform context (replacing any earlier one). */
  bind(context: PlatformContext): this {
    this.#context = context;
    return this;
  }

  /** Checks the arguments and runs {@link act}; unbound or bad input becomes readable text. */
  async run(args: unknown, call?: ToolContext): Promise<string | ToolOutput> {
    const context = this.#context;
    if (context === undefined) return notConnected(this.name);
    const parsed = parseArgs(this.schema, args);
    if (!parsed.ok) {
      call?.reportOutcome?.("invalid");
      return parsed.error;
    }
    return await this.act(context, parsed.value, call, args);
  }

  /**
   * The tool's own work, with a bound context and checked arguments. `raw` is the call's own
   * arguments object (the one the transcript holds), for redacting a secret the gate refused.
   */
  protected abstract act(
    context: PlatformContext,
    args: Args,
    call: ToolContext | undefined,
    raw?: unknown,
  ): Promise<string | ToolOutput>;
}

/** The timeline an operation targets: the one passed, else the engaged one. */
export function targetTimeline(context: PlatformContext, timeline: string | undefined): string {
  return timeline === undefined || timeline === "" ? context.timeline : timeline;
}
