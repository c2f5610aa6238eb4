/**
 * The router's rate caps: wakes are counted in a rolling window per agent and per (agent,
 * timeline); the wake that goes over a cap trips that scope, and a tripped scope refuses every
 * wake until its cooldown has passed, when its window starts empty again. A refused delivery
 * is not remembered as woken, so delivering it again later can still wake the agent.
 */
import type { RateCaps } from "./router_rules.ts";

/** Which count a refusal came from. */
export type RateScope = "agent" | "timeline";

/** What the caps decided for one wake. */
export type RateDecision =
  | { readonly admitted: true; readonly reset: readonly RateScope[] }
  | {
    readonly admitted: false;
    /** `tripped`: this wake went over; `open`: a scope tripped earlier is cooling down. */
    readonly state: "tripped" | "open";
    readonly scope: RateScope;
    /** Wakes in the window when it tripped (0 while open). */
    readonly count: number;
    readonly reset: readonly RateScope[];
  };

interface Window {
  readonly stamps: number[];
  trippedUntil: number | null;
}

/** Rolling-window wake counts with trip and cooldown. */
export class RateCapsGate {
  readonly #caps: RateCaps;
  readonly #clock: () => number;
  readonly #windows = new Map<string, Window>();

  constructor(caps: RateCaps, clock: () => number) {
    this.#caps = caps;
    this.#clock = clock;
  }

  /** Counts a wake of `agent` on `timeline` about to start, and decides whether it may. */
  admit(agent: string, timeline: string): RateDecision {
    const now = this.#clock();
    const caps = this.#caps;
    const scopes: [RateScope, string, number][] = [["agent", `a ${agent}`, caps.agent]];
    if (caps.timeline > 0) scopes.push(["timeline", `t ${agent} ${timeline}`, caps.timeline]);
    const reset: RateScope[] = [];
    for (const [scope, key] of scopes) {
      const window = this.#windows.get(key);
      if (window?.trippedUntil == null) continue;
      if (now < window.trippedUntil) {
        return { admitted: false, state: "open", scope, count: 0, reset };
      }
      window.stamps.length = 0;
      window.trippedUntil = null;
      reset.push(scope);
    }
    for (const [scope, key, cap] of scopes) {
      const window = this.#windows.get(key) ?? { stamps: [], trippedUntil: null };
      this.#windows.set(key, window);
      const cutoff = now - caps.windowSeconds * 1000;
      while (window.stamps.length > 0 && window.stamps[0] <= cutoff) window.stamps.shift();
      window.stamps.push(now);
      if (window.stamps.length > cap) {
        window.trippedUntil = now + caps.cooldownSeconds * 1000;
        return { admitted: false, state: "tripped", scope, count: window.stamps.length, reset };
      }
    }
    return { admitted: true, reset };
  }
}
