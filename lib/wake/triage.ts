/**
 * One item's disposition before any turn, the same for every kind (messages, assets, webhook
 * events, tasks): the agent's own item is settled, a verified NOC probe is acknowledged, an
 * orphaned claim follows its recovery verdict, a billing wall leaves the item pending, the breaker
 * may hold back an item with no human's word in it, a budget limit leaves the item pending, and
 * otherwise the item is this wake's only if it wins the claim. What happens to an item this wake
 * owns — one batched turn for messages, one turn each for the rest — is the caller's.
 */
import type { ClaimKind } from "../home/claims.ts";
import { breakerAllows } from "./breaker_gate.ts";
import { budgetAdmits } from "./budget_gate.ts";
import type { Disposition } from "./first_wake.ts";
import { postAs } from "./post.ts";
import { probeAck, verifiedProbe } from "./probe.ts";
import type { Recovery } from "./recovery.ts";
import type { Wake } from "./wake_state.ts";

/** What triage needs to know of one item. */
export interface TriageItem {
  readonly uuid: string;
  /** The author's uuid, when the kind has one. */
  readonly author?: string;
  /** The text a probe marker may ride in (a message body, a description, a payload). */
  readonly carrier: string | null | undefined;
  /**
   * Whether the item carries a human's word — a human's own item, or any message of a batch that
   * holds one — so the breaker never holds it back (docs/operating.md#the-wake-breaker).
   */
  readonly human?: boolean;
}

/** How one kind is triaged. */
export interface TriageRules {
  readonly kind: ClaimKind;
  /** Whether the agent's own items are settled without a turn (messages and assets). */
  readonly selfFilter: boolean;
  /** The recovery pass's verdicts for this batch of items (absent: no orphaned claim). */
  readonly recoveries: ReadonlyMap<string, Recovery>;
}

/** Which rule decided: the caller needs to know of a probe (it pauses no read pacing). */
export type TriageRule =
  | "self"
  | "probe"
  | "recovery"
  | "billing-wall"
  | "budget-wall"
  | "breaker"
  | "claim"
  | "held";

/** One item's disposition and the rule that decided it. */
export interface Triage {
  /** `ours`: this wake holds the claim and engages the item. */
  readonly disposition: Disposition;
  readonly rule: TriageRule;
}

/**
 * Decides one item, in the fixed order self → probe → recovery → billing wall → breaker → budget
 * → claim. Posting a probe's ack, recording the wake in the breaker's window (once, at the first
 * item with no human's word that would be claimed), taking a budget lease and taking a claim are
 * its only effects; a recovery verdict of `billing` raises the wake's billing wall for every item
 * after it.
 */
export async function triage(wake: Wake, rules: TriageRules, item: TriageItem): Promise<Triage> {
  const { uuid } = item;
  if (rules.selfFilter && item.author === wake.context.self.uuid) {
    return { disposition: "final", rule: "self" };
  }
  const nonce = await verifiedProbe(item.carrier, wake.env.nocProbeSecret);
  if (nonce !== undefined) {
    const acked = await postAs(wake, probeAck(nonce), "probe-ack");
    return { disposition: acked ? "final" : "pending", rule: "probe" };
  }
  const recovered = rules.recoveries.get(uuid);
  if (recovered === "billing") wake.billingWall = true;
  if (recovered && recovered !== "redrive") {
    return { disposition: recovered === "final" ? "final" : "pending", rule: "recovery" };
  }
  if (wake.billingWall) return { disposition: "pending", rule: "billing-wall" };
  // A re-drive finishes what a dead wake started; anything else without a human's word may be a
  // loop, and a declined item stays unclaimed (and takes no budget lease) for the next wake the
  // breaker lets through.
  if (recovered !== "redrive" && !item.human && !await breakerAllows(wake)) {
    return { disposition: "pending", rule: "breaker" };
  }
  // docs/operating.md#the-budget-guard: admitted before the claim; refused, the item stays
  // unclaimed, so the next wake after the reset answers it.
  if (!await budgetAdmits(wake)) return { disposition: "pending", rule: "budget-wall" };
  const { timeline } = wake.settings;
  if (recovered === "redrive" || await wake.claims.claim(rules.kind, timeline, uuid) === "won") {
    return { disposition: "ours", rule: "claim" };
  }
  const record = await wake.claims.owner(rules.kind, timeline, uuid);
  const settled = record !== undefined && wake.claims.isSettled(record);
  return { disposition: settled ? "final" : "pending", rule: "held" };
}
