/**
 * How images are prepared for a model request (docs/context.md#images-in-a-request): the limits
 * a request's inline images are held to. The saved transcript and the original asset never see
 * the result; only the request view does.
 */

/** The limits one model's requests hold their inline images to. */
export interface ImagePrepPolicy {
  /** A static image taller than this (px) is split into full-width segments this high. */
  readonly segmentHeight: number;
  /** Rows (px) each segment repeats from the one above, so no line of text is cut unseen. */
  readonly segmentOverlap: number;
  /** The most base64 characters one image or segment may take in the request. */
  readonly maxBase64Bytes: number;
  /** The longest side (px) an image or segment may have once prepared. */
  readonly maxLongEdge: number;
  /** How many images one request carries; older ones become a short text note. */
  readonly maxImages: number;
}

/** The defaults: 4096 px segments with 50 px overlap, ≤ 5 MiB base64, ≤ 8000 px, newest 20. */
export const DEFAULT_IMAGE_PREP: ImagePrepPolicy = Object.freeze({
  segmentHeight: 4096,
  segmentOverlap: 50,
  maxBase64Bytes: 5 * 1024 * 1024,
  maxLongEdge: 8000,
  maxImages: 20,
});
