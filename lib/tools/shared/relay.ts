/**
 * How a platform tool turns failures into text the model can act on. A platform refusal is
 * relayed as `Couldn't <phrase>: <detail>` (docs/tools.md#platform-tools) so the agent reads the
 * platform's own explanation instead of flailing on a raw error; a {@link ToolRefusal} (bad input
 * the tool itself caught) becomes `Error: <text>`. Anything else is a bug and is rethrown, so the
 * engine reports it as `Error running '<tool>': …`.
 */
import { PlatformError } from "../../platform/mod.ts";
import { pyRepr } from "../../pycompat/repr.ts";

/** A model-readable refusal raised inside a tool (an unknown handle, an unreadable time). */
export class ToolRefusal extends Error {
  /** Always "ToolRefusal". */
  override name = "ToolRefusal";
}

/** The most readable text a platform error carries: its `detail`, else `title`, else message. */
export function explain(error: PlatformError): string {
  return error.detail || error.title || error.message || String(error);
}

/** Runs `work`; platform errors become `Couldn't <phrase>: …`, refusals become `Error: …`. */
export async function relay<T>(phrase: string, work: () => Promise<T>): Promise<T | string> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ToolRefusal) return `Error: ${error.message}`;
    if (error instanceof PlatformError) return `Couldn't ${phrase}: ${explain(error)}`;
    throw error;
  }
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
