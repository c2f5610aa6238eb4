/**
 * What the outbound gate accepts: one post request, and the interface every gate implements.
 * The gate owns these types, so the tools (and the wake, and poll) import them from here and the
 * gate never imports a tool.
 */
import type { PostKind } from "../journal/catalogue_wake.ts";
import type { Message as PlatformMessage } from "../platform/mod.ts";

/** One message the agent (or the wake on its behalf) wants to post. */
export interface PostRequest {
  /** The timeline to post to (the engaged one, or another for a cross-timeline post). */
  readonly timeline: string;
  /** The message body, exactly as it should appear. */
  readonly body: string;
  /** Who is speaking: the model through its tool, or the wake's own ack/report. */
  readonly kind: PostKind;
  /** The deterministic key for replay protection, when the post has an anchor. */
  readonly idempotencyKey?: string;
}

/**
 * The only way a message reaches the platform. Implementations run deterministic checks first
 * and refuse with `GateRefusal` (naming the failed check) before anything is sent.
 */
export interface OutboundGate {
  /** Checks and posts; resolves to the created (or, on a replayed key, the original) record. */
  post(request: PostRequest): Promise<PlatformMessage>;
}
