/**
 * The first read of each item kind, started together.
 *
 * The four reconciles run one after another (messages, assets, webhook events, tasks), and each
 * starts by listing what is new since its mark. Those lists do not depend on one another, so the
 * wake starts all four at once: a wake with nothing new then waits for one platform round trip
 * instead of four. A reconcile takes its read-ahead only while the wake is still quiet — no turn
 * engaged, nothing posted — and only for the mark it read itself; otherwise (an earlier kind
 * engaged a turn, which takes time, or another wake moved the mark) it lists afresh, exactly as
 * without read-ahead. A read-ahead that fails surfaces only if its reconcile takes it, in the
 * reconcile's own turn.
 */
import type { Asset, Message, Task, WebhookEvent } from "../platform/mod.ts";
import { readMark } from "./state/marks.ts";
import type { Wake } from "./wake_state.ts";

/** One kind's listing since `mark`. */
interface Listing<T> {
  readonly mark: string;
  readonly items: Promise<T[]>;
}

/** What was started; a kind without a mark (a first wake) has no read-ahead. */
export interface ReadAhead {
  readonly messages?: Listing<Message>;
  readonly assets?: Listing<Asset>;
  readonly webhook_events?: Listing<WebhookEvent>;
  readonly tasks?: Promise<Task[]>;
}

/** A started read whose failure, unless someone takes it, is dropped. */
function started<T>(items: Promise<T[]>): Promise<T[]> {
  items.catch(() => {});
  return items;
}

/** Starts the four first reads (after the marks are read) and returns them. */
export async function readAhead(wake: Wake): Promise<ReadAhead> {
  const { home, timeline } = wake.settings;
  const client = wake.client;
  const [messages, assets, events] = await Promise.all([
    readMark(home, "messages", timeline),
    readMark(home, "assets", timeline),
    readMark(home, "webhook_events", timeline),
  ]);
  return {
    messages: messages === undefined ? undefined : {
      mark: messages,
      items: started(client.messages.list({ timeline, until: messages }).toArray()),
    },
    assets: assets === undefined ? undefined : {
      mark: assets,
      items: started(client.assets.list({ timeline, until: assets }).toArray()),
    },
    webhook_events: events === undefined ? undefined : {
      mark: events,
      items: started(client.webhookEvents.list({ timeline, until: events }).toArray()),
    },
    tasks: started(client.tasks.list({ timeline, status: "activated" }).toArray()),
  };
}

/** Whether nothing has happened yet that a listing started earlier could have missed. */
function quiet(wake: Wake): boolean {
  return wake.engine.turns === 0 && wake.posts === 0 && wake.context.spoken === 0;
}

/** The read-ahead listing of `kind` since `mark`, when it may stand in for a fresh one. */
export function takeListing<K extends "messages" | "assets" | "webhook_events">(
  wake: Wake,
  kind: K,
  mark: string,
): NonNullable<ReadAhead[K]>["items"] | undefined {
  const ahead = wake.readAhead?.[kind];
  if (!ahead || ahead.mark !== mark || !quiet(wake)) return undefined;
  return ahead.items as NonNullable<ReadAhead[K]>["items"];
}

/** The read-ahead activated-task listing, when it may stand in for a fresh one. */
export function takeTasks(wake: Wake): Promise<Task[]> | undefined {
  return quiet(wake) ? wake.readAhead?.tasks : undefined;
}
