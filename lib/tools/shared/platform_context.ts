/**
 * What a platform tool is bound to during a wake: the client, the outbound gate, the engaged
 * timeline, who the agent is, and the wake's bookkeeping (idempotency keys, visible acts).
 * Tools take it at construction or through `bind()`, so a library user can register them first
 * and connect them to a live platform later.
 */
import type { Journal } from "../../journal/journal.ts";
import type { OutboundGate } from "../../gate/post_request.ts";
import type { PlatformClient } from "../../platform/mod.ts";

/** The four content creates that carry an Idempotency-Key. */
export type CreateKind = "message" | "asset" | "task" | "webhook_endpoint";

/** Acts that count as "did something on the timeline" for the unspoken-channel nudge. */
export type VisibleAct = "message" | "asset" | "task" | "post_image";

/** The agent's own identity on the platform. */
export interface SelfIdentity {
  /** The agent's user uuid. */
  readonly uuid: string;
  /** The agent's handle. */
  readonly handle: string;
}

/** Everything a platform tool needs during a wake. */
export interface PlatformContext {
  /** The authenticated platform client. */
  readonly client: PlatformClient;
  /** The outbound gate: the only path that creates a message. */
  readonly gate: OutboundGate;
  /** The engaged timeline's uuid; tools default their `timeline` parameter to it. */
  readonly timeline: string;
  /** Who the agent is. */
  readonly self: SelfIdentity;
  /** Where tools log (`posted`, `post failed`, …). */
  readonly journal: Journal;
  /**
   * The Idempotency-Key for the create that the call `callId` makes, derived from the turn's
   * anchor item and the ordinal of this create among the turn's creates of that kind; undefined
   * when the turn has no anchor (then the create is sent without a key). The ordinal is taken
   * when the call is made (synchronously); only the hashing is awaited.
   */
  idempotencyKey(kind: CreateKind, callId: string): Promise<string | undefined>;
  /**
   * Records a visible act for the nudge (speech, a shared file, a scheduled task). `confirmed`
   * false: the create's outcome is unknown — it counts as done for the nudge, never as posted.
   */
  recordAct(act: VisibleAct, confirmed?: boolean): void;
  /**
   * Records that a keyed create got no definite answer (its result is the outcome-unknown
   * sentinel). A wake then leaves the turn's item in flight, so its next wake's recovery re-sends
   * the create under the same key. Optional: a context with no recovery behind it omits it.
   */
  recordUnknownOutcome?(): void;
}
