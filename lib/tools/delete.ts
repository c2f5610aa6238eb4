/**
 * `delete`: permanently destroy a timeline and all its content (messages, assets, tasks,
 * webhook endpoints and events). Owner-or-admin only, as for a human owner. It shares the one
 * confirm-by-uuid gate with `lock`; a participant who is not the owner gets the platform's
 * refusal relayed.
 */
import type { PlatformClient, Timeline } from "../platform/mod.ts";
import { ConfirmedTimelineAction } from "./confirmed_action.ts";
import { pyRepr } from "../pycompat/repr.ts";

/** Permanently delete a timeline, only with `confirm=<its uuid>`. */
export class DeleteTool extends ConfirmedTimelineAction {
  /** The name the model calls it by. */
  readonly name = "delete";
  /** The verb in every message. */
  protected readonly verb: string = "delete";
  /** The warning every refusal carries. */
  protected readonly consequence: string =
    "Deleting permanently destroys the timeline AND all its content (messages, assets, " +
    "tasks, webhook events) with no undo and no restore; it is NOT how you leave or lock a " +
    "timeline.";
  /** What it does, for the model. */
  readonly description: string =
    "Permanently DELETE a timeline and ALL of its content — messages, assets, tasks, webhook " +
    "events, participations. This is IRREVERSIBLE: there is no undo and no restore, and " +
    "everyone who was a viewer is notified it is gone. You must own the timeline. Because it " +
    "cannot be undone, this tool acts only when you pass confirm=<the timeline's uuid> to " +
    "deliberately target it — a call without the matching uuid is refused, deletes nothing, " +
    "and returns a preview of what would be destroyed plus the uuid to confirm with. Deletes " +
    "the current timeline unless you pass a timeline uuid. This is NOT how you leave a " +
    "timeline or freeze one — to freeze a timeline's content without destroying it, use the " +
    "separate 'lock' tool.";

  /** The irreversible platform call. */
  protected async perform(client: PlatformClient, timeline: Timeline): Promise<void> {
    await client.timelines.delete(timeline.uuid);
  }

  /** The success sentence. */
  protected succeeded(timeline: Timeline): string {
    return `Deleted timeline ${pyRepr(timeline.name)} (uuid=${timeline.uuid}). It and all of ` +
      "its content are gone permanently — this cannot be undone, and everyone who was a " +
      "viewer has been notified.";
  }
}
