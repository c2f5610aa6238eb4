/** Platform-shaped items for the wake's unit tests. */
import type { Asset, Message, Task, WebhookEvent } from "../../lib/platform/mod.ts";

const TL = "01900000-0000-7000-8000-000000000001";

/** A message by `handle` (uuid `u`, author uuid `author`). */
export function msg(u: string, body: string, handle = "bob", author = "user-bob"): Message {
  return {
    type: "message",
    created_at: "2026-08-18T12:00:00Z",
    timeline: { uuid: TL },
    user: { uuid: author, handle, name: handle, kind: "human" },
    content: { uuid: u, body },
  };
}

/** An asset posted by `handle`. */
export function asset(u: string, description: string | null = null, handle = "bob"): Asset {
  return {
    type: "asset",
    created_at: "2026-08-18T12:00:01Z",
    timeline: { uuid: TL },
    user: { uuid: `user-${handle}`, handle, name: handle, kind: "human" },
    content: {
      uuid: u,
      description,
      file: {
        filename: "photo.png",
        byte_size: 2048,
        content_type: "image/png",
        url: "https://x/blob",
      },
    },
  };
}

/** A webhook event carrying `payload`. */
export function event(u: string, payload: string): WebhookEvent {
  return {
    type: "webhook_event",
    created_at: "2026-08-18T12:00:02Z",
    timeline: { uuid: TL },
    webhook_endpoint: { uuid: "ep-1" },
    endpoint_uuid: "ep-1",
    content: { uuid: u, content_type: "application/json", payload },
  };
}

/** An activated task. */
export function task(u: string, instructions: string): Task {
  return {
    type: "task",
    created_at: "2026-08-18T11:00:00Z",
    timeline: { uuid: TL },
    user: { uuid: "user-agent", handle: "agent", name: "agent", kind: "ai" },
    content: {
      uuid: u,
      instructions,
      activate_at: "2026-08-18T12:00:00Z",
      status: "activated",
    },
  };
}
