/**
 * Turning a `tools/call` result into what the model reads (docs/mcp.md): text blocks joined by
 * newlines, `isError` prefixed `Error: `, other block types noted by type, and images both shown
 * to the model (the engine's vision gate decides whether pixels or a placeholder go out) and
 * stashed for the wake so `assets post_image` can share them on the timeline.
 */
import { codePointLength, headCodePoints } from "../base/code_points.ts";
import * as z from "../base/zod.ts";
import type { ToolOutput } from "../core/types/tool.ts";
import type { ImageContent } from "../core/types/message.ts";
import type { CallResult } from "./connection.ts";
import { MAX_RESULT_CHARS } from "./config.ts";

/** Where images are stashed for the wake (an `ImageRing` fits). */
export interface ImageSink {
  /** Stashes the bytes and returns their handle (`mcp-image-N`). */
  put(data: Uint8Array, mimeType: string): string;
}

/** The largest image stashed (and shown); bigger ones are described only. */
export const MAX_IMAGE_BYTES = 64 * 1024 * 1024;

/** The image types a model accepts as input. */
const VIEWABLE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** Said for a call that returned nothing at all. */
export const NO_CONTENT = "(the tool returned no content)";

const TextBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
const ImageBlock = z.looseObject({
  type: z.literal("image"),
  data: z.string().optional(),
  mimeType: z.string().optional(),
});
const AnyBlock = z.looseObject({ type: z.string() });

/**
 * Renders `result` for the model; `images` receives any image blocks. A text longer than
 * `maxChars` is cut there, with a note saying how long it was and what to do instead, so a
 * server's 30 MB answer never reaches the model (or the transcript) whole.
 */
export function renderCallResult(
  result: CallResult,
  images: ImageSink,
  maxChars: number = MAX_RESULT_CHARS,
): ToolOutput {
  const parts: string[] = [];
  const shown: ImageContent[] = [];
  for (const block of result.content ?? []) {
    const text = TextBlock.safeParse(block);
    if (text.success) {
      parts.push(text.data.text);
      continue;
    }
    const image = ImageBlock.safeParse(block);
    if (image.success) {
      const rendered = renderImage(image.data.data, image.data.mimeType, images);
      parts.push(rendered.text);
      if (rendered.image) shown.push(rendered.image);
      continue;
    }
    const other = AnyBlock.safeParse(block);
    parts.push(`[${other.success ? other.data.type : "unknown"} content]`);
  }
  // A tool may answer with structured content alone; the model still deserves to read it.
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  let text = parts.join("\n");
  if (result.isError) text = `Error: ${text || "the tool reported an error without details"}`;
  else if (text === "") text = NO_CONTENT;
  text = capped(text, maxChars);
  return shown.length ? { text, images: shown } : { text };
}

/**
 * `text` cut at `max` characters, with the note after it. Characters are code points, as every
 * other cap counts them, so an emoji counts once and a cut never splits one.
 */
export function capped(text: string, max: number): string {
  const length = codePointLength(text);
  if (length <= max) return text;
  return `${headCodePoints(text, max)}\n[… cut: the tool's result was ${length} characters; ` +
    `only the first ${max} are shown. Ask the tool for less (a narrower query, one page) if ` +
    "you need the rest.]";
}

/** One image block: stash it, describe it, and hand a viewable one to the model. */
function renderImage(
  data: string | undefined,
  declared: string | undefined,
  images: ImageSink,
): { text: string; image?: ImageContent } {
  const mime = (declared ?? "").trim().toLowerCase() || "application/octet-stream";
  if (!data) return { text: `[image: ${mime}, no data]` };
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(data);
  } catch {
    return { text: `[image: ${mime}, undecodable data]` };
  }
  if (bytes.length === 0) return { text: `[image: ${mime}, empty]` };
  if (bytes.length > MAX_IMAGE_BYTES) {
    return { text: `[image: ${mime}, ${formatSize(bytes.length)} — too large to keep or show]` };
  }
  const handle = images.put(bytes, mime);
  const viewable = VIEWABLE.has(mime);
  const text = `[image ${handle}: ${mime}, ${formatSize(bytes.length)} — to share it on this ` +
    `timeline, use the assets tool with action='post_image', image='${handle}']` +
    (viewable ? "" : " (type not viewable to a model; described only)");
  return viewable ? { text, image: { alt: handle, mimeType: mime, data: toBase64(bytes) } } : {
    text,
  };
}

/** `<n> B`, `<x.x> KB`, `<x.x> MB` (binary units), as the reference words sizes. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Strict base64 (standard or URL-safe alphabet, whitespace ignored). */
function decodeBase64(data: string): Uint8Array {
  const clean = data.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) {
    throw new Error("not base64");
  }
  const padded = clean.padEnd(Math.ceil(clean.length / 4) * 4, "=");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** Re-encoded from the decoded bytes so the model gets canonical base64, never the raw input. */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
