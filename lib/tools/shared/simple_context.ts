/**
 * A minimal {@link PlatformContext} for running platform tools outside a wake: a script, a
 * notebook, a test. It keeps the visible acts it is told about, derives keys only when given a
 * function for them, and has no outbound gate unless one is passed — so nothing can post a
 * message through it by accident.
 */
import { type Journal, silentJournal } from "../../journal/journal.ts";
import type { Message, PlatformClient } from "../../platform/mod.ts";
import type { CreateKind, PlatformContext, SelfIdentity, VisibleAct } from "./platform_context.ts";
import type { OutboundGate, PostRequest } from "../../gate/post_request.ts";

/** What {@link SimpleContext} is built from. */
export interface SimpleContextInit {
  /** The authenticated client. */
  readonly client: PlatformClient;
  /** The engaged timeline. */
  readonly timeline: string;
  /** Who the agent is. */
  readonly self: SelfIdentity;
  /** Where tools log (default: silent). */
  readonly journal?: Journal;
  /** The outbound gate (default: one that refuses every post). */
  readonly gate?: OutboundGate;
  /** Derives Idempotency-Keys (default: none, so creates are sent without a key). */
  readonly idempotencyKey?: (
    kind: CreateKind,
    callId: string,
  ) => string | undefined | Promise<string | undefined>;
}

const noGate: OutboundGate = {
  post(_request: PostRequest): Promise<Message> {
    return Promise.reject(new Error("no outbound gate is bound to this context"));
  },
  clear(): Promise<never> {
    return Promise.reject(new Error("no outbound gate is bound to this context"));
  },
};

/** A plain-object platform context that records the acts reported to it. */
export class SimpleContext implements PlatformContext {
  /** The authenticated client. */
  readonly client: PlatformClient;
  /** The engaged timeline. */
  readonly timeline: string;
  /** Who the agent is. */
  readonly self: SelfIdentity;
  /** Where tools log. */
  readonly journal: Journal;
  /** The outbound gate. */
  readonly gate: OutboundGate;
  /** Every visible act recorded, in order. */
  readonly acts: VisibleAct[] = [];
  readonly #key: SimpleContextInit["idempotencyKey"];

  /** Builds the context; see {@link SimpleContextInit}. */
  constructor(init: SimpleContextInit) {
    this.client = init.client;
    this.timeline = init.timeline;
    this.self = init.self;
    this.journal = init.journal ?? silentJournal;
    this.gate = init.gate ?? noGate;
    this.#key = init.idempotencyKey;
  }

  /** The key from the init function, if one was given. */
  async idempotencyKey(kind: CreateKind, callId: string): Promise<string | undefined> {
    return await this.#key?.(kind, callId);
  }

  /** Records `act`. */
  recordAct(act: VisibleAct): void {
    this.acts.push(act);
  }
}
