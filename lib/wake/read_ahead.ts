/**
 * The first read of each item kind, started together.
 *
 * The four reconciles run one after another (messages, assets, webhook events, tasks), and each
 * starts by listing what is new since its mark. Those lists do not depend on one another, so the
 * wake starts them at once: a wake with nothing new then waits for one platform round trip
 * instead of four. A reconcile takes its read-ahead only if nothing has happened since it was
 * started — no turn engaged, nothing posted or spoken — and only for the mark it read itself;
 * otherwise (an earlier kind engaged a turn, which takes time, or another wake moved the mark) it
 * lists afresh, exactly as without read-ahead. After a kind did engage, {@link refreshReadAhead}
 * starts the remaining kinds' reads together again. A read-ahead that fails surfaces only if its
 * reconcile takes it, in the reconcile's own turn.
 */
import type { Asset, Message, Task, WebhookEvent } from "../platform/mod.ts";
import { readMark } from "./state/marks.ts";
import type { Wake } from "./wake_state.ts";

/** The kinds, in reconcile order. */
export type ReadAheadKind = "messages" | "assets" | "webhook_events" | "tasks";

/** One kind's listing since `mark`. */
interface Listing<T> {
  readonly mark: string;
  readonly items: Promise<T[]>;
}

/** What was started; a kind without a mark (a first wake) has no read-ahead. */
export interface ReadAhead {
  /** {@link activity} when the reads were started. */
  readonly activity: number;
  readonly messages?: Listing<Message>;
  readonly assets?: Listing<Asset>;
  readonly webhook_events?: Listing<WebhookEvent>;
  readonly tasks?: Promise<Task[]>;
}

const ALL_KINDS: readonly ReadAheadKind[] = ["messages", "assets", "webhook_events", "tasks"];

/** A started read whose failure, unless someone takes it, is dropped. */
function started<T>(items: Promise<T[]>): Promise<T[]> {
  items.catch(() => {});
  return items;
}

/** How much the wake has done so far: turns engaged, posts made, replies spoken. */
function activity(wake: Wake): number {
  return wake.engine.turns + wake.posts + wake.context.spoken;
}

/** Starts the first reads of `kinds` (after their marks are read) and returns them. */
export async function readAhead(
  wake: Wake,
  kinds: readonly ReadAheadKind[] = ALL_KINDS,
): Promise<ReadAhead> {
  const { home, timeline } = wake.settings;
  const client = wake.client;
  const at = activity(wake);
  const markOf = (kind: "messages" | "assets" | "webhook_events") =>
    kinds.includes(kind) ? readMark(home, kind, timeline) : Promise.resolve(undefined);
  const [messages, assets, events] = await Promise.all([
    markOf("messages"),
    markOf("assets"),
    markOf("webhook_events"),
  ]);
  return {
    activity: at,
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
    tasks: kinds.includes("tasks")
      ? started(client.tasks.list({ timeline, status: "activated" }).toArray())
      : undefined,
  };
}

/**
 * Before the reconcile of `kinds[0]`: when something happened since the read-ahead started, the
 * reads of `kinds` (the kinds still to come) start together again; otherwise the read-ahead stands.
 */
export async function refreshReadAhead(
  wake: Wake,
  kinds: readonly ReadAheadKind[],
): Promise<void> {
  if (wake.readAhead && wake.readAhead.activity === activity(wake)) return;
  wake.readAhead = await readAhead(wake, kinds);
}

/** Whether nothing has happened since the read-ahead was started. */
function current(wake: Wake): ReadAhead | undefined {
  const ahead = wake.readAhead;
  return ahead && ahead.activity === activity(wake) ? ahead : undefined;
}

/** The read-ahead listing of `kind` since `mark`, when it may stand in for a fresh one. */
export function takeListing<K extends "messages" | "assets" | "webhook_events">(
  wake: Wake,
  kind: K,
  mark: string,
): NonNullable<ReadAhead[K]>["items"] | undefined {
  const ahead = current(wake)?.[kind];
  if (!ahead || ahead.mark !== mark) return undefined;
  return ahead.items as NonNullable<ReadAhead[K]>["items"];
}

/** The read-ahead activated-task listing, when it may stand in for a fresh one. */
export function takeTasks(wake: Wake): Promise<Task[]> | undefined {
  return current(wake)?.tasks;
}
