/**
 * Image preparation for one model request (docs/context.md#images-in-a-request), loaded lazily
 * and only when a request carries images, so neither an idle wake nor an engaged turn without
 * images loads the codecs. Works on the request view alone: the transcript and the original asset
 * keep their bytes. A tall static image is split into overlapping full-width segments; every
 * image or segment is held under the policy's long-axis and base64 limits; only the newest
 * `maxImages` images ride the request; an image that cannot be decoded becomes explanatory text.
 *
 * The codecs are fast-png and jpeg-js, both plain JavaScript: no FFI and no WebAssembly file to
 * locate, so they run under the locked permission set and from the bundle alike
 * (docs/benchmarks.md#image-preparation has the measurements behind the choice).
 *
 * Before any decoding, the size an image's header declares is read (image-size, plain JavaScript
 * too, reading a few header bytes of PNG, JPEG, GIF and WebP): a decompression bomb — a few
 * hundred kilobytes that inflate to gigabytes — is refused from its header and never inflated.
 */
import { imageSize } from "image-size";
import { convertIndexedToRgb, decode as decodePng, encode as encodePng } from "fast-png";
import { decode as decodeJpeg, encode as encodeJpeg } from "jpeg-js";
import type { ImagePrepPolicy } from "./types/image_policy.ts";
import type { ImageContent, Message } from "./types/message.ts";

/** Decoded pixels: 8-bit RGBA, row-major. */
export interface Raster {
  /** Columns. */
  readonly width: number;
  /** Rows. */
  readonly height: number;
  /** `width × height × 4` bytes. */
  readonly data: Uint8Array;
}

/** What preparing one request's view produced. */
export interface PreparedView {
  /** The view to send: messages with images copied, never the transcript's own objects. */
  readonly messages: Message[];
  /** One line per image that went as text instead (corrupt, unsupported, over the limits). */
  readonly failures: readonly string[];
  /** Images older than the newest `maxImages`, sent as a note. */
  readonly dropped: number;
  /** Segments the tall images were split into (0 when none was). */
  readonly segments: number;
}

/** Base64 characters for `bytes` bytes of data. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/**
 * The largest image decoded, in megapixels: a decompression bomb must not take the wake's
 * memory. 120 MP holds a 9000×9000 photo or a 300×400000 scroll with room to spare.
 */
export const MAX_DECODE_MEGAPIXELS = 120;

/** Prepared images by their original object, so a run's later steps do not decode them again. */
export type PreparedCache = WeakMap<ImageContent, ImageContent[] | string>;

/**
 * Prepares every image in `view` for the request (docs/context.md#images-in-a-request). A
 * message whose images all go as they are is passed through as the same object; one whose
 * images change is copied, so the transcript's own turn is never touched. With
 * `cache`, an image already prepared is reused and its failure is not reported again: a run
 * re-sends its shown images on every step until they are evicted.
 */
export async function prepareView(
  view: readonly Message[],
  policy: ImagePrepPolicy,
  cache?: PreparedCache,
): Promise<PreparedView> {
  const total = view.reduce((n, m) => n + (m.images?.length ?? 0), 0);
  let older = Math.max(0, total - policy.maxImages); // the oldest images go first
  const failures: string[] = [];
  let segments = 0;
  const messages: Message[] = [];
  for (const message of view) {
    if (!message.images?.length) {
      messages.push(message);
      continue;
    }
    const images: ImageContent[] = [];
    const notes: string[] = [];
    for (const image of message.images) {
      const label = image.alt || "image";
      if (older > 0) {
        older--;
        notes.push(
          `(Image not sent: ${label} — only the newest ${policy.maxImages} image(s) ride a request.)`,
        );
        continue;
      }
      const known = cache?.get(image);
      const prepared = known ?? await prepareImage(image, policy);
      if (known === undefined) cache?.set(image, prepared);
      if (typeof prepared === "string") {
        if (known === undefined) failures.push(`${label}: ${prepared}`);
        notes.push(`(Image not sent: ${label} — ${prepared})`);
        continue;
      }
      if (prepared.length > 1) segments += prepared.length;
      images.push(...prepared);
    }
    const unchanged = !notes.length && images.length === message.images.length &&
      images.every((prepared, i) => prepared === message.images![i]);
    if (unchanged) {
      messages.push(message); // nothing to change: the same object, as the view gave it
      continue;
    }
    const copy: Message = { ...message };
    if (notes.length) copy.content = [message.content ?? "", ...notes].filter(Boolean).join("\n");
    if (images.length) copy.images = images;
    else delete copy.images;
    messages.push(copy);
  }
  return { messages, failures, dropped: Math.max(0, total - policy.maxImages), segments };
}

