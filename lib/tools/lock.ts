/**
 * `lock`: the emergency stop — permanently freeze a timeline's content. There is no unlock
 * (reopening is an operator-only action). It is its own tool, behind the shared
 * confirm-by-uuid gate, so a benign management call can never freeze a room by accident.
 */
import type { PlatformClient, Timeline } from "../platform/mod.ts";
import { ConfirmedTimelineAction } from "./confirmed_action.ts";
import { pyRepr } from "../pycompat/repr.ts";

/** Permanently freeze a timeline, only with `confirm=<its uuid>`. */
export class LockTool extends ConfirmedTimelineAction {
  /** The name the model calls it by. */
  readonly name = "lock";
  /** The verb in every message. */
  protected readonly verb: string = "lock";
  /** The warning every refusal carries. */
  protected readonly consequence: string =
    "Locking permanently freezes the timeline's content and there is NO unlock (reopening is " +
    "an operator-only action); it is NOT how you list, leave, or delete a timeline.";
  /** What it does, for the model. */
  readonly description: string =
    "Permanently freeze a timeline's content — the IRREVERSIBLE emergency stop. There is NO " +
    "unlock; reopening a locked timeline is an operator-only action. Because it cannot be " +
    "undone, this tool acts only when you pass confirm=<the timeline's uuid> to deliberately " +
    "target it — a call without the matching uuid is refused, changes nothing, and returns a " +
    "preview of what would be frozen plus the uuid to confirm with. Locks the current " +
    "timeline unless you pass a timeline uuid. This is NOT how you list, leave, or delete a " +
    "timeline — to permanently DESTROY a timeline and its content, use the separate 'delete' " +
    "tool; this one only freezes, forever.";

  /** The irreversible platform call. */
  protected async perform(client: PlatformClient, timeline: Timeline): Promise<void> {
    await client.timelines.lock(timeline.uuid);
  }

  /** The success sentence. */
  protected succeeded(timeline: Timeline): string {
    return `Locked timeline ${pyRepr(timeline.name)} (uuid=${timeline.uuid}). Its content is ` +
      "now frozen permanently — this is one-way; reopening it is an operator-only action.";
  }
}
