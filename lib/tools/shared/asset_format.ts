/**
 * How the assets tool talks about files: the one-line description, which types are inlined as
 * text, which images a model can take as input, and the default name of a posted capture.
 * Kept apart from the tool so the wake's asset perception can share the exact same gates.
 */
import type { Asset, AssetFile } from "../../platform/mod.ts";
import { isTextType, mediaType } from "../net/content_type.ts";
import { pyRepr } from "../../pycompat/repr.ts";

/** Text larger than this is described, not inlined: a huge log must not flood the context. */
export const MAX_INLINE_BYTES = 256 * 1024;

/**
 * The largest image `view` loads. A bound on what this box holds in memory (the bytes plus
 * their base64 form), not a guess at any vendor's limit; the vendor judges what it is sent.
 */
export const MAX_IMAGE_BYTES = 64 * 1024 * 1024;

/** The image types every model provider documents as input. */
export const VIEWABLE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

const CAPTURE_EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** `uuid=<u> · filename='<f>' · <bytes> bytes · <type>[ — <description>]`. */
export function describeAsset(asset: Asset): string {
  const file = asset.content.file;
  let line = file
    ? `uuid=${asset.content.uuid} · filename=${
      pyRepr(file.filename)
    } · ${file.byte_size} bytes · ${file.content_type}`
    : `uuid=${asset.content.uuid} · (no file attached)`;
  if (asset.content.description) line += ` — ${asset.content.description}`;
  return line;
}

/** Whether a file of this type is decoded and inlined by `read`. */
export function isText(contentType: string): boolean {
  return isTextType(mediaType(contentType));
}

/** Whether a file of this type is an image. */
export function isImage(contentType: string): boolean {
  return mediaType(contentType).startsWith("image/");
}

/** Whether a file of this type is audio (the `listen` tool's business). */
export function isAudio(contentType: string): boolean {
  return mediaType(contentType).startsWith("audio/");
}

/** Why `file` cannot be shown to a model, or undefined when it can. */
export function viewRefusal(file: AssetFile): string | undefined {
  if (!isImage(file.content_type)) {
    return "not an image — 'view' is for images. Use 'read' for text files.";
  }
  if (!VIEWABLE_TYPES.has(mediaType(file.content_type))) {
    return "image type not viewable; supported: PNG, JPEG, GIF, WebP.";
  }
  if (file.byte_size <= 0) return "empty file — nothing to view.";
  if (file.byte_size > MAX_IMAGE_BYTES) {
    return `${file.byte_size} bytes, over the ${MAX_IMAGE_BYTES}-byte view limit — too large to look at.`;
  }
  return undefined;
}

/** `capture.<ext>` for a posted capture the model did not name (`.img` for an unknown type). */
export function captureFilename(contentType: string): string {
  return `capture.${CAPTURE_EXTENSIONS[mediaType(contentType)] ?? "img"}`;
}
