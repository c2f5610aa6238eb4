/**
 * What the page's list of wakes is sent: one small summary per wake (docs/playground.md#the-page)
 * — trigger, outcome, tokens, cost, the router twin's handling, how many journal lines, tool
 * calls and records there are — never the journal or the records themselves, which a panel asks
 * for when it is opened (`GET /api/wakes/<id>`). So the state of a long session stays small.
 *
 * Cost is the provider's figure when the journal states one; otherwise it is priced from the
 * agent's `prices.json` or the built-in list prices (docs/configuration.md#pricesjson) with the
 * formula `records stats` uses; a wake on the sandbox's own model costs nothing; anything else has
 * no cost — never `$0`.
 */
import type { ModelPrice, PriceTable } from "../config/prices.ts";
import { builtInPrice } from "../config/default_prices.ts";
import { tokenCost } from "../home/records/drift.ts";
import type { DeliveryView, WakeView } from "./wakes.ts";

/** Where a wake's cost came from. */
export type CostSource =
  | "provider"
  | "prices.json"
  | "built-in prices"
  | "sandbox"
  | "no model call";

/** A wake's cost: USD and its source, or null with the reason there is none. */
export interface CostView {
  readonly usd: number | null;
  readonly source: CostSource | null;
}

/** One wake as the list shows it. */
export interface WakeSummary {
  readonly id: string;
  readonly n: number;
  readonly agent: string;
  readonly timeline: string;
  readonly trigger: WakeView["trigger"];
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly ms: number | null;
  readonly code: number | null;
  readonly spawnError: string | null;
  readonly skipped: string | null;
  readonly delivery: DeliveryView | null;
  /** `running`, the router's reason (`coalesced`, …), the journal's outcome, `idle` or `failed`. */
  readonly outcome: string;
  readonly steps: string | null;
  readonly posted: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly cachedTokens: number;
  /** Input tokens written to the prompt cache (Anthropic); 0 where the provider reports none. */
  readonly cacheWriteTokens: number;
  readonly llmCalls: number;
  readonly cost: CostView;
  readonly journalLines: number;
  readonly toolCalls: number;
  /** The wake's records' results (one per engaged turn); empty when it wrote none. */
  readonly results: readonly string[];
  /** The chain's verdict after the wake; null before it finished or without a chain. */
  readonly chain: { readonly verified: boolean; readonly records: number } | null;
}

/** How the wakes are priced. */
export interface Pricing {
  /** The agent's `prices.json` over the built-in prices (empty when the file is wrong). */
  readonly prices: PriceTable;
  /** The model the wakes run on, as `AI_MODEL` spells it. */
  readonly model: string;
  /** Whether that is the sandbox's own model (free). */
  readonly sandboxModel: boolean;
}

/** The summary of wake number `n` (1-based, in the order wakes were called for). */
export function summariseWake(wake: WakeView, n: number, pricing: Pricing): WakeSummary {
  const sum = wake.summary;
  const running = wake.finishedAt === null;
  const outcome = wake.skipped ??
    (running ? "running" : sum.outcome ?? (wake.code === 0 ? "idle" : "failed"));
  return {
    id: wake.id,
    n,
    agent: wake.agent,
    timeline: wake.timeline,
    trigger: wake.trigger,
    startedAt: wake.startedAt,
    finishedAt: wake.finishedAt,
    ms: wake.ms,
    code: wake.code,
    spawnError: wake.spawnError,
    skipped: wake.skipped,
    delivery: wake.delivery,
    outcome,
    steps: sum.steps,
    posted: sum.posted ?? 0,
    tokensIn: sum.tokensIn,
    tokensOut: sum.tokensOut,
    cachedTokens: sum.cachedTokens,
    cacheWriteTokens: sum.cacheWriteTokens,
    llmCalls: sum.llmCalls,
    cost: running || wake.skipped ? { usd: null, source: null } : costOf(wake, pricing),
    journalLines: wake.journal.length,
    toolCalls: wake.toolCalls.length,
    results: wake.records?.results ?? [],
    chain: wake.records && !running
      ? { verified: wake.records.verified, records: wake.records.chainRecords }
      : null,
  };
}

/** A finished wake's cost, by the rule in the module comment. */
export function costOf(wake: WakeView, pricing: Pricing): CostView {
  const sum = wake.summary;
  if (sum.cost !== null) return { usd: sum.cost, source: "provider" };
  if (sum.llmCalls === 0) return { usd: 0, source: "no model call" };
  const price = pricing.prices.get(pricing.model);
  if (price) {
    const builtIn = builtInPrice(pricing.model);
    const fromFile = !builtIn || JSON.stringify(builtIn) !== JSON.stringify(price);
    return { usd: priced(sum, price), source: fromFile ? "prices.json" : "built-in prices" };
  }
  if (pricing.sandboxModel) return { usd: 0, source: "sandbox" };
  return { usd: null, source: null };
}

/** What the wake's tokens cost at `price`, priced as `records stats` prices them. */
function priced(
  sum: { tokensIn: number; tokensOut: number; cachedTokens: number; cacheWriteTokens: number },
  price: ModelPrice,
): number {
  const usd = tokenCost({
    tokensIn: sum.tokensIn,
    tokensOut: sum.tokensOut,
    cached: sum.cachedTokens,
    cacheWrite: sum.cacheWriteTokens,
  }, price);
  return Math.round(usd * 1e9) / 1e9;
}
