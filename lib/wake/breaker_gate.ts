/**
 * The wake breaker's policy (docs/operating.md#the-wake-breaker): which wakes count, and what a
 * decline holds back. The counter itself — the rolling window, the trip marker, the TRIPPED and
 * RESET lines, the files the Python harness shares — is `lib/home/breaker.ts`.
 *
 * The breaker exists to stop loops: two agents answering each other, or an agent woken by its own
 * webhook or task. Such a loop has no human in it. So a wake counts only when it is about to engage
 * a turn with no human's item in it, and the count is taken once, at that moment; everything
 * before — the agent's own posts delivered back, an idle wake that finds nothing, a probe — never
 * counts. A human's item is never held back: a message batch holding one is engaged whole, and a
 * human's file is engaged on its own. When the breaker declines, the items it holds back stay
 * unclaimed and the marks stop before them, so nothing is lost: the next wake the breaker lets
 * through answers them.
 */
import { type BreakerVerdict, recordAndCheck } from "../home/breaker.ts";
import type { Journal } from "../journal/journal.ts";

/** The author kind the platform gives a human user (`user.kind`). */
export const HUMAN_KIND = "human";

/** Whether an author, as the platform describes it, is a human (an AI or no author is not). */
export function humanAuthored(
  author: { readonly kind?: string | null } | null | undefined,
): boolean {
  return author?.kind === HUMAN_KIND;
}

/**
 * Whether a batch of messages carries a new human word: a message by a human other than the
 * agent. Such a batch is never held back, whatever else it holds.
 */
export function carriesHuman(
  batch: readonly { readonly user: { readonly uuid: string; readonly kind?: string | null } }[],
  self: string,
): boolean {
  return batch.some((m) => m.user.uuid !== self && humanAuthored(m.user));
}

/** One wake's breaker state: its verdict, taken at most once, and what it held back. */
export class BreakerGate {
  #verdict: Promise<BreakerVerdict> | undefined;
  /** Items this wake left pending because the breaker declined. */
  declined = 0;

  /** Whether the verdict was taken this wake (the wake counted). */
  get counted(): boolean {
    return this.#verdict !== undefined;
  }

  /**
   * Whether an item with no human's word in it may be engaged. The first call records this wake
   * in the window and takes the verdict; later calls reuse it. A declined item is counted here.
   */
  async allows(check: () => Promise<BreakerVerdict>): Promise<boolean> {
    this.#verdict ??= check();
    const verdict = await this.#verdict;
    if (verdict === "declined") this.declined++;
    return verdict === "proceed";
  }
}

/** What the gate reads of a wake. */
export interface BreakerHost {
  readonly settings: { readonly home: string; readonly timeline: string };
  readonly env: {
    readonly wakeBreakerMax: number;
    readonly wakeBreakerWindowSeconds: number;
    readonly wakeBreakerCooldownSeconds: number;
  };
  readonly journal: Journal;
  readonly breaker: BreakerGate;
}

/**
 * Whether `wake` may engage an item that carries no human's word: records the wake in the breaker's
 * window the first time it is asked, and answers the verdict (the same for the rest of the wake).
 */
export function breakerAllows(wake: BreakerHost): Promise<boolean> {
  const { home, timeline } = wake.settings;
  const { env, journal } = wake;
  return wake.breaker.allows(() =>
    recordAndCheck(home, timeline, {
      max: env.wakeBreakerMax,
      windowSeconds: env.wakeBreakerWindowSeconds,
      cooldownSeconds: env.wakeBreakerCooldownSeconds,
      journal,
    })
  );
}
