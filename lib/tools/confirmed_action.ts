/**
 * The one gate for irreversible timeline actions (`lock`, `delete`): confirm-by-uuid and
 * preview-on-refuse, implemented once so the two can never drift apart. See
 * docs/tools.md#platform-tools.
 *
 * `confirm` must exactly equal the target timeline's uuid — a deliberate, target-specific yes a
 * reflexive tool call cannot fake and cannot aim at the wrong room. Anything else makes ONE
 * benign `GET /timelines/{uuid}` and returns a refusal naming what would be affected and the
 * exact confirm to pass; nothing destructive is sent. A subclass declares only the verb, the
 * consequence, the operation and the success sentence.
 */
import type * as z from "../base/zod.ts";
import type { JsonSchema, ToolContext } from "../core/types/tool.ts";
import type { PlatformClient, Timeline } from "../platform/mod.ts";
import { PlatformError } from "../platform/mod.ts";
import type { PlatformContext } from "./shared/platform_context.ts";
import { optionalText, type TextArgs, textArgs, type TextArgValues } from "./shared/args.ts";
import { PlatformTool, targetTimeline } from "./shared/platform_tool.ts";
import { explain, relay } from "./shared/relay.ts";
import { pyRepr } from "../pycompat/repr.ts";

const Args: TextArgs<"confirm" | "timeline"> = textArgs({
  confirm: optionalText,
  timeline: optionalText,
});
/** A confirmed timeline action's arguments (`lock`, `delete`) once checked: what the tool acts on. */
export type ConfirmArgs = TextArgValues<"confirm" | "timeline">;

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    confirm: {
      type: "string",
      description: "Required to actually proceed. It must EXACTLY equal the uuid of the " +
        "timeline you mean to affect — a deliberate, target-specific yes. Because this is " +
        "irreversible, a missing or mismatched confirm changes nothing: you instead get a " +
        "preview of exactly what would be affected and the uuid to pass back.",
    },
    timeline: {
      type: "string",
      description: "Optional timeline uuid to act on instead of the current one. Omit to " +
        "target the timeline you are engaged on.",
    },
  },
  required: [],
};

/** Base of an irreversible timeline action behind the uuid-confirm + preview gate. */
export abstract class ConfirmedTimelineAction extends PlatformTool<ConfirmArgs> {
  /** JSON Schema of the arguments: `confirm` and `timeline`, no action. */
  readonly parameters: JsonSchema = PARAMETERS;
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<ConfirmArgs> = Args;
  /** The verb in every message, e.g. "lock". */
  protected abstract readonly verb: string;
  /** The one-line warning a refusal carries. */
  protected abstract readonly consequence: string;

  /** Runs the irreversible platform operation on the confirmed timeline. */
  protected abstract perform(client: PlatformClient, timeline: Timeline): Promise<void>;

  /** The success sentence, naming what was done. */
  protected abstract succeeded(timeline: Timeline): string;

  /** Acts only when `confirm` is the target's uuid; otherwise refuses with a preview. */
  protected async act(
    context: PlatformContext,
    args: ConfirmArgs,
    call?: ToolContext,
  ): Promise<string> {
    const target = targetTimeline(context, args.timeline);
    if (args.confirm !== target) {
      call?.reportOutcome?.("refused");
      return await this.#refuse(context, target, args.confirm);
    }
    return await relay(`${this.verb} the timeline`, async () => {
      // Read first: the success sentence names the room, and a deleted room has no name.
      const { timeline } = await context.client.timelines.get(target);
      await this.perform(context.client, timeline);
      return this.succeeded(timeline);
    });
  }

  /** The refusal with a preview: one benign GET, nothing destructive. */
  async #refuse(context: PlatformContext, target: string, confirm?: string): Promise<string> {
    let subject: { timeline: Timeline; items: readonly unknown[] };
    try {
      subject = await context.client.timelines.get(target);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      return `Refused to ${this.verb} timeline ${target}: this is irreversible. ` +
        `${this.consequence} To proceed, call ${this.name} again with confirm=${target}. ` +
        // The detail is usually a sentence already; one full stop is enough.
        `(Couldn't preview the timeline first: ${explain(error).replace(/\.$/, "")}.)`;
    }
    const { timeline, items } = subject;
    const why = confirm === undefined
      ? "No confirm was passed."
      : `The confirm you passed (${pyRepr(confirm)}) does not match this timeline's uuid.`;
    return `Refused to ${this.verb} timeline ${pyRepr(timeline.name)} (uuid=${timeline.uuid}), ` +
      `which currently has ${items.length} item(s). ${why} ${this.consequence} If you really ` +
      `mean to ${this.verb} THIS timeline, call ${this.name} again with confirm=${timeline.uuid}.`;
  }
}
