/**
 * What a marked kind (messages, assets, webhook events) reads: everything since its mark, or —
 * on the kind's first wake, with no mark yet — the newest window plus the unsettled items a dead
 * wake left outside it, fetched by uuid; and the mark such a first wake leaves. A read-ahead
 * listing (lib/wake/read_ahead.ts) stands in for a fresh one whenever it still may.
 */
import type { ClaimKind } from "../home/claims.ts";
import { readMark, writeMark } from "../home/marks.ts";
import { bootstrapMark, hasPending, type LedgerEntry, strandedUuids } from "./first_wake.ts";
import { firstWakeLimit, listFresh, takeListing } from "./read_ahead.ts";
import type { Wake } from "./wake_state.ts";

/**
 * Whether the catch-up round leaves a listing alone: it holds nothing but the agent's own items
 * (docs/operating.md#catch-up-before-exit). Outside the catch-up, never.
 */
export function onlyOwn<T>(
  wake: Wake,
  items: readonly T[],
  author: (item: T) => string | undefined,
): boolean {
  const self = wake.context.self.uuid;
  return wake.catchingUp && items.every((item) => author(item) === self);
}

/** A marked kind: its mark and claim names are the same. */
export type MarkedKind = "messages" | "assets" | "webhook_events";

/** How a marked kind is read from the platform. */
export interface KindReader<T> {
  list(options: { until?: string; limit?: number }): Promise<T[]>;
  get(uuid: string): Promise<T>;
  uuid(item: T): string;
}

/** Items newer than `mark`, oldest first. */
export async function listSince<T>(
  wake: Wake,
  kind: MarkedKind,
  mark: string,
  reader: KindReader<T>,
): Promise<T[]> {
  const ahead = takeListing(wake, kind, mark) as Promise<T[]> | undefined;
  return (await (ahead ?? listFresh(wake, kind, () => reader.list({ until: mark })))).reverse();
}

/** A first wake's reads: the window (newest first) and the unsettled claims beyond it. */
export interface FirstWindow<T> {
  readonly recent: T[];
  readonly unsettled: ReadonlySet<string>;
  readonly stranded: T[];
}

/** Reads a first wake's window and fetches the stranded items (see {@link fetchStranded}). */
export async function readFirstWindow<T>(
  wake: Wake,
  kind: MarkedKind,
  reader: KindReader<T>,
): Promise<FirstWindow<T>> {
  const ahead = takeListing(wake, kind, undefined) as Promise<T[]> | undefined;
  const recent = await (ahead ??
    listFresh(wake, kind, () => reader.list({ limit: firstWakeLimit(wake) })));
  const unsettled = new Set(await wake.claims.unsettled(kind, wake.settings.timeline));
  const missing = strandedUuids(recent.map((item) => ({ uuid: reader.uuid(item) })), unsettled);
  const stranded = await fetchStranded(wake, kind, missing, (uuid) => reader.get(uuid));
  return { recent, unsettled, stranded };
}

/**
 * The mark a first wake leaves once nothing it read is pending: the newest item of the window
 * (never moving a mark that another wake already wrote backwards), else `fallback`.
 */
export async function leaveFirstMark<T>(
  wake: Wake,
  kind: MarkedKind,
  window: FirstWindow<T>,
  reader: KindReader<T>,
  ledger: readonly LedgerEntry[],
  fallback?: string,
): Promise<void> {
  if (hasPending(ledger)) return;
  const { home, timeline } = wake.settings;
  const recent = window.recent.map((item) => ({ uuid: reader.uuid(item) }));
  const next = bootstrapMark(recent, await readMark(home, kind, timeline)) ?? fallback;
  if (next) await writeMark(home, kind, timeline, next);
}

/**
 * Fetches unsettled items by uuid; one that is no longer readable is skipped with a WARNING (its
 * claim stays as it is).
 */
async function fetchStranded<T>(
  wake: Wake,
  kind: ClaimKind,
  uuids: readonly string[],
  get: (uuid: string) => Promise<T>,
): Promise<T[]> {
  const out: T[] = [];
  for (const uuid of uuids) {
    try {
      out.push(await get(uuid));
    } catch {
      wake.journal.text(
        "WARNING",
        `An unsettled ${STRANDED_NOUN[kind]} (${uuid}) is no longer readable on the platform; ` +
          "skipping it.",
      );
    }
  }
  return out;
}

/** How the stranded-item WARNING names each kind (the messages line says "message"). */
const STRANDED_NOUN: Readonly<Record<ClaimKind, string>> = {
  messages: "message",
  assets: "assets",
  webhook_events: "webhook_events",
  tasks: "tasks",
};
