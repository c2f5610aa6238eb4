/**
 * The wake's {@link PlatformContext}: what every platform tool is bound to. Beyond the client,
 * gate and identity it carries the per-turn bookkeeping — the anchor and start of the turn being
 * engaged (for Idempotency-Keys) and the visible acts since the turn began (for the nudge).
 */
import type { Message } from "../core/types/message.ts";
import type { Journal } from "../journal/journal.ts";
import type { ClearedText, PlatformClient } from "../platform/mod.ts";
import type {
  CreateKind,
  PlatformContext,
  SelfIdentity,
  VisibleAct,
} from "../tools/shared/platform_context.ts";
import type {
  ClearRequest,
  ClearSurface,
  OutboundGate,
  PostRequest,
} from "../gate/post_request.ts";
import type { ToneVerdict } from "../gate/tone.ts";
import { DEFAULT_MAX_REFUSALS_PER_TURN } from "../gate/refusal.ts";
import { type KeyedTurn, keyForCall } from "./keys.ts";
import { lazyImport } from "../base/lazy_import.ts";

/** Post kinds that are the wake's own words, never the agent's: a closed turn still sends them. */
const WAKE_OWN = new Set(["probe-ack", "failure-report"]);

/** What the context is built from. */
export interface WakeContextOptions {
  readonly client: PlatformClient;
  readonly gate: OutboundGate;
  readonly timeline: string;
  readonly self: SelfIdentity;
  readonly journal: Journal;
  /** The model's name (read by shape by tools that log it). */
  readonly model?: string;
  /** `false` only when the model definitely has no image input. */
  readonly vision?: boolean;
  /** Refusals in one turn that close its speaking (default {@link DEFAULT_MAX_REFUSALS_PER_TURN}). */
  readonly maxRefusals?: number;
}

/** The wake's platform context; one per wake, re-aimed at each turn. */
export class WakeContext implements PlatformContext {
  readonly client: PlatformClient;
  readonly gate: OutboundGate;
  readonly timeline: string;
  readonly self: SelfIdentity;
  readonly journal: Journal;
  readonly model?: string;
  readonly vision?: boolean;
  /** Visible acts since the current turn began. */
  acts: VisibleAct[] = [];
  /**
   * Messages the agent posted with its `messages` tool this wake (`posted=`): confirmed posts
   * only; a create whose outcome stayed unknown is counted by the wake that settles it.
   */
  spoken = 0;
  /** Posts that reached the platform since the current turn began (the turn record's). */
  outbound: { uuid: string; kind: string; text: string }[] = [];
  /** The gate's decisions since the current turn began (the turn record's). */
  verdicts: {
    kind: string;
    verdict: "passed" | "refused";
    checks: string[];
    tone?: ToneVerdict;
  }[] = [];

  /**
   * Gate refusals of any agent-authored text since the current turn began: its posts and the
   * text of its assets, tasks, webhook endpoints and direct messages (the wake's own
   * acknowledgements and reports are not the agent's words).
   */
  get refusals(): number {
    return this.verdicts.filter((v) => v.verdict === "refused" && !WAKE_OWN.has(v.kind)).length;
  }

  /** Refusals in one turn that close its speaking (`guardrails.json` `max_refusals_per_turn`). */
  readonly maxRefusals: number;

  /**
   * Whether the current turn's speaking is closed (docs/security.md#stop-at-the-second-refusal):
   * the gate refused the agent's words {@link maxRefusals} times, so every further post or create
   * of agent text is refused unscreened and nothing more is sent this turn.
   */
  get closed(): boolean {
    return this.refusals >= this.maxRefusals;
  }
  #turn: KeyedTurn | undefined;
  /** Keys pinned for re-issued calls: a re-issue uses the recorded call's ordinal. */
  readonly #pinned = new Map<string, string>();

  constructor(options: WakeContextOptions) {
    this.client = options.client;
    const inner = options.gate;
    // Every post the tools make goes through here, so the record sees each verdict and post.
    this.gate = {
      post: (request) => this.#observedPost(inner, request),
      clear: (request) => this.#observedClear(inner, request),
    };
    this.timeline = options.timeline;
    this.self = options.self;
    this.journal = options.journal;
    this.model = options.model;
    this.vision = options.vision;
    this.maxRefusals = options.maxRefusals ?? DEFAULT_MAX_REFUSALS_PER_TURN;
  }