/**
 * Decodes a PNG or JPEG to RGBA. Throws on a corrupt file, an unsupported format, or one over
 * {@link MAX_DECODE_MEGAPIXELS} (a second line behind the header check of {@link prepareImage}).
 */
export function decodeImage(bytes: Uint8Array, mimeType: string): Raster {
  if (mimeType === "image/png") return pngToRgba(bytes);
  const jpeg = decodeJpeg(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: MAX_DECODE_MEGAPIXELS,
    maxMemoryUsageInMB: 4096,
  });
  return { width: jpeg.width, height: jpeg.height, data: jpeg.data };
}

/** The codecs read these; anything else is passed through if it fits, else sent as text. */
const DECODABLE = new Set(["image/png", "image/jpeg"]);

/** The formats whose header is read for the declared size before anything else happens. */
const MEASURED = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The size an image's header declares, read without decoding it. */
export interface HeaderSize {
  readonly width: number;
  readonly height: number;
  /** The format the bytes are, whatever the declared type says ("png", "jpg", …). */
  readonly type: string;
}

/**
 * The size `bytes`' header declares (the largest frame's, for a format that holds several), or
 * undefined when no header of a known format can be read. Reads the header only: no pixel is
 * inflated, so a bomb costs what its file costs.
 */
export function headerSize(bytes: Uint8Array): HeaderSize | undefined {
  try {
    const size = imageSize(bytes);
    const { width, height } = size;
    if (!width || !height) return undefined;
    return { width, height, type: size.type ?? "unknown" };
  } catch {
    return undefined; // not a format the reader knows, or a header cut short
  }
}

/**
 * Why an image whose header declares `size` is not decoded: more pixels than
 * {@link MAX_DECODE_MEGAPIXELS}. Undefined when it is within the limit.
 */
export function oversizeReason(size: HeaderSize): string | undefined {
  const megapixels = (size.width * size.height) / 1e6;
  if (megapixels <= MAX_DECODE_MEGAPIXELS) return undefined;
  return `its header declares ${size.width}×${size.height} pixels (${Math.round(megapixels)} ` +
    `megapixels), over the ${MAX_DECODE_MEGAPIXELS}-megapixel limit; it was refused without ` +
    "being decoded.";
}

/**
 * One image, prepared: the original (same bytes) when it is within every limit, else its
 * segments or its re-encoding; a sentence saying why when it cannot be sent.
 */
