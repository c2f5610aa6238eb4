/**
 * The poll loop's view of speech: it wraps the real outbound gate and remembers every message
 * the agent's own tool posted, so `pollOnce` can say what the agent chose to post without ever
 * posting anything itself.
 */
import type { ClearedText, Message as PlatformMessage } from "../platform/mod.ts";
import type {
  ClearRequest,
  ClearSurface,
  OutboundGate,
  PostRequest,
} from "../gate/post_request.ts";

/** An {@link OutboundGate} that records the agent's posts as they succeed. */
export class CapturingGate implements OutboundGate {
  readonly #inner: OutboundGate;
  #posted: PlatformMessage[] = [];

  /** Wraps `inner`, which still screens and posts every message. */
  constructor(inner: OutboundGate) {
    this.#inner = inner;
  }

  /** Posts through the wrapped gate; a message that went out is recorded. */
  async post(request: PostRequest): Promise<PlatformMessage> {
    const message = await this.#inner.post(request);
    // Only the model's own speech counts as "chose to post".
    if (request.kind === "tool") this.#posted.push(message);
    return message;
  }

  /** Screens another surface's text through the wrapped gate. */
  clear<S extends ClearSurface>(request: ClearRequest<S>): Promise<ClearedText<S>> {
    return this.#inner.clear(request);
  }

  /** The posts recorded since the last take, oldest first; clears the record. */
  take(): PlatformMessage[] {
    const posted = this.#posted;
    this.#posted = [];
    return posted;
  }
}
