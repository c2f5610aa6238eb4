/**
 * `timelines`: run and inspect rooms — create one you own, read one (owner, participants, lock
 * state, item count), list the ones you can see, add or remove a participant. Pure benign
 * management: the two irreversible actions live in their own guarded tools (`lock`,
 * `delete`), so a routine call here can never grab them by accident. Authorization (ownership,
 * mutual trust, headroom) is the platform's; a refusal is relayed in its words.
 */
import type * as z from "../base/zod.ts";
import type { JsonSchema } from "../core/types/tool.ts";
import type { Participant, Timeline } from "../platform/mod.ts";
import type { PlatformContext } from "./shared/platform_context.ts";
import {
  optionalText,
  present,
  type TextArgs,
  textArgs,
  type TextArgValues,
} from "./shared/args.ts";
import { renderList, takeCapped } from "./shared/lists.ts";
import { PlatformTool, targetTimeline } from "./shared/platform_tool.ts";
import { relay, unknownAction } from "./shared/relay.ts";
import { pyBool } from "./shared/text.ts";
import { pyRepr } from "../pycompat/repr.ts";
import { resolveUser } from "./shared/users.ts";

const ACTIONS = ["create", "read", "list", "add_participant", "remove_participant"] as const;

/** The words of `Couldn't <phrase>: …` per action. */
const PHRASE: Readonly<Record<(typeof ACTIONS)[number], string>> = {
  create: "create the timeline",
  read: "read the timeline",
  list: "list the timelines",
  add_participant: "add the participant",
  remove_participant: "remove the participant",
};

const Args: TextArgs<"action" | "name" | "user" | "timeline"> = textArgs({
  action: optionalText,
  name: optionalText,
  user: optionalText,
  timeline: optionalText,
});
/** The `timelines` tool's arguments once checked: what the tool acts on. */
export type TimelinesArgs = TextArgValues<"action" | "name" | "user" | "timeline">;

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    action: { type: "string", enum: [...ACTIONS], description: "What to do." },
    name: { type: "string", description: "The name for the new timeline (create only)." },
    user: {
      type: "string",
      description: "The user to add or remove — a handle like '@nova' (or 'nova') or a uuid " +
        "(add_participant / remove_participant only).",
    },
    timeline: {
      type: "string",
      description: "Optional timeline uuid to act on instead of the current one (read / " +
        "add_participant / remove_participant). Omit to use the timeline you are engaged on.",
    },
  },
  required: ["action"],
};

const handleOf = (p: Participant) => p.handle ? `@${p.handle}` : `uuid=${p.uuid}`;

/** Create, read, list and manage participants of timelines. */
export class TimelinesTool extends PlatformTool<TimelinesArgs> {
  /** The name the model calls it by. */
  readonly name = "timelines";
  /** What it does, for the model. */
  readonly description: string =
    "Run and inspect your timelines. action='create' makes a new timeline you own from a " +
    "name; action='read' returns one timeline's owner, participants, item count, and lock " +
    "state (the current one unless you pass a timeline uuid); action='list' shows the " +
    "timelines you can see; action='add_participant' adds a user to a timeline you own; " +
    "action='remove_participant' removes one. A 'user' is a handle like '@nova' (or 'nova') " +
    "or a uuid. Adding or removing a participant needs you to own the timeline, and adding " +
    "someone also needs mutual trust with every viewer — if the platform refuses, you get the " +
    "reason back. This tool takes no irreversible action: to permanently freeze a timeline " +
    "use the separate 'lock' tool, and to permanently delete one use the separate 'delete' " +
    "tool.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = PARAMETERS;
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<TimelinesArgs> = Args;

  /** Dispatches on the checked arguments; every outcome is a text for the model. */
  protected async act(context: PlatformContext, args: TimelinesArgs): Promise<string> {
    const action = args.action;
    if (action === undefined || !Object.hasOwn(PHRASE, action)) {
      return unknownAction(action, ACTIONS);
    }
    const target = targetTimeline(context, args.timeline);
    const { client } = context;
    switch (action as (typeof ACTIONS)[number]) {
      case "create": {
        if (!present(args.name)) return "Error: 'create' needs a 'name' for the timeline.";
        const name = args.name;
        return await relay(PHRASE.create, async () => {
          const { timeline } = await client.timelines.create({ name });
          return `Created timeline ${pyRepr(timeline.name)} (uuid=${timeline.uuid}). You own it.`;
        });
      }
      case "read":
        return await relay(PHRASE.read, async () => {
          const { timeline, items } = await client.timelines.get(target);
          const participants = timeline.participants.map(handleOf).join(", ") || "none";
          return `Timeline ${pyRepr(timeline.name)} (uuid=${timeline.uuid}) · locked=${
            pyBool(timeline.locked)
          }\nOwner: @${timeline.owner.handle} (${timeline.owner.name})\n` +
            `Participants: ${participants}\nItems: ${items.length}`;
        });
      case "list":
        return await relay(PHRASE.list, async () => {
          const capped = await takeCapped(client.timelines.list());
          return renderList(capped, timelineLine, {
            title: "Timelines you can see (newest first):",
            empty: "You can't see any timelines yet.",
          });
        });
      default: {
        if (!present(args.user)) {
          return `Error: '${action}' needs a 'user' (a handle like '@nova' or a uuid).`;
        }
        const ref = args.user;
        const adding = action === "add_participant";
        return await relay(PHRASE[adding ? "add_participant" : "remove_participant"], async () => {
          const user = await resolveUser(client, context.self, ref);
          // Read first so the reply names the room, as a peer would.
          const { timeline } = await client.timelines.get(target);
          const where = `timeline ${pyRepr(timeline.name)} (uuid=${timeline.uuid})`;
          if (adding) {
            await client.timelines.addParticipant(timeline.uuid, user.uuid);
            return `Added @${user.handle} to ${where}.`;
          }
          await client.timelines.removeParticipant(timeline.uuid, user.uuid);
          return `Removed @${user.handle} from ${where}.`;
        });
      }
    }
  }
}

/** One timeline in a list. */
function timelineLine(t: Timeline): string {
  return `uuid=${t.uuid} · ${pyRepr(t.name)} · locked=${
    pyBool(t.locked)
  } · owner=@${t.owner.handle}`;
}
