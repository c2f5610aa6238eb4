/**
 * `webhook_events`: inspect what external senders delivered — list the events on a timeline
 * (optionally one endpoint's), read one in full with its headers and the raw payload exactly
 * as delivered. Read-only: events exist only because something was delivered.
 */
import type * as z from "../base/zod.ts";
import type { JsonSchema } from "../core/types/tool.ts";
import type { WebhookEvent } from "../platform/mod.ts";
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
import { elide } from "./shared/text.ts";

const ACTIONS = ["list", "read"] as const;
/** How much payload a `list` line shows; `read` shows it all. */
const PREVIEW = 120;

const Args: TextArgs<"action" | "uuid" | "endpoint" | "timeline"> = textArgs({
  action: optionalText,
  uuid: optionalText,
  endpoint: optionalText,
  timeline: optionalText,
});
/** The `webhook_events` tool's arguments once checked: what the tool acts on. */
export type EventArgs = TextArgValues<"action" | "uuid" | "endpoint" | "timeline">;

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    action: { type: "string", enum: [...ACTIONS], description: "What to do." },
    uuid: { type: "string", description: "The event's uuid (read only). Get it from 'list'." },
    endpoint: {
      type: "string",
      description: "Optional endpoint uuid to narrow 'list' to one endpoint's deliveries. Omit " +
        "to list every endpoint's events on the timeline.",
    },
    timeline: {
      type: "string",
      description: "Optional timeline uuid to act on instead of the current one (list only). " +
        "Omit to use the timeline you are engaged on.",
    },
  },
  required: ["action"],
};

/** The fields every rendering of an event starts with. */
function eventHead(e: WebhookEvent): string {
  return `uuid=${e.content.uuid} · received=${e.created_at} · content_type=${
    e.content.content_type ?? "none"
  } · endpoint=${e.endpoint_uuid}`;
}

/** List and read inbound webhook deliveries. */
export class WebhookEventsTool extends PlatformTool<EventArgs> {
  /** The name the model calls it by. */
  readonly name = "webhook_events";
  /** What it does, for the model. */
  readonly description: string =
    "Inspect inbound webhook deliveries — what external services have POSTed to this " +
    "timeline's endpoints. action='list' shows the events here with their uuids, time, " +
    "content type, and a payload preview (optionally narrowed to one endpoint via " +
    "'endpoint'); action='read' returns one event in full by uuid — its headers and the raw " +
    "payload exactly as delivered. Events are read-only. Operations use the current timeline " +
    "unless you pass a timeline uuid.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = PARAMETERS;
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<EventArgs> = Args;

  /** Dispatches on the checked arguments; every outcome is a text for the model. */
  protected async act(context: PlatformContext, args: EventArgs): Promise<string> {
    const { client } = context;
    switch (args.action) {
      case "list": {
        const endpoint = present(args.endpoint) ? args.endpoint : undefined;
        const timeline = targetTimeline(context, args.timeline);
        return await relay("list the events", async () => {
          const capped = await takeCapped(client.webhookEvents.list({ timeline, endpoint }));
          return renderList(
            capped,
            (e) => `${eventHead(e)} — ${elide(e.content.payload ?? "", PREVIEW)}`,
            {
              title: "Webhook events on this timeline (newest first):",
              empty: `No webhook events on this timeline${
                endpoint ? " for that endpoint" : ""
              } yet.`,
            },
          );
        });
      }
      case "read": {
        if (!present(args.uuid)) {
          return "Error: 'read' needs the event's uuid. Use 'list' to find it.";
        }
        const uuid = args.uuid;
        return await relay("read the event", async () => {
          const event = await client.webhookEvents.get(uuid);
          const headers = Object.entries(event.content.headers ?? {})
            .map(([name, value]) => `  ${name}: ${value ?? ""}`).join("\n");
          return `${eventHead(event)}\n\nHeaders:\n${headers || "  (none)"}\n\nPayload:\n${
            event.content.payload ?? ""
          }`;
        });
      }
      default:
        return unknownAction(args.action, ACTIONS);
    }
  }
}
