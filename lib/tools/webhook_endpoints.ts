/**
 * `webhook_endpoints`: wire a timeline up to receive inbound activity — create an endpoint
 * (and get its ingest URL, the secret address a sender POSTs to), list them, enable or disable
 * one (a reversible soft stop), rotate one's URL after a leak. Creates carry an
 * Idempotency-Key (kind `webhook_endpoint`): a duplicate would mint a second secret URL the
 * sender never receives. Setting a signature secret is deliberately not offered.
 */
import type * as z from "../base/zod.ts";
import type { JsonSchema, ToolContext } from "../core/types/tool.ts";
import type { WebhookEndpoint } from "../platform/mod.ts";
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

const ACTIONS = ["create", "list", "enable", "disable", "rotate"] as const;

const Args: TextArgs<"action" | "description" | "uuid" | "timeline"> = textArgs({
  action: optionalText,
  description: optionalText,
  uuid: optionalText,
  timeline: optionalText,
});
/** The `webhook_endpoints` tool's arguments once checked: what the tool acts on. */
export type EndpointArgs = TextArgValues<"action" | "description" | "uuid" | "timeline">;

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    action: { type: "string", enum: [...ACTIONS], description: "What to do." },
    description: {
      type: "string",
      description: "A human label for the new endpoint — what it is for (create only).",
    },
    uuid: {
      type: "string",
      description: "The endpoint's uuid (enable / disable / rotate only). Get it from 'list'.",
    },
    timeline: {
      type: "string",
      description: "Optional timeline uuid to act on instead of the current one (create / " +
        "list). Omit to use the timeline you are engaged on.",
    },
  },
  required: ["action"],
};

const signed = (e: WebhookEndpoint) => e.content.verification?.enabled === true;

/** One endpoint as a list line. */
function describeEndpoint(e: WebhookEndpoint): string {
  const c = e.content;
  return `uuid=${c.uuid} · ${c.enabled ? "enabled" : "disabled"} · ${
    signed(e) ? "signed" : "unsigned"
  } · ingest_url=${c.ingest_url} — ${c.description ?? ""}`;
}

/** Create, list, enable, disable and rotate inbound webhook endpoints. */
export class WebhookEndpointsTool extends PlatformTool<EndpointArgs> {
  /** The name the model calls it by. */
  readonly name = "webhook_endpoints";
  /** What it does, for the model. */
  readonly description: string =
    "Manage inbound webhook endpoints — URLs external services POST to so their activity " +
    "lands on the timeline. action='create' makes an endpoint from a description and reports " +
    "its ingest URL (the secret URL you hand the external service); action='list' shows the " +
    "endpoints here with their uuids, ingest URL, and enabled state; action='enable' / " +
    "action='disable' turns one on or off (disable is a reversible soft stop — deliveries get " +
    "410 Gone, history is kept); action='rotate' regenerates an endpoint's ingest URL, killing " +
    "the old one immediately (do this if a URL leaks). enable/disable/rotate take the " +
    "endpoint's uuid (get it from 'list'). Operations use the current timeline unless you pass " +
    "a timeline uuid. (Setting an endpoint's signature secret is not available here.)";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = PARAMETERS;
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<EndpointArgs> = Args;

  /** Dispatches on the checked arguments; every outcome is a text for the model. */
  protected async act(
    context: PlatformContext,
    args: EndpointArgs,
    call: ToolContext | undefined,
    raw?: unknown,
  ): Promise<string> {
    const { client } = context;
    const target = targetTimeline(context, args.timeline);
    switch (args.action) {
      case "create": {
        const key = call
          ? await context.idempotencyKey("webhook_endpoint", call.callId)
          : undefined;
        if (!present(args.description)) {
          return "Error: 'create' needs a 'description' for the endpoint.";
        }
        const description = args.description;
        return await relay(
          "create the endpoint",
          async () => {
            const cleared = await context.gate.clear({
              surface: "webhook_endpoint",
              timeline: target,
              fields: { description },
            });
            const endpoint = await client.webhookEndpoints.create(target, cleared, {
              idempotencyKey: key,
              signal: call?.signal,
            });
            return `Created webhook endpoint (uuid=${endpoint.content.uuid}). Its ingest URL — ` +
              `the secret address an external service POSTs to — is:\n\n${endpoint.content.ingest_url}` +
              "\n\nHand that to the sender; rotate it if it ever leaks. Signature verification is " +
              `${signed(endpoint) ? "on" : "off"}.`;
          },
          { context, timeline: target, what: "webhook_endpoint" },
          { call, args: raw },
        );
      }
      case "list":
        return await relay("list the endpoints", async () => {
          const capped = await takeCapped(client.webhookEndpoints.list({ timeline: target }));
          return renderList(capped, describeEndpoint, {
            title: "Webhook endpoints on this timeline (newest first):",
            empty: "No webhook endpoints on this timeline yet.",
          });
        });
      case "enable":
      case "disable":
      case "rotate": {
        const action = args.action;
        if (!present(args.uuid)) {
          return `Error: '${action}' needs the endpoint's uuid. Use 'list' to find it.`;
        }
        const uuid = args.uuid;
        return await relay(`${action} the endpoint`, async () => {
          if (action === "enable") {
            await client.webhookEndpoints.enable(uuid);
            return `Enabled webhook endpoint ${uuid}. Inbound deliveries are accepted again.`;
          }
          if (action === "disable") {
            await client.webhookEndpoints.disable(uuid);
            return `Disabled webhook endpoint ${uuid}. Inbound deliveries are refused (410 Gone) ` +
              "until you enable it again; its event history is kept.";
          }
          const rotated = await client.webhookEndpoints.rotate(uuid);
          return `Rotated webhook endpoint ${uuid}. The old ingest URL is dead; its new ingest ` +
            `URL is:\n\n${rotated.content.ingest_url}\n\nHand the new URL to the sender.`;
        });
      }
      default:
        return unknownAction(args.action, ACTIONS);
    }
  }
}
