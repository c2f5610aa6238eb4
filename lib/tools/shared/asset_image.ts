/**
 * An asset's image as model input: the one download path the assets tool's `view` and the wake's
 * asset perception (docs/operating.md#what-each-kind-of-item-becomes) share, so both show exactly
 * the same pixels under the same cap. Call it only for a file {@link viewRefusal} accepted (a
 * viewable type, declared within {@link MAX_IMAGE_BYTES}); the bytes live in memory only and are
 * never written anywhere.
 */
import type { ImageContent } from "../../core/types/message.ts";
import {
  type Asset,
  type AssetsApi,
  BlobTooLargeError,
  type CallOptions,
} from "../../platform/mod.ts";
import { mediaType } from "../net/content_type.ts";
import { MAX_IMAGE_BYTES, viewRefusal } from "./asset_format.ts";

/**
 * Downloads `asset`'s file (the signed URL, no bearer token) and returns it as an image part —
 * or, when the file is not viewable or the blob turns out larger than the cap its declared size
 * promised, the reason it cannot be shown. Download failures propagate (a `PlatformError`).
 */
export async function downloadImage(
  assets: Pick<AssetsApi, "download">,
  asset: Asset,
  options: CallOptions = {},
): Promise<ImageContent | string> {
  const file = asset.content.file;
  if (!file) return "no file is attached to this asset — nothing to view.";
  const refusal = viewRefusal(file);
  if (refusal) return refusal;
  let bytes: Uint8Array;
  try {
    // Streamed up to the cap: a blob larger than its declared size is cut off, not read whole.
    ({ bytes } = await assets.download(asset, { ...options, maxBytes: MAX_IMAGE_BYTES }));
  } catch (error) {
    if (!(error instanceof BlobTooLargeError)) throw error;
    return `over the ${MAX_IMAGE_BYTES}-byte view limit — too large to look at.`;
  }
  if (bytes.byteLength > MAX_IMAGE_BYTES) {
    // A download seam that ignored the cap: the limit still holds.
    return `${bytes.byteLength} bytes, over the ${MAX_IMAGE_BYTES}-byte view limit — too large to look at.`;
  }
  if (bytes.byteLength === 0) return "empty file — nothing to view.";
  return { alt: file.filename, mimeType: mediaType(file.content_type), data: bytes.toBase64() };
}