export async function prepareImage(
  image: ImageContent,
  policy: ImagePrepPolicy,
): Promise<ImageContent[] | string> {
  let mime = image.mimeType.toLowerCase();
  if (mime === "image/jpg") mime = "image/jpeg";
  let bytes: Uint8Array | undefined;
  if (MEASURED.has(mime)) {
    // The header first: the decoder's own guard runs only after it has inflated the pixels.
    bytes = Uint8Array.fromBase64(image.data);
    const size = headerSize(bytes);
    const oversize = size && oversizeReason(size);
    if (oversize) return oversize;
    if (!size && DECODABLE.has(mime)) {
      return `the file could not be decoded as ${mime} (no readable ${mime} header); it may be ` +
        "corrupt or truncated.";
    }
  }
  if (!DECODABLE.has(mime)) {
    if (image.data.length <= policy.maxBase64Bytes) return [image];
    return `a ${mime} image of ${image.data.length} base64 characters is over the request's ` +
      `${policy.maxBase64Bytes}-character limit, and this format cannot be re-encoded here.`;
  }
  let decoded: Raster;
  try {
    decoded = decodeImage(bytes ?? Uint8Array.fromBase64(image.data), mime);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `the file could not be decoded as ${mime} (${why}); it may be corrupt or truncated.`;
  }
  const { width, height } = decoded;
  const tall = height > policy.segmentHeight && height > 2 * width;
  if (!tall && Math.max(width, height) <= policy.maxLongEdge) {
    if (image.data.length <= policy.maxBase64Bytes) return [image]; // already fits: same bytes
  }
  // Yield between the heavy steps, so timers (a turn's deadline, a heartbeat) still fire.
  await Promise.resolve();
  if (!tall) {
    const fitted = fit(decoded, mime, policy);
    if (!fitted) return overLimit(policy);
    return [{ alt: image.alt, ...fitted }];
  }
  const step = policy.segmentHeight - policy.segmentOverlap;
  const starts: number[] = [];
  for (let y = 0;; y += step) {
    starts.push(y);
    if (y + policy.segmentHeight >= height) break;
  }
  const out: ImageContent[] = [];
  const row = width * 4;
  for (const [i, top] of starts.entries()) {
    const bottom = Math.min(height, top + policy.segmentHeight);
    // Full-width segments are contiguous rows: a view into the decoded bitmap, not a copy.
    const segment = {
      width,
      height: bottom - top,
      data: decoded.data.subarray(top * row, bottom * row),
    };
    const fitted = fit(segment, mime, policy);
    if (!fitted) return overLimit(policy);
    out.push({
      alt: `${image.alt || "image"} (part ${i + 1}/${starts.length}, rows ${top}–${bottom})`,
      ...fitted,
    });
    await Promise.resolve();
  }
  return out;
}

function overLimit(policy: ImagePrepPolicy): string {
  return `it could not be compressed under ${policy.maxBase64Bytes} base64 characters.`;
}

/**
 * JPEG qualities tried at each size before the image is scaled down: two, not a long ladder,
 * because each encode of a large image costs seconds and a smaller size saves more bytes than a
 * lower quality does.
 */
const QUALITIES = [85, 65] as const;

/**
 * `image` within the long-edge and base64 limits: PNG stays PNG while it fits (text stays
 * crisp), else JPEG, then smaller by the measured overshoot, until it fits or is too small to
 * help.
 */
function fit(
  image: Raster,
  mime: string,
  policy: ImagePrepPolicy,
): { mimeType: string; data: string } | undefined {
  let current = image;
  const long = Math.max(current.width, current.height);
  if (long > policy.maxLongEdge) current = downscale(current, policy.maxLongEdge / long);
  if (mime === "image/png") {
    const png = encodePng({ width: current.width, height: current.height, data: current.data });
    if (base64Length(png.length) <= policy.maxBase64Bytes) {
      return { mimeType: "image/png", data: png.toBase64() };
    }
  }
  // JPEG has no alpha: what was transparent is shown over white, not over stale colour.
  let opaque = flatten(current);
  for (let round = 0; round < 6; round++) {
    let size = 0;
    for (const quality of QUALITIES) {
      const jpeg = encodeJpeg(opaque, quality).data;
      size = base64Length(jpeg.length);
      if (size <= policy.maxBase64Bytes) {
        return { mimeType: "image/jpeg", data: new Uint8Array(jpeg).toBase64() };
      }
      // Far over: the lower quality would not close the gap (it saves about a third), so the
      // seconds it costs on a large image go to the smaller size instead.
      if (size > policy.maxBase64Bytes * 1.6) break;
    }
    if (Math.max(opaque.width, opaque.height) <= 64) return undefined;
    // Bytes scale with area: shrink by the square root of the overshoot, and a margin.
    opaque = downscale(opaque, Math.min(0.9, Math.sqrt(policy.maxBase64Bytes / size) * 0.9));
  }
  return undefined;
}

/** `image` with every pixel composited over white (a copy only when some pixel is translucent). */
function flatten(image: Raster): Raster {
  const { data } = image;
  let translucent = false;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] !== 255) {
      translucent = true;
      break;
    }
  }
  if (!translucent) return { width: image.width, height: image.height, data };
  const out = new Uint8Array(data);
  for (let i = 0; i < out.length; i += 4) {
    const a = out[i + 3];
    if (a === 255) continue;
    const white = 255 - a;
    out[i] = (out[i] * a + 255 * white) / 255;
    out[i + 1] = (out[i + 1] * a + 255 * white) / 255;
    out[i + 2] = (out[i + 2] * a + 255 * white) / 255;
    out[i + 3] = 255;
  }
  return { width: image.width, height: image.height, data: out };
}

