/**
 * What the outbound gate accepts: one post request, and the interface every gate implements.
 * The gate owns these types, so the tools (and the wake, and poll) import them from here and the
 * gate never imports a tool.
 */
import type { PostKind } from "../journal/catalogue_wake.ts";
import type {
  ClearedText,
  Message as PlatformMessage,
  SurfaceFields,
  TextSurface,
} from "../platform/mod.ts";
import type { ToneVerdict } from "./tone.ts";

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
  /**
   * Told the tone check's verdict when one ran (only on the agent's own messages, only when
   * `guardrails.json` configures `tone`), pass or fail, before the post is sent or refused: the
   * turn record keeps it.
   */
  readonly onTone?: (verdict: ToneVerdict) => void;
}

/** Agent text for a surface other than a timeline message, to be screened before it is sent. */
export interface ClearRequest<S extends ClearSurface = ClearSurface> {
  /** Where it goes: an asset, a task, a webhook endpoint, a direct message. */
  readonly surface: S;
  /** The fields exactly as they will be sent. */
  readonly fields: SurfaceFields[S];
  /** The timeline it is made on, for the `post blocked` line (none for a direct message). */
  readonly timeline?: string;
}

/** The surfaces {@link OutboundGate.clear} screens (a message goes through `post`). */
export type ClearSurface = Exclude<TextSurface, "message">;

/**
 * The only way a message reaches the platform. Implementations run deterministic checks first
 * and refuse with `GateRefusal` (naming the failed check) before anything is sent.
 */
export interface OutboundGate {
  /** Checks and posts; resolves to the created (or, on a replayed key, the original) record. */
  post(request: PostRequest): Promise<PlatformMessage>;
  /**
   * Screens agent text for another surface with the same checks and returns it sealed, the only
   * value the platform's create call (or the push transport) accepts; refuses with
   * `GateRefusal`, naming the field and the check, before anything is sent.
   */
  clear<S extends ClearSurface>(request: ClearRequest<S>): Promise<ClearedText<S>>;
}
