/**
 * Where a wake starts and where it may stop (docs/operating.md#the-first-wake-of-a-kind), as pure functions over
 * lists: which items a first wake answers, what a batch's context is, and how far a cursor may
 * advance given each item's disposition. No I/O here, so every rule is unit-tested directly.
 */

/**
 * What became of one item this wake.
 * - `final`: nothing more to do (answered, self-authored, acked, settled by another wake);
 * - `pending`: must be offered again (a live wake holds it, billing wall, failed ack);
 * - `ours`: this wake holds its claim and is engaging it (committed at settle).
 */
export type Disposition = "final" | "pending" | "ours";

/** One row of the settle ledger: an item and its disposition, in chronological order. */
export interface LedgerEntry {
  readonly uuid: string;
  disposition: Disposition;
}

/**
 * The new cursor for a marked kind: the last entry before the first `pending`, so the mark
 * never passes an item that must be offered again. `undefined` means "leave the mark alone".
 */
export function settledMark(ledger: readonly LedgerEntry[]): string | undefined {
  let mark: string | undefined;
  for (const entry of ledger) {
    if (entry.disposition === "pending") break;
    mark = entry.uuid;
  }
  return mark;
}

/** Whether any entry is still pending. */
export function hasPending(ledger: readonly LedgerEntry[]): boolean {
  return ledger.some((entry) => entry.disposition === "pending");
}

/** Task uuids the seen-set gains at settle: every entry that is not pending. */
export function seenAdditions(ledger: readonly LedgerEntry[]): string[] {
  return ledger.filter((entry) => entry.disposition !== "pending").map((entry) => entry.uuid);
}

/** The minimum an item needs for inference: its uuid and who wrote it. */
export interface Authored {
  readonly uuid: string;
  readonly author?: string;
}

/** What a first message wake answers and what it only reads as context. */
export interface MessagePlan<T> {
  /** To answer, oldest first: stranded items, then `recent[:split+1]` reversed. */
  readonly reply: T[];
  /** Older backlog, newest first (`recent[split+1:]`), seeded as turns on a fresh session. */
  readonly context: T[];
  /** The split index into `recent` (-1 ⇒ nothing in the window is answered). */
  readonly split: number;
}

/**
 * The first message wake (no mark). `recent` is newest first. Split: the trigger's index when the
 * trigger is in the window; else the agent's own newest post minus one (so everything newer than
 * its last word is answered, and an own post that is newest answers nothing); else 0 (never spoken
 * ⇒ newest only). The split then stretches to cover any item with an unsettled claim.
 */
export function planFirstMessageWake<T extends Authored>(input: {
  readonly recent: readonly T[];
  readonly stranded: readonly T[];
  readonly self: string;
  readonly trigger?: string;
  readonly unsettled: ReadonlySet<string>;
}): MessagePlan<T> {
  const { recent, self } = input;
  let split: number;
  const triggerIndex = input.trigger ? recent.findIndex((m) => m.uuid === input.trigger) : -1;
  if (triggerIndex >= 0) {
    split = triggerIndex;
  } else {
    const own = recent.findIndex((m) => m.author === self);
    split = own >= 0 ? own - 1 : 0;
  }
  split = stretchOverUnsettled(recent, split, input.unsettled);
  const window = recent.slice(0, split + 1).reverse();
  return { reply: [...input.stranded, ...window], context: recent.slice(split + 1), split };
}

/** What a first asset or webhook-event wake acts on. */
export interface FirstWakePlan<T> {
  /** To act on, oldest first. */
  readonly act: T[];
  /** Whether the trigger lay outside the window and must be fetched by uuid first. */
  readonly fetchTrigger: boolean;
}

/**
 * The first asset/event wake (no mark), `recent` newest first. Without a trigger — what a router
 * that passes only `--timeline` always sends — the newest item is acted on (it is almost surely
 * what woke the agent), and the older backlog is not replayed; the caller's triage applies the
 * self-filter, so the agent's own newest asset is settled without a turn. With a trigger in the
 * window: the trigger and everything newer. Either way the work a dead wake of this agent left
 * unsettled is finished too: stranded items, and the window from the oldest unsettled claim in
 * it. A trigger outside the window must be fetched; {@link withFetchedTrigger} then acts on it
 * together with the whole window.
 */
export function planFirstItemWake<T extends Authored>(input: {
  readonly recent: readonly T[];
  readonly stranded: readonly T[];
  readonly trigger?: string;
  readonly unsettled: ReadonlySet<string>;
}): FirstWakePlan<T> {
  const { recent } = input;
  let split = recent.length ? 0 : -1; // no trigger: the newest only
  if (input.trigger) {
    split = recent.findIndex((item) => item.uuid === input.trigger);
    if (split < 0) return { act: [], fetchTrigger: true };
  }
  split = stretchOverUnsettled(recent, split, input.unsettled);
  return { act: [...input.stranded, ...recent.slice(0, split + 1).reverse()], fetchTrigger: false };
}

/**
 * A trigger fetched from outside the window: act on it and the whole window (oldest first). When
 * the fetch failed (`trigger` undefined), the window alone.
 */
export function withFetchedTrigger<T extends Authored>(
  recent: readonly T[],
  stranded: readonly T[],
  trigger: T | undefined,
): T[] {
  const window = [...recent].reverse();
  const head = trigger && !recent.some((item) => item.uuid === trigger.uuid) ? [trigger] : [];
  return [...stranded, ...head, ...window];
}

/** Unhandled activated tasks: the listing (newest first) reversed, minus the seen-set. */
export function unhandledTasks<T extends { readonly uuid: string }>(
  listed: readonly T[],
  seen: ReadonlySet<string>,
): T[] {
  return [...listed].reverse().filter((task) => !seen.has(task.uuid));
}

/**
 * The mark a first wake leaves when nothing is pending: the newest item in the window, but only
 * while the mark is unset or still inside the window (never move a mark backwards).
 */
export function bootstrapMark(
  recent: readonly { readonly uuid: string }[],
  current: string | undefined,
): string | undefined {
  if (!recent.length) return undefined;
  if (current === undefined || recent.some((item) => item.uuid === current)) return recent[0].uuid;
  return undefined;
}

/** Unsettled claim uuids not in the window: the stranded items to fetch by uuid. */
export function strandedUuids(
  recent: readonly { readonly uuid: string }[],
  unsettled: Iterable<string>,
): string[] {
  const inWindow = new Set(recent.map((item) => item.uuid));
  return [...unsettled].filter((uuid) => !inWindow.has(uuid));
}

function stretchOverUnsettled(
  recent: readonly { readonly uuid: string }[],
  split: number,
  unsettled: ReadonlySet<string>,
): number {
  let out = split;
  recent.forEach((item, index) => {
    if (unsettled.has(item.uuid) && index > out) out = index;
  });
  return out;
}
