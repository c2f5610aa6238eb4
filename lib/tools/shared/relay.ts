/**
 * How a platform tool turns failures into text the model can act on. A platform refusal is
 * relayed as `Couldn't <phrase>: <detail>` (docs/tools.md#platform-tools) so the agent reads the
 * platform's own explanation instead of flailing on a raw error; a {@link ToolRefusal} (bad input
 * the tool itself caught) becomes `Error: <text>`. A keyed create the platform never answered
 * definitely is neither: its result is the exact {@link OUTCOME_UNKNOWN} text, so the model does
 * not send it again and the recovery re-sends it under its key. Anything else is a bug and is
 * rethrown, so the engine reports it as `Error running '<tool>': …`. An outbound-gate refusal of
 * the create's text is `Couldn't <phrase>: <the gate's refusal>`, naming the field and the check,
 * and the call's outcome is `blocked`.
 */
import { OUTCOME_UNKNOWN } from "../../core/types/outcome_unknown.ts";
import type { ToolContext } from "../../core/types/tool.ts";
import { GateRefusal } from "../../gate/refusal.ts";
import { createUnsettled } from "../../journal/catalogue_wake.ts";
import { OutcomeUnknownError, PlatformError } from "../../platform/mod.ts";
import { pyRepr } from "../../pycompat/repr.ts";
import type { PlatformContext } from "./platform_context.ts";

/** A model-readable refusal raised inside a tool (an unknown handle, an unreadable time). */
export class ToolRefusal extends Error {
  /** Always "ToolRefusal". */
  override name = "ToolRefusal";
}

/** The most readable text a platform error carries: its `detail`, else `title`, else message. */
export function explain(error: PlatformError): string {
  return error.detail || error.title || error.message || String(error);
}

/** Where an unknown outcome is told: the tool's context, the create's timeline and what it made. */
export interface UnknownOutcomeLog {
  readonly context: Pick<PlatformContext, "journal" | "recordUnknownOutcome">;
  readonly timeline: string;
  /** `message`, `asset`, `task` or `webhook_endpoint`. */
  readonly what: string;
}

/** The call a create runs in, so a gate refusal can be reported and redacted. */
export interface GatedCall {
  /** The engine's view of the call (`reportOutcome`). */
  readonly call?: ToolContext;
  /** The call's own arguments object, where a refused secret is replaced by `[redacted]`. */
  readonly args?: unknown;
}

/**
 * When the gate refused a create's text for a secret, swaps each redacted field into the call's
 * own arguments (the transcript holds that very object, lib/tools/messages.ts says why), so the
 * secret is not saved again nor shown to the model. A file's content is the `content` argument.
 */
export function redactRefusedFields(args: unknown, refusal: GateRefusal): void {
  if (typeof args !== "object" || args === null) return;
  for (const [field, text] of Object.entries(refusal.redactedFields)) {
    const name = field === "file" ? "content" : field;
    if (typeof (args as Record<string, unknown>)[name] === "string") Reflect.set(args, name, text);
  }
}

/**
 * Runs `work`; platform errors become `Couldn't <phrase>: …`, refusals become `Error: …`, a gate
 * refusal `Couldn't <phrase>: …` with outcome `blocked`, and an unknown outcome becomes
 * {@link OUTCOME_UNKNOWN} (logged as `create unsettled` when `unknown` says where).
 */
export async function relay<T>(
  phrase: string,
  work: () => Promise<T>,
  unknown?: UnknownOutcomeLog,
  gated: GatedCall = {},
): Promise<T | string> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ToolRefusal) return `Error: ${error.message}`;
    if (error instanceof GateRefusal) {
      redactRefusedFields(gated.args, error);
      gated.call?.reportOutcome?.("blocked");
      return `Couldn't ${phrase}: ${error.message}`;
    }
    if (error instanceof OutcomeUnknownError) return unknownOutcome(error, unknown);
    if (error instanceof PlatformError) return `Couldn't ${phrase}: ${explain(error)}`;
    throw error;
  }
}

/**
 * The result a create whose outcome is unknown returns; with `log`, the context is told (a wake
 * then leaves the item for its recovery) and `create unsettled` is logged.
 */
export function unknownOutcome(error: OutcomeUnknownError, log?: UnknownOutcomeLog): string {
  if (log) {
    log.context.recordUnknownOutcome?.();
    createUnsettled(log.context.journal, {
      timeline: log.timeline,
      what: log.what,
      attempts: error.attempts,
      error: explain(error.last),
    });
  }
  return OUTCOME_UNKNOWN;
}

/** `'a', 'b', or 'c'` — the reference's way of listing the allowed actions. */
function choices(allowed: readonly string[]): string {
  const quoted = allowed.map((a) => `'${a}'`);
  if (quoted.length <= 2) return quoted.join(" or ");
  return `${quoted.slice(0, -1).join(", ")}, or ${quoted.at(-1)}`;
}

/** `Error: unknown action '<a>'. Use …` (or, with no action at all, which ones exist). */
export function unknownAction(action: string | undefined, allowed: readonly string[]): string {
  if (action === undefined || action === "") {
    return `Error: 'action' is required. Use ${choices(allowed)}.`;
  }
  return `Error: unknown action ${pyRepr(action)}. Use ${choices(allowed)}.`;
}
