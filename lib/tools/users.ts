/**
 * `users`: who is on the platform and what your trust with them is — list the directory,
 * read one user by handle or uuid, or `me` for your own dashboard. Access tiers are the
 * platform's: a read shows exactly the fields the API returned and never invents one.
 */
import type * as z from "../base/zod.ts";
import type { JsonSchema } from "../core/types/tool.ts";
import type { Dashboard } from "../platform/mod.ts";
import type { PlatformContext } from "./shared/platform_context.ts";
import {
  optionalText,
  present,
  type TextArgs,
  textArgs,
  type TextArgValues,
} from "./shared/args.ts";
import { FIRST_NOTE, renderList, takeCapped } from "./shared/lists.ts";
import { PlatformTool } from "./shared/platform_tool.ts";
import { relay, unknownAction } from "./shared/relay.ts";
import { resolveUser, trustPhrase, userLine } from "./shared/users.ts";

const ACTIONS = ["list", "read", "me"] as const;

const Args: TextArgs<"action" | "user"> = textArgs({ action: optionalText, user: optionalText });
/** The `users` tool's arguments once checked: what the tool acts on. */
export type UsersArgs = TextArgValues<"action" | "user">;

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    action: { type: "string", enum: [...ACTIONS], description: "What to do." },
    user: {
      type: "string",
      description: "The user to read — a handle like '@john' (or 'john') or a uuid (read only).",
    },
  },
  required: ["action"],
};

/** See the directory, one user, or yourself. */
export class UsersTool extends PlatformTool<UsersArgs> {
  /** The name the model calls it by. */
  readonly name = "users";
  /** What it does, for the model. */
  readonly description: string =
    "See who is on the platform and your trust with them. action='list' returns the user " +
    "directory — every peer you can see, each with their handle, kind (human or ai), and your " +
    "trust state; action='read' returns one user in full by handle (like '@john' or 'john') " +
    "or uuid — their profile plus your trust, and whatever the platform lets you see; " +
    "action='me' returns your own dashboard — who you are here, what this place is, and your " +
    "surfaces. Use this to answer 'who is on the platform', 'what is my trust with X', and " +
    "'who am I'.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = PARAMETERS;
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<UsersArgs> = Args;

  /** Dispatches on the checked arguments; every outcome is a text for the model. */
  protected async act(context: PlatformContext, args: UsersArgs): Promise<string> {
    const { client } = context;
    switch (args.action) {
      case "list":
        return await relay("read users", async () => {
          const capped = await takeCapped(await client.users.list());
          return renderList(capped, userLine, {
            title: "Users on the platform:",
            empty: "No other users are visible to you yet.",
            note: FIRST_NOTE,
          });
        });
      case "read": {
        if (!present(args.user)) {
          return "Error: 'read' needs a 'user' (a handle like '@john' or a uuid).";
        }
        const ref = args.user;
        return await relay("read users", async () => {
          const user = await resolveUser(client, context.self, ref);
          const lines = [userLine(user), `Trust: ${trustPhrase(user)}`];
          // Tier-gated fields: shown only when the platform returned them.
          if (user.about) lines.push(`About: ${user.about}`);
          if (user.time_zone) lines.push(`Time zone: ${user.time_zone}`);
          if (user.roles?.length) lines.push(`Roles: ${user.roles.join(", ")}`);
          return lines.join("\n");
        });
      }
      case "me":
        return await relay("read users", async () => renderMe(await client.users.dashboard()));
      default:
        return unknownAction(args.action, ACTIONS);
    }
  }
}

/** The dashboard as a few lines; sections an older platform omits are simply left out. */
function renderMe(dashboard: Dashboard): string {
  const me = dashboard.identity;
  const lines = [`You are @${me.handle} (${me.name}) · ${me.kind}, uuid=${me.uuid}.`];
  const env = dashboard.environment;
  if (env?.you_are) lines.push(`Here: ${env.you_are}`);
  if (env?.name || env?.summary) {
    lines.push([env.name, env.summary].filter(Boolean).join(" — "));
  }
  const timelines = (dashboard.interaction as { timelines?: { count?: unknown } } | undefined)
    ?.timelines?.count;
  if (typeof timelines === "number") lines.push(`Your timelines: ${timelines}.`);
  return lines.join("\n");
}
