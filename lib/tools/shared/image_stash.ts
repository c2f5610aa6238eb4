/**
 * Images a tool returned during this wake (an MCP browser screenshot), kept in memory so the
 * assets tool's `post_image` can share them on the timeline even when the model cannot see
 * them. The bytes never reach disk and do not survive the wake, which is why `post_image`
 * carries no Idempotency-Key and is never re-issued by a recovery.
 */

/** One stashed image. */
export interface StashedImage {
  /** The reference the tool result named, e.g. `mcp-image-2`. */
  readonly handle: string;
  /** The raw bytes. */
  readonly data: Uint8Array;
  /** The declared media type, e.g. `image/png`. */
  readonly mimeType: string;
}

/** What `post_image` reads: a capture by its handle, or the newest by `latest`. */
export interface ImageStash {
  /** The capture named `ref` (`mcp-image-N`, or `latest` for the newest); undefined if absent. */
  get(ref: string): StashedImage | undefined;
}

/**
 * A small ring of captures: the newest `capacity` are kept, handles count up from
 * `mcp-image-1` and are never reused, so a stale reference misses instead of hitting a newer
 * image.
 */
export class ImageRing implements ImageStash {
  readonly #capacity: number;
  readonly #images: StashedImage[] = [];
  #counter = 0;

  /** A ring keeping the newest `capacity` captures (8 by default, as the reference does). */
  constructor(capacity = 8) {
    this.#capacity = capacity;
  }

  /** Stashes `data` and returns its handle. */
  put(data: Uint8Array, mimeType: string): string {
    const handle = `mcp-image-${++this.#counter}`;
    this.#images.push({ handle, data, mimeType });
    if (this.#images.length > this.#capacity) this.#images.shift();
    return handle;
  }

  /** The capture named `ref`, or the newest for `latest`. */
  get(ref: string): StashedImage | undefined {
    const wanted = ref.trim().toLowerCase();
    if (wanted === "latest") return this.#images.at(-1);
    return this.#images.find((image) => image.handle === wanted);
  }

  /** How many captures are held. */
  get size(): number {
    return this.#images.length;
  }
}
