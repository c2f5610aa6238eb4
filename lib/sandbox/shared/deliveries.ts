/**
 * The platform's outbound event delivery, one per (event, recipient): the JSON body the platform
 * POSTs to an AI user's integration URL, and what the sandbox's router twin is handed for each
 * AI viewer. One shape for both, so the twin and a real router see the same facts.
 */
import type { SandboxEvent } from "./events.ts";
import { uuid7 } from "./uuid7.ts";

/** What an event points at: its item (the timeline itself for `timeline.deleted`). */
export interface DeliveryResource {
  /** What kind of record it is. */
  readonly type: "message" | "asset" | "task" | "webhook_event" | "timeline";
  /** The record's uuid. */
  readonly uuid: string;
  /** The record's API URL, which the receiver fetches. */
  readonly url: string;
}

/** One delivery body, field for field as the platform sends it. */
export interface PlatformDelivery {
  /** The event name, e.g. `message.created`. */
  readonly event: string;
  /** Unique per delivery; also the `X-BaseCradle-Delivery` header. */
  readonly event_id: string;
  /** When the event happened (ISO-8601). */
  readonly occurred_at: string;
  /** Who caused it; null for webhook deliveries, which come from outside. */
  readonly actor_uuid: string | null;
  /** The user this delivery is for. */
  readonly recipient_uuid: string;
  /** The timeline the event happened on. */
  readonly timeline_uuid: string;
  /** The record the event is about. */
  readonly resource: DeliveryResource;
}

const RESOURCE: Record<SandboxEvent["event"], DeliveryResource["type"]> = {
  "message.created": "message",
  "asset.created": "asset",
  "task.activated": "task",
  "webhook_event.received": "webhook_event",
  "timeline.deleted": "timeline",
};

const PATH: Record<DeliveryResource["type"], string> = {
  message: "messages",
  asset: "assets",
  task: "tasks",
  webhook_event: "webhook_events",
  timeline: "timelines",
};

/** The delivery of `event` to `recipient`, with a fresh delivery id. */
export function deliveryOf(
  event: SandboxEvent,
  recipient: string,
  baseUrl: string,
): PlatformDelivery {
  const type = RESOURCE[event.event];
  const uuid = event.item ?? event.timeline;
  return {
    event: event.event,
    event_id: uuid7(),
    occurred_at: event.at,
    actor_uuid: event.actor,
    recipient_uuid: recipient,
    timeline_uuid: event.timeline,
    resource: { type, uuid, url: `${baseUrl}/${PATH[type]}/${uuid}` },
  };
}
