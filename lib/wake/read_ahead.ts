/**
 * The first read of each item kind, started together.
 *
 * The four reconciles run one after another (messages, assets, webhook events, tasks), and each
 * starts with one listing: what is new since its mark, or — a kind without a mark, which on most
 * timelines is every kind but messages for good, since a stream that stays empty never sets one —
 * the newest window a first wake infers from. Those lists do not depend on one another, so the
 * wake starts them at once: a wake with nothing new then waits for one platform round trip
 * instead of four. A reconcile takes its read-ahead only if nothing has happened since it was
 * started — no turn engaged, nothing posted or spoken — and only for the mark it read itself;
 * otherwise (an earlier kind engaged a turn, which takes time, or another wake moved the mark) it
 * lists afresh, exactly as without read-ahead. After a kind did engage, {@link refreshReadAhead}
 * starts the remaining kinds' reads together again. A read-ahead that fails surfaces only if its
 * reconcile takes it, in the reconcile's own turn.
 *
 * Whichever listing a reconcile uses, read ahead or fresh, the time it was requested is noted in
 * the wake's `listedAt`: the catch-up (lib/wake/catch_up.ts) lists again every kind whose last
 * listing was requested inside the wake's start second.
 */
import type { Asset, Message, PlatformClient, Task, WebhookEvent } from "../platform/mod.ts";
import { readMark } from "../home/marks.ts";

/**
 * What read-ahead uses of a wake: where the marks are, the platform client, the tallies that
 * tell whether anything happened since the reads started, and the slot the reads live in. The
 * wake's state satisfies it; naming only this keeps this module free of the wake's own types.
 */
export interface ReadAheadHost {
  readonly settings: { readonly home: string; readonly timeline: string };
  readonly env: { readonly contextMessages: number | "all" };
  readonly client: PlatformClient;
  readonly engine: { readonly turns: number };
  readonly context: { readonly spoken: number };
  readonly posts: number;
  readAhead?: ReadAhead;
  /** When the listing each kind last used was requested, epoch ms. */
  readonly listedAt: Partial<Record<ReadAheadKind, number>>;
}

/** The kinds, in reconcile order. */
export type ReadAheadKind = "messages" | "assets" | "webhook_events" | "tasks";

/** One kind's listing: since `mark`, or without a mark the newest {@link firstWakeLimit} items. */
interface Listing<T> {
  readonly mark: string | undefined;
  /** When it was requested, epoch ms. */
  readonly at: number;
  readonly items: Promise<T[]>;
}

/** Which page of a kind a listing asks for. */
type Range = { readonly until: string } | { readonly limit: number | undefined };

/** What was started, per kind. */
export interface ReadAhead {
  /** {@link activity} when the reads were started. */
  readonly activity: number;
  readonly messages?: Listing<Message>;
  readonly assets?: Listing<Asset>;
  readonly webhook_events?: Listing<WebhookEvent>;
  readonly tasks?: { readonly at: number; readonly items: Promise<Task[]> };
}

/** The item kinds in the order a wake reconciles them. */
export const ALL_KINDS: readonly ReadAheadKind[] = [
  "messages",
  "assets",
  "webhook_events",
  "tasks",
];

/** A started read whose failure, unless someone takes it, is dropped. */
function started<T>(items: Promise<T[]>): Promise<T[]> {
  items.catch(() => {});
  return items;
}

/** How much the wake has done so far: turns engaged, posts made, replies spoken. */
function activity(wake: ReadAheadHost): number {
  return wake.engine.turns + wake.posts + wake.context.spoken;
}

/** How many of the newest items a first wake (a kind without a mark) lists: `undefined` is all. */
export function firstWakeLimit(wake: ReadAheadHost): number | undefined {
  const window = wake.env.contextMessages;
  return window === "all" ? undefined : Math.max(1, window);
}

/** Starts the first reads of `kinds` (each once its mark is read) and returns them. */
export async function readAhead(
  wake: ReadAheadHost,
  kinds: readonly ReadAheadKind[] = ALL_KINDS,
): Promise<ReadAhead> {
  const { home, timeline } = wake.settings;
  const client = wake.client;
  const at = activity(wake);
  const limit = firstWakeLimit(wake);
  const listing = async <T>(
    kind: "messages" | "assets" | "webhook_events",
    list: (range: Range) => Promise<T[]>,
  ): Promise<Listing<T> | undefined> => {
    if (!kinds.includes(kind)) return undefined;
    const mark = await readMark(home, kind, timeline);
    // An unbounded first-wake window (`HARNESS_CONTEXT_MESSAGES=all`) pages through the whole
    // stream: listed only by the reconcile that uses it, never ahead on the chance.
    if (mark === undefined && limit === undefined) return undefined;
    const at = Date.now();
    return { mark, at, items: started(list(mark === undefined ? { limit } : { until: mark })) };
  };
  const [messages, assets, webhookEvents] = await Promise.all([
    listing("messages", (range) => client.messages.list({ timeline, ...range }).toArray()),
    listing("assets", (range) => client.assets.list({ timeline, ...range }).toArray()),
    listing(
      "webhook_events",
      (range) => client.webhookEvents.list({ timeline, ...range }).toArray(),
    ),
  ]);
  return {
    activity: at,
    messages,
    assets,
    webhook_events: webhookEvents,
    tasks: kinds.includes("tasks")
      ? {
        at: Date.now(),
        items: started(client.tasks.list({ timeline, status: "activated" }).toArray()),
      }
      : undefined,
  };
}

/**
 * Before the reconcile of `kinds[0]`: when something happened since the read-ahead started, the
 * reads of `kinds` (the kinds still to come) start together again; otherwise the read-ahead stands.
 */
export async function refreshReadAhead(
  wake: ReadAheadHost,
  kinds: readonly ReadAheadKind[],
): Promise<void> {
  if (wake.readAhead && wake.readAhead.activity === activity(wake)) return;
  wake.readAhead = await readAhead(wake, kinds);
}

/** Whether nothing has happened since the read-ahead was started. */
function current(wake: ReadAheadHost): ReadAhead | undefined {
  const ahead = wake.readAhead;
  return ahead && ahead.activity === activity(wake) ? ahead : undefined;
}

/**
 * The read-ahead listing of `kind` for `mark` (undefined: the first-wake window), when it may
 * stand in for a fresh one; taking it notes when it was requested.
 */
export function takeListing<K extends "messages" | "assets" | "webhook_events">(
  wake: ReadAheadHost,
  kind: K,
  mark: string | undefined,
): NonNullable<ReadAhead[K]>["items"] | undefined {
  const ahead = current(wake)?.[kind];
  if (!ahead || ahead.mark !== mark) return undefined;
  wake.listedAt[kind] = ahead.at;
  return ahead.items as NonNullable<ReadAhead[K]>["items"];
}

/**
 * The read-ahead activated-task listing, when it may stand in for a fresh one; taking it notes
 * when it was requested.
 */
export function takeTasks(wake: ReadAheadHost): Promise<Task[]> | undefined {
  const ahead = current(wake)?.tasks;
  if (ahead) wake.listedAt.tasks = ahead.at;
  return ahead?.items;
}

/** A fresh listing of `kind`, requested now: notes the time, then lists. */
export function listFresh<T>(
  wake: ReadAheadHost,
  kind: ReadAheadKind,
  list: () => Promise<T[]>,
): Promise<T[]> {
  wake.listedAt[kind] = Date.now();
  return list();
}