  /** Aims the context at a turn: its anchor item and where its user message sits. */
  beginTurn(anchor: string | undefined, messages: readonly Message[], turnStart: number): void {
    this.#turn = { anchor, messages, turnStart };
    this.#pinned.clear();
    this.acts = [];
    this.outbound = [];
    this.verdicts = [];
  }

  async #observedClear<S extends ClearSurface>(
    gate: OutboundGate,
    request: ClearRequest<S>,
  ): Promise<ClearedText<S>> {
    if (request.surface !== "escalation") await this.#refuseIfClosed(request.surface);
    try {
      const cleared = await gate.clear(request);
      this.verdicts.push({ kind: request.surface, verdict: "passed", checks: [] });
      return cleared;
    } catch (error) {
      this.#refused(request.surface, error);
      throw error;
    }
  }

  /** Records a gate refusal (told apart by shape: the gate's module loads only when used). */
  #refused(kind: string, error: unknown, tone?: ToneVerdict): void {
    const failed = (error as { failed?: unknown }).failed;
    if ((error as Error)?.name === "GateRefusal" && Array.isArray(failed)) {
      const wasClosed = this.closed;
      const checks = [
        ...new Set(failed.map((verdict: { check?: unknown }) => String(verdict.check))),
      ];
      this.verdicts.push({ kind, verdict: "refused", checks, ...(tone && { tone }) });
      if (!wasClosed && this.closed) {
        this.journal.event("WARNING", "speaking closed", {
          timeline: this.timeline,
          refusals: this.refusals,
        }, { color: "yellow" });
      }
    }
  }

  /**
   * Throws the closed turn's refusal, unscreened and unsent, once the turn's speaking is closed;
   * logs `post blocked … check=speaking_closed`. Not counted as a refusal of its own.
   */
  async #refuseIfClosed(kind: string): Promise<void> {
    if (!this.#turn || !this.closed) return;
    const { SpeakingClosed, SPEAKING_CLOSED } = await lazyImport<
      typeof import("../gate/closed.ts")
    >("lib/gate/closed.ts");
    this.journal.event("WARNING", "post blocked", {
      timeline: this.timeline,
      kind,
      check: SPEAKING_CLOSED,
    }, { color: "yellow" });
    throw new SpeakingClosed(this.refusals);
  }

  async #observedPost(gate: OutboundGate, request: PostRequest) {
    if (!WAKE_OWN.has(request.kind)) await this.#refuseIfClosed(request.kind);
    // The tone judge's verdict, pass or fail, goes into this post's gate verdict.
    let tone: ToneVerdict | undefined;
    const observed: PostRequest = {
      ...request,
      onTone: (verdict) => {
        tone = verdict;
        request.onTone?.(verdict);
      },
    };
    try {
      const message = await gate.post(observed);
      this.verdicts.push({
        kind: request.kind,
        verdict: "passed",
        checks: [],
        ...(tone && { tone }),
      });
      this.outbound.push({ uuid: message.content.uuid, kind: request.kind, text: request.body });
      return message;
    } catch (error) {
      this.#refused(request.kind, error, tone);
      throw error;
    }
  }

  /**
   * Re-aims the current turn at `turnStart` after a compaction moved its messages (the anchor,
   * the pins and the acts so far stay).
   */
  moveTurn(turnStart: number): void {
    if (this.#turn) this.#turn = { ...this.#turn, turnStart };
  }

  /** Ends the turn: creates made outside a turn carry no key. */
  endTurn(): void {
    this.#turn = undefined;
    this.#pinned.clear();
  }

  /** Pins the key `callId` must use (a re-issue of a recorded create). */
  pin(callId: string, key: string): void {
    this.#pinned.set(callId, key);
  }

  idempotencyKey(kind: CreateKind, callId: string): Promise<string | undefined> {
    const pinned = this.#pinned.get(callId);
    return pinned !== undefined
      ? Promise.resolve(pinned)
      : keyForCall(this.timeline, this.#turn, kind, callId);
  }

  /** Keyed creates whose outcome stayed unknown, over the whole wake. */
  unknownOutcomes = 0;

  /** Counts a create whose outcome is unknown (the turn then leaves its item unsettled). */
  recordUnknownOutcome(): void {
    this.unknownOutcomes++;
  }

  recordAct(act: VisibleAct, confirmed = true): void {
    this.acts.push(act);
    if (act === "message" && confirmed) this.spoken++;
  }
}
