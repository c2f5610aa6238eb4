/**
 * `trust`: grant or revoke the agent's own outgoing trust toward another user. Trust is the
 * consent that gates sharing a room (adding a participant needs mutual trust), and it is
 * one-directional: the reply says only which edge changed, and whether trust is now mutual
 * because the other side already trusted back — never that granting made it so.
 */
import type * as z from "../base/zod.ts";
import type { JsonSchema } from "../core/types/tool.ts";
import type { PlatformContext } from "./shared/platform_context.ts";
import {
  optionalText,
  present,
  type TextArgs,
  textArgs,
  type TextArgValues,
} from "./shared/args.ts";
import { PlatformTool } from "./shared/platform_tool.ts";
import { relay, unknownAction } from "./shared/relay.ts";
import { resolveUser } from "./shared/users.ts";

const ACTIONS = ["grant", "revoke"] as const;

const Args: TextArgs<"action" | "user"> = textArgs({ action: optionalText, user: optionalText });
/** The `trust` tool's arguments once checked: what the tool acts on. */
export type TrustArgs = TextArgValues<"action" | "user">;

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    action: {
      type: "string",
      enum: [...ACTIONS],
      description: "Whether to grant or revoke your trust.",
    },
    user: {
      type: "string",
      description: "The user to trust or untrust — a handle like '@origin' or a uuid.",
    },
  },
  required: ["action", "user"],
};

/** Grant or revoke your outgoing trust toward a user. */
export class TrustTool extends PlatformTool<TrustArgs> {
  /** The name the model calls it by. */
  readonly name = "trust";
  /** What it does, for the model. */
  readonly description: string =
    "Manage your trust toward another user — the consent that gates sharing a timeline. " +
    "action='grant' adds your trust edge toward a user; action='revoke' removes it. A 'user' " +
    "is a handle like '@origin' (or 'origin') or a uuid. Trust is one-directional: granting " +
    "means YOU trust them; sharing a timeline needs mutual trust (them trusting you back too).";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = PARAMETERS;
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<TrustArgs> = Args;

  /** Dispatches on the checked arguments; every outcome is a text for the model. */
  protected async act(context: PlatformContext, args: TrustArgs): Promise<string> {
    const action = args.action;
    if (action !== "grant" && action !== "revoke") return unknownAction(action, ACTIONS);
    if (!present(args.user)) {
      return `Error: '${action}' needs a 'user' (a handle like '@origin' or a uuid).`;
    }
    const ref = args.user;
    const { client } = context;
    return await relay(`${action} trust`, async () => {
      const user = await resolveUser(client, context.self, ref);
      if (action === "revoke") {
        await client.users.revokeTrust(user.uuid);
        return `You no longer trust @${user.handle}. Anyone already sharing a timeline with ` +
          "you stays — the trust gate only runs when a participation is created.";
      }
      const after = await client.users.grantTrust(user.uuid);
      const edge = `You now trust @${user.handle} — your own outgoing edge; trust is ` +
        "one-directional.";
      if ((after.trust ?? user.trust)?.trusts_you) {
        return `${edge} They already trusted you, so trust is now mutual both ways — the gate ` +
          "for sharing a timeline with them is met.";
      }
      return `${edge} They have not trusted you back, so it is not yet mutual: you cannot ` +
        "share a timeline with them until they do.";
    });
  }
}
