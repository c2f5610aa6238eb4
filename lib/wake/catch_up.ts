/**
 * Catch-up before exit (docs/operating.md#catch-up-before-exit): every item created before the
 * end of the whole second in which the wake's process started is answered by this wake.
 *
 * Why that second: a router that coalesces deliveries drops a queued delivery as covered once a
 * successful wake of the agent on the timeline *started* strictly after the delivery's
 * `occurred_at` truncated to whole seconds — it assumes a woken agent spends seconds booting before
 * it reads. This one reads a fraction of a second after launch, so an item created later in its
 * start second would be collapsed by the router and never read. So each kind's last listing must
 * be requested once that second has passed: a kind whose listing was requested inside it is listed
 * again, and anything new is engaged in the same process, with claims, marks and recovery exactly
 * as for any item. A kind whose new listing holds nothing but the agent's own items (its reply,
 * just posted) is left untouched — its mark moves past them at the next wake, as it would have
 * without the catch-up — so the catch-up changes nothing unless it finds something to answer.
 *
 * What it costs: a wake that engages a turn usually passes the boundary while it thinks, so only
 * the kinds listed before the turn are listed again, without waiting. Only a wake that would
 * otherwise finish inside its start second waits, and only until the boundary, then lists the four
 * kinds together, one round trip. A second round runs only if a listing of the first still
 * predates the boundary (the clock stepped back); there is never a third.
 */
import { sleep } from "../base/sleep.ts";
import { ALL_KINDS, type ReadAheadKind } from "./read_ahead.ts";

/** How many catch-up rounds a wake runs at most. */
export const MAX_CATCH_UP_ROUNDS = 2;

/** The end of the whole second in which `startedAt` falls, epoch ms. */
export function startSecondEnd(startedAt: number): number {
  return (Math.floor(startedAt / 1000) + 1) * 1000;
}

/** One catch-up round: the kinds to list again, after waiting `waitMs`. */
export interface CatchUpRound {
  readonly kinds: ReadAheadKind[];
  readonly waitMs: number;
}

/**
 * The next round, or `undefined` when none is due: every kind whose last listing was requested
 * before `boundary` (or never), in reconcile order, once `boundary` has passed.
 */
export function planCatchUp(input: {
  readonly now: number;
  readonly boundary: number;
  readonly listedAt: Partial<Record<ReadAheadKind, number>>;
  /** Rounds run so far. */
  readonly round: number;
}): CatchUpRound | undefined {
  if (input.round >= MAX_CATCH_UP_ROUNDS) return undefined;
  const kinds = ALL_KINDS.filter((kind) => (input.listedAt[kind] ?? -Infinity) < input.boundary);
  if (!kinds.length) return undefined;
  return { kinds, waitMs: Math.max(0, input.boundary - input.now) };
}

/** What the catch-up reads of a wake. */
export interface CatchUpHost {
  readonly env: { readonly catchUp: boolean };
  readonly startedAt: number;
  readonly listedAt: Partial<Record<ReadAheadKind, number>>;
}

/** The clock and the wait the catch-up uses (the wall clock and a timer, unless a test says). */
export interface CatchUpTime {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

const WALL: CatchUpTime = { now: Date.now, sleep: (ms) => sleep(ms) };

/**
 * Runs the catch-up rounds: waits for the end of the start second when it has not passed yet,
 * then hands the kinds to list again to `reconcile` (which lists them together and engages what
 * it finds). Off with `HARNESS_CATCH_UP=off`.
 */
export async function catchUp(
  wake: CatchUpHost,
  reconcile: (kinds: ReadAheadKind[]) => Promise<void>,
  time: CatchUpTime = WALL,
): Promise<void> {
  if (!wake.env.catchUp) return;
  const clock = time.now;
  const boundary = startSecondEnd(wake.startedAt);
  for (let round = 0;; round++) {
    const next = planCatchUp({ now: clock(), boundary, listedAt: wake.listedAt, round });
    if (!next) return;
    // A timer may fire a millisecond early: wait until the clock itself says the second is over.
    while (clock() < boundary) await time.sleep(boundary - clock() + 1);
    await reconcile(next.kinds);
  }
}
