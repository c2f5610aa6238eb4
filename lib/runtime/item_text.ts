/**
 * How platform items read to the model (docs/operating.md#what-each-kind-of-item-becomes): one `user` turn per engaged item,
 * or one per message batch. These strings are transcript bytes a later wake's recovery matches,
 * so they are pure functions of the item and never carry wall-clock state.
 */
import type { Asset, Message as PlatformMessage, Task, WebhookEvent } from "../platform/mod.ts";
import { describeAsset } from "../tools/shared/asset_format.ts";

/** Payload characters shown inline before the rest is left to the `webhook_events` tool. */
export const EVENT_PAYLOAD_LIMIT = 8192;

/** `[<created_at>] <handle>: <body>` — one message of a batch (handle without `@`). */
export function messageLine(message: PlatformMessage): string {
  return `[${message.created_at}] ${bareHandle(message.user.handle)}: ${message.content.body}`;
}

/** A batch, chronological (oldest first), one line per message joined by `\n`. */
export function renderBatch(messages: readonly PlatformMessage[]): string {
  return messages.map(messageLine).join("\n");
}

/** A peer's posted file as text, pointing at the tools that open it. */
export function renderAsset(asset: Asset): string {
  return `[${asset.created_at}] ${bareHandle(asset.user.handle)} posted a file to this timeline: ` +
    `${describeAsset(asset)}. Use the assets tool to 'read' it (or 'view' an image / 'listen' ` +
    "to audio) if you want to engage with it.";
}

/** A peer's posted image shown inline to a vision model (the pixels ride the same turn). */
export function renderAssetShown(asset: Asset): string {
  return `[${asset.created_at}] ${bareHandle(asset.user.handle)} posted a file to this timeline: ` +
    `${describeAsset(asset)}. Looking at it now.`;
}

/** An inbound webhook delivery; a payload over 8192 characters is cut with a pointer. */
export function renderEvent(event: WebhookEvent): string {
  const uuid = event.content.uuid;
  let payload = event.content.payload ?? "";
  const chars = [...payload];
  if (chars.length > EVENT_PAYLOAD_LIMIT) {
    // Cut by code points (the reference's len()), so an astral character is never split.
    payload = chars.slice(0, EVENT_PAYLOAD_LIMIT).join("").trimEnd() +
      `\n… (payload truncated — use the webhook_events tool to read ${uuid} in full)`;
  }
  return `[${event.created_at}] An inbound webhook was delivered to this timeline (event ${uuid}, ` +
    `endpoint ${event.endpoint_uuid}, content_type ${event.content.content_type ?? "None"}). ` +
    `Decide whether and how to act on it. Its payload:\n${payload}`;
}

/** An activated task the agent scheduled for itself. */
export function renderTask(task: Task): string {
  return `[${task.created_at}] A task you scheduled has activated and is due now (task ` +
    `${task.content.uuid}, scheduled for ${task.content.activate_at}). Carry out its ` +
    `instructions:\n${task.content.instructions}`;
}

/** A handle as rendered in transcript lines: never with a leading `@`. */
function bareHandle(handle: string): string {
  return handle.startsWith("@") ? handle.slice(1) : handle;
}
