/**
 * The rules the sandbox's router twin applies, each as the fleet router applies it by default
 * and each with a setting that switches it off (for a test or a demo that needs the old,
 * simpler behaviour). docs/sandbox.md lists them.
 */

/** The rate caps: wakes per rolling window, per agent and per (agent, timeline). */
export interface RateCaps {
  /** Wakes of one agent within the window before the next is refused (20). */
  readonly agent: number;
  /** Wakes of one agent on one timeline within the window (15); 0 leaves this scope off. */
  readonly timeline: number;
  /** The rolling window, in seconds (60). */
  readonly windowSeconds: number;
  /** How long a tripped scope refuses wakes, in seconds (60). */
  readonly cooldownSeconds: number;
}

/** Every rule of the twin. */
export interface RouterRules {
  /** The agent's own messages and assets are delivered back to it (true). */
  readonly actorAgnostic: boolean;
  /** A delivery id that woke successfully is dropped when delivered again within this (600 s); 0 = off. */
  readonly dedupSeconds: number;
  /** Attempts per delivery on a non-zero exit (3); 1 = no retry. */
  readonly attempts: number;
  /** The first retry's backoff in ms (500); each next one doubles it. */
  readonly backoffMs: number;
  /** The rate caps, or null for none. */
  readonly rateCaps: RateCaps | null;
  /** Drop a queued delivery already covered by a successful wake that started after it (true). */
  readonly coalesce: boolean;
  /** Wakes running at once across all agents, one per agent at most (8). */
  readonly lanes: number;
  /** Where the operator's wake-lock files live (`<dir>/<handle>.lock`), or null for none. */
  readonly wakeLockDir: string | null;
}

/** The fleet router's own caps. */
export const FLEET_RATE_CAPS: RateCaps = {
  agent: 20,
  timeline: 15,
  windowSeconds: 60,
  cooldownSeconds: 60,
};

/** The fleet router's rules (the wake-lock directory is chosen by whoever starts the twin). */
export const FLEET_RULES: RouterRules = {
  actorAgnostic: true,
  dedupSeconds: 600,
  attempts: 3,
  backoffMs: 500,
  rateCaps: FLEET_RATE_CAPS,
  coalesce: true,
  lanes: 8,
  wakeLockDir: null,
};

/** The fleet's rules with `changes` applied. */
export function routerRules(changes: Partial<RouterRules> = {}): RouterRules {
  const rules = { ...FLEET_RULES, ...changes };
  if (!Number.isInteger(rules.attempts) || rules.attempts < 1) {
    throw new RangeError(`attempts must be a whole number of at least 1, got ${rules.attempts}`);
  }
  if (!Number.isInteger(rules.lanes) || rules.lanes < 1) {
    throw new RangeError(`lanes must be a whole number of at least 1, got ${rules.lanes}`);
  }
  if (rules.dedupSeconds < 0 || rules.backoffMs < 0) {
    throw new RangeError("dedupSeconds and backoffMs must not be negative");
  }
  const caps = rules.rateCaps;
  if (caps && (caps.agent < 1 || caps.timeline < 0 || caps.windowSeconds <= 0)) {
    throw new RangeError("rate caps need agent ≥ 1, timeline ≥ 0 and a positive window");
  }
  return rules;
}
