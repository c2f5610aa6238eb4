/**
 * The wake's outbound gate, built on the first post: a wake that posts nothing never loads the
 * gate's checks. The operator's guardrails are still read at start-up (a malformed file stops the
 * wake before anything runs); only the gate object itself waits.
 */
import type { ClearedText, Message } from "../platform/mod.ts";
import type {
  ClearRequest,
  ClearSurface,
  OutboundGate,
  PostRequest,
} from "../gate/post_request.ts";

/** An {@link OutboundGate} that builds the real one on first use. */
export class DeferredGate implements OutboundGate {
  readonly #load: () => Promise<OutboundGate>;
  #gate: Promise<OutboundGate> | undefined;

  constructor(load: () => Promise<OutboundGate>) {
    this.#load = load;
  }

  /** The real gate (built once). */
  ready(): Promise<OutboundGate> {
    this.#gate ??= this.#load();
    return this.#gate;
  }

  /** Checks and posts through the real gate. */
  async post(request: PostRequest): Promise<Message> {
    return await (await this.ready()).post(request);
  }

  /** Screens another surface's text through the real gate. */
  async clear<S extends ClearSurface>(request: ClearRequest<S>): Promise<ClearedText<S>> {
    return await (await this.ready()).clear(request);
  }
}
