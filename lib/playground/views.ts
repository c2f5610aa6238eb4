/**
 * What the page is sent: the human's timelines with their newest items, and the newest wakes.
 * Items are mapped field by field into {@link ItemView}s — never passed through whole — so nothing
 * the page has no use for (a webhook's ingest token, a blob's signed URL) is ever in a response; the
 * serialised snapshot is scrubbed of secrets on top (lib/journal/scrub.ts).
 */
import type { Item, PlatformClient, TimelineItem } from "../platform/mod.ts";
import { servedInline } from "../sandbox/mod.ts";
import type { WakeSummary } from "./wake_summary.ts";

/** One timeline item as the page shows it. */
export interface ItemView {
  readonly uuid: string;
  readonly type: string;
  readonly at: string;
  /** The author's handle; null for a webhook delivery, which comes from outside. */
  readonly author: string | null;
  /** A message's body, or a webhook event's payload. */
  readonly body?: string;
  readonly file?: {
    readonly filename: string;
    readonly contentType: string;
    readonly bytes: number;
    /** Whether the page may show it as an image: a raster type, the only kind served inline. */
    readonly image: boolean;
    /** Where the playground serves its bytes (same origin). */
    readonly href: string;
  };
  readonly description?: string;
  readonly task?: {
    readonly instructions: string;
    readonly activateAt: string;
    readonly status: string;
  };
}

/** One timeline and its items, oldest first. */
export interface TimelineView {
  readonly uuid: string;
  readonly name: string;
  readonly locked: boolean;
  /** Every viewer's handle, owner first. */
  readonly viewers: readonly string[];
  /** The newest {@link ITEM_WINDOW} items, oldest first. */
  readonly items: readonly ItemView[];
  /** How many items are older than the first of `items` (`GET /api/items` pages them). */
  readonly olderItems: number;
}

/** Everything the page renders first; a panel asks for a wake's details when it is opened. */
export interface Snapshot {
  readonly human: { readonly handle: string; readonly name: string };
  /** Every human seat the page may post as, the first one first. */
  readonly humans: readonly { readonly handle: string; readonly name: string }[];
  readonly agent: { readonly handle: string; readonly name: string };
  /** Which model the wakes talk to, in one line. */
  readonly model: string;
  /** Where wakes without a provider cost are priced from (docs/playground.md#charts). */
  readonly prices: {
    readonly file: string;
    /** Whether the wakes' model has a price there or among the built-in ones. */
    readonly priced: boolean;
    readonly problem: string | null;
  };
  readonly timelines: readonly TimelineView[];
  /** The newest {@link wakeWindow} wakes, oldest first (docs/playground.md#a-long-session). */
  readonly wakes: readonly WakeSummary[];
  /** How many wakes are older than the first of `wakes` (`GET /api/wakes?before=N` pages them). */
  readonly olderWakes: number;
  /** How many of the newest wakes the state carries, at most. */
  readonly wakeWindow: number;
}

/**
 * What changed since the previous event on a stream: the wakes that were queued, logged a line
 * or finished since then (whole, each replacing the page's copy of the same `id`, or appended
 * when new), and the timelines when a platform event or a write touched them. Wakes that did not
 * change are not sent again.
 */
export interface SnapshotUpdate {
  readonly timelines?: readonly TimelineView[];
  readonly wakes: readonly WakeSummary[];
}

/** Maps one platform item to what the page shows of it. */
export function itemView(item: TimelineItem): ItemView {
  const author = (item as { user?: { handle?: string } }).user?.handle ?? null;
  const at = (item as { created_at?: string }).created_at ?? "";
  const base = { uuid: item.content.uuid, type: item.type, at, author };
  // An item of an unknown type never carries a known type name (its schema refuses one).
  const known = item as Item;
  switch (known.type) {
    case "message":
      return { ...base, body: known.content.body };
    case "asset": {
      const file = known.content.file;
      return {
        ...base,
        description: known.content.description ?? undefined,
        file: file
          ? {
            filename: file.filename,
            contentType: file.content_type,
            bytes: file.byte_size,
            // The page shows what the server serves inline (lib/sandbox/shared/user_content.ts).
            image: servedInline(file.content_type),
            href: `/api/assets/${encodeURIComponent(known.content.uuid)}`,
          }
          : undefined,
      };
    }
    case "task":
      return {
        ...base,
        task: {
          instructions: known.content.instructions,
          activateAt: known.content.activate_at,
          status: known.content.status,
        },
      };
    case "webhook_event":
      return { ...base, author: null, body: known.content.payload ?? "" };
    default:
      return base;
  }
}

/** How many of a timeline's newest items the state carries (docs/playground.md#a-long-session). */
export const ITEM_WINDOW = 50;

/** Reads every timeline the human views, newest first, with its newest items. */
export async function timelineViews(client: PlatformClient): Promise<TimelineView[]> {
  const page = await client.timelines.page();
  const views: TimelineView[] = [];
  for (const timeline of page.items) {
    const { timeline: full, items } = await client.timelines.get(timeline.uuid);
    views.push({
      uuid: full.uuid,
      name: full.name,
      locked: full.locked,
      viewers: [full.owner.handle, ...full.participants.flatMap((p) => p.handle ? [p.handle] : [])],
      items: items.slice(-ITEM_WINDOW).map(itemView),
      olderItems: Math.max(0, items.length - ITEM_WINDOW),
    });
  }
  return views;
}

/**
 * The `limit` items of `timeline` just older than the item `before`, oldest first, and how many
 * are older still; null when `before` is not an item of that timeline.
 */
export async function itemsBefore(
  client: PlatformClient,
  timeline: string,
  before: string,
  limit: number,
): Promise<{ items: ItemView[]; older: number } | null> {
  const { items } = await client.timelines.get(timeline);
  const end = items.findIndex((item) => item.content.uuid === before);
  if (end < 0) return null;
  const start = Math.max(0, end - limit);
  return { items: items.slice(start, end).map(itemView), older: start };
}
