/**
 * What one wake carries from step to step once it is assembled: the engine and its registry, the
 * transcript being extended, the claim store, the bound platform context and the lazily composed
 * brief. Reconcilers and the turn runner all take this one object.
 */
import type { Compactor } from "../core/compaction/compaction.ts";
import type { Engine } from "../core/engine.ts";
import type { Message } from "../core/types/message.ts";
import type { FileSessionStore } from "../core/transcript/session.ts";
import type { Journal } from "../journal/journal.ts";
import type { McpLoad } from "../mcp/load.ts";
import type { MemoryProvider } from "../memory/provider.ts";
import type { PlatformClient } from "../platform/mod.ts";
import type { ClaimStore } from "../home/claims.ts";
import type { WakeContext } from "./context.ts";
import type { HarnessEnv } from "../config/env.ts";
import type { KnowledgePack } from "../config/knowledge.ts";
import type { EscalationConfig } from "../config/escalation.ts";
import type { RecordsConfig } from "../config/records.ts";
import { type BudgetConfig, budgetLimited } from "../config/spending.ts";
import type { ReadAhead, ReadAheadKind } from "./read_ahead.ts";
import type { BreakerGate } from "./breaker_gate.ts";

/** The router's optional trigger uuids (only used by a kind's first wake). */
export interface WakeTriggers {
  readonly message?: string;
  readonly asset?: string;
  readonly event?: string;
}

/**
 * What the wake itself settled, beyond the parsed environment: the checked HARNESS_HOME and
 * AI_MODEL (required for a wake, optional in the environment), the timeline and the wake's id.
 */
export interface WakeSettings {
  readonly home: string;
  readonly timeline: string;
  /** `AI_MODEL`: the model the provider is built for (the `wake start` line names it). */
  readonly model: string;
  /** One id per wake process: its claims and its turn records carry the same one. */
  readonly wakeId: string;
}

/**
 * The wake's engine — the provider, the tool registry and the step loop — built the first time a
 * turn needs it, so a wake with nothing to answer never loads model or tool code.
 */
export class EngineSlot {
  #engine: Engine | undefined;
  #pending: Promise<Engine> | undefined;
  readonly #build: () => Promise<Engine>;

  constructor(build: () => Promise<Engine>) {
    this.#build = build;
  }

  /** The engine, built on the first call (a failed build fails every call the same way). */
  get(): Promise<Engine> {
    this.#pending ??= this.#build().then((engine) => this.#engine = engine);
    return this.#pending;
  }

  /** Engaged turns so far (0 while the engine was never built). */
  get turns(): number {
    return this.#engine?.turns ?? 0;
  }

  /** Model steps so far (0 while the engine was never built). */
  get steps(): number {
    return this.#engine?.steps ?? 0;
  }
}

/** The composed-once brief halves (never persisted). */
export interface BriefState {
  /** Whether the volatile half was composed this wake (at most once). */
  composed: boolean;
  charter?: string;
  /** The knowledge pack, read with the charter (docs/context.md#the-knowledge-pack). */
  knowledge?: KnowledgePack;
  volatile?: string;
  /** The volatile half's named parts (for the `context attribution` line). */
  parts?: readonly (readonly [name: string, text: string])[];
  /** `GET /users/dashboard.md` for the volatile half, stripped; undefined when it failed. */
  dashboard?: Promise<string | undefined>;
}

/** One assembled wake. */
export interface Wake {
  /** The parsed environment, as the command line settled it (lib/config/env.ts). */
  readonly env: HarnessEnv;
  readonly settings: WakeSettings;
  readonly triggers: WakeTriggers;
  readonly journal: Journal;
  readonly client: PlatformClient;
  /** The engine, built on first use. */
  readonly engine: EngineSlot;
  readonly context: WakeContext;
  readonly claims: ClaimStore;
  readonly store: FileSessionStore;
  readonly memory: MemoryProvider;
  /** Viewer uuids of the timeline (participants ∪ owner), fixed at wake time. */
  readonly viewers: ReadonlySet<string>;
  /** Composes the charter (stable); called at most once, only for an engaged turn. */
  readonly charter: () => Promise<string | undefined>;
  /** Reads the config home's knowledge pack; called at most once, only for an engaged turn. */
  readonly knowledge: () => Promise<KnowledgePack>;
  /** The live transcript of `timeline:<uuid>`, extended in place. */
  messages: Message[];
  readonly brief: BriefState;
  /** Messages posted by the wake itself (probe acks, reports), for `posted=`. */
  posts: number;
  /** Set once billing failed this wake: later items are left pending without a model call. */
  billingWall: boolean;
  /** The breaker's verdict for this wake, taken once, and what it held back (breaker_gate.ts). */
  readonly breaker: BreakerGate;
  /** `budget.json`'s limits (docs/operating.md#the-budget-guard). */
  readonly budget: BudgetConfig;
  /** Set while a budget limit holds: later items are left pending without a model call. */
  budgetWall: boolean;
  /** What this wake's turns spent (the per-wake limits' measure). */
  readonly spent: { usd: number; tokens: number };
  /** `escalation.json`: which triggers notify the operator (docs/operating.md#escalation). */
  readonly escalation: EscalationConfig;
  /** `records.json`: what the turn records keep (docs/records.md#content-modes). */
  readonly records: RecordsConfig;
  /** The kinds' first reads, started together (lib/wake/read_ahead.ts). */
  readAhead?: ReadAhead;
  /** When the listing each kind last used was requested, epoch ms (lib/wake/read_ahead.ts). */
  readonly listedAt: Partial<Record<ReadAheadKind, number>>;
  /**
   * When this process started, epoch ms: the catch-up lists every kind again once the whole
   * second it fell in has passed (lib/wake/catch_up.ts).
   */
  readonly startedAt: number;
  /**
   * Set for the catch-up round: a kind whose new listing holds only the agent's own items is left
   * as it is, so the catch-up changes nothing unless it finds something to answer.
   */
  catchingUp: boolean;
  /** What the first engaged turn loaded beyond the resolution; closed at wake end. */
  readonly loaded: { mcp?: McpLoad; compactor?: Compactor };
}

/** The transcript key of a timeline. */
export function sourceOf(timeline: string): string {
  return `timeline:${timeline}`;
}

/**
 * Starts reading `dashboard.md` for the brief once a turn is certain to engage, so its round trip
 * runs while the turn's code loads, an image downloads and the user turn is saved rather than
 * after them. At most once a wake, only with onboarding on, never for a wake that engages nothing.
 */
export function startDashboardRead(wake: Pick<Wake, "env" | "brief" | "client">): void {
  if (!wake.env.onboard || wake.brief.composed || wake.brief.dashboard) return;
  wake.brief.dashboard = wake.client.users.dashboardMarkdown().then(
    (t) => t.trim(),
    () => undefined,
  );
}

/** Saves the live transcript (capped, atomic). */
export function persist(wake: Wake): Promise<void> {
  return wake.store.save(sourceOf(wake.settings.timeline), wake.messages);
}

/**
 * Whether `budget.json` sets a limit, so the guard is loaded (docs/operating.md#the-budget-guard).
 * The engaged half asks here: it may not import lib/config itself.
 */
export function budgetActive(wake: Pick<Wake, "budget">): boolean {
  return budgetLimited(wake.budget);
}