/**
 * `image` scaled by `factor` (< 1) with a box filter: each output pixel is the mean of the
 * source pixels it covers, so downscaled text and lines stay legible where nearest-neighbour
 * would drop them.
 */
export function downscale(image: Raster, factor: number): Raster {
  const width = Math.max(1, Math.floor(image.width * factor));
  const height = Math.max(1, Math.floor(image.height * factor));
  const out = new Uint8Array(width * height * 4);
  const src = image.data;
  const sw = image.width;
  const xs = new Int32Array(width + 1);
  for (let x = 0; x <= width; x++) xs[x] = Math.min(sw, Math.round((x * image.width) / width));
  const sum = new Float64Array(width * 4);
  const count = new Int32Array(width);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    sum.fill(0);
    count.fill(0);
    for (let sy = y0; sy < y1; sy++) {
      const rowStart = sy * sw * 4;
      for (let x = 0; x < width; x++) {
        const x1 = Math.max(xs[x] + 1, xs[x + 1]);
        for (let sx = xs[x]; sx < x1; sx++) {
          const p = rowStart + sx * 4;
          const q = x * 4;
          sum[q] += src[p];
          sum[q + 1] += src[p + 1];
          sum[q + 2] += src[p + 2];
          sum[q + 3] += src[p + 3];
        }
        count[x] += x1 - xs[x];
      }
    }
    const base = y * width * 4;
    for (let x = 0; x < width; x++) {
      const n = count[x];
      for (let c = 0; c < 4; c++) out[base + x * 4 + c] = Math.round(sum[x * 4 + c] / n);
    }
  }
  return { width, height, data: out };
}

/** A PNG of any bit depth, channel count or palette, as 8-bit RGBA. */
function pngToRgba(bytes: Uint8Array): Raster {
  const png = decodePng(bytes);
  if (png.width * png.height > MAX_DECODE_MEGAPIXELS * 1e6) {
    throw new Error(`${png.width}×${png.height} is over ${MAX_DECODE_MEGAPIXELS} megapixels`);
  }
  const pixels = png.width * png.height;
  let channels = png.channels;
  let data: ArrayLike<number> = png.data;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    channels = png.palette[0]?.length ?? 3;
  } else if (png.depth === 16) {
    const wide = png.data;
    const narrow = new Uint8Array(wide.length);
    for (let i = 0; i < wide.length; i++) narrow[i] = wide[i] >> 8;
    data = narrow;
  } else if (png.depth < 8) {
    // Packed grey samples: unpack to one byte each, scaled to 0–255.
    const depth = png.depth;
    const perByte = 8 / depth;
    const max = (1 << depth) - 1;
    const rowBytes = Math.ceil((png.width * depth) / 8);
    const unpacked = new Uint8Array(pixels);
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) {
        const byte = png.data[y * rowBytes + Math.floor(x / perByte)];
        const shift = 8 - depth * ((x % perByte) + 1);
        unpacked[y * png.width + x] = Math.round((((byte >> shift) & max) * 255) / max);
      }
    }
    data = unpacked;
    channels = 1;
  }
  if (channels === 4 && data instanceof Uint8Array) return { ...png, data };
  const rgba = new Uint8Array(pixels * 4);
  for (let i = 0; i < pixels; i++) {
    const o = i * 4;
    const s = i * channels;
    if (channels >= 3) {
      rgba[o] = data[s];
      rgba[o + 1] = data[s + 1];
      rgba[o + 2] = data[s + 2];
      rgba[o + 3] = channels === 4 ? data[s + 3] : 255;
    } else {
      rgba[o] = rgba[o + 1] = rgba[o + 2] = data[s];
      rgba[o + 3] = channels === 2 ? data[s + 1] : 255;
    }
  }
  return { width: png.width, height: png.height, data: rgba };
}
