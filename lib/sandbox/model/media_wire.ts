/**
 * The demo model's media routes, so the media tools run offline against the sandbox: OpenAI's
 * `/images/generations`, `/images/edits` and `/audio/transcriptions`, and xAI's
 * `/images/generations` (the same route: the answer carries both vendors' fields),
 * `/images/edits`, `/videos/generations` and `/videos/<id>`. Every output is deterministic: an
 * image is a small valid PNG whose colour comes from the prompt's hash, a transcript names the
 * clip's size, and a video is `done` on its first poll with a URL this sandbox serves.
 */
import { concatBytes } from "../../base/bytes.ts";
import { digest, isRecord, jsonResponse, ModelRequestError, readModelBody } from "./wire_common.ts";

/** An image's side, in pixels: small, so a generated asset stays cheap to keep and move. */
const SIDE = 16;

/** What an xAI generation reports it cost, in 1e-10 USD ticks (a fixed demo price). */
export const DEMO_IMAGE_COST_TICKS = 200_000_000;
/** The demo video's cost, in ticks. */
export const DEMO_VIDEO_COST_TICKS = 500_000_000;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG chunks use it. */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0);
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(type);
  const body = concatBytes([head, data]);
  return concatBytes([u32(data.length), body, u32(crc32(body))]);
}

/** zlib-deflates `bytes` with the platform's own compressor. */
async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A valid 16×16 RGB PNG: a two-colour diagonal whose colours come from `seed`'s hash. */
export async function demoPng(seed: string): Promise<Uint8Array> {
  const hash = digest(seed);
  const rgb = (offset: number) =>
    [0, 2, 4].map((i) => parseInt(hash.slice(offset + i, offset + i + 2), 16));
  const [a, b] = [rgb(0), rgb(6)];
  const rows = new Uint8Array(SIDE * (1 + SIDE * 3));
  for (let y = 0; y < SIDE; y++) {
    const row = y * (1 + SIDE * 3);
    rows[row] = 0; // filter: none
    for (let x = 0; x < SIDE; x++) rows.set(x >= y ? a : b, row + 1 + x * 3);
  }
  const header = concatBytes([u32(SIDE), u32(SIDE), new Uint8Array([8, 2, 0, 0, 0])]);
  return concatBytes([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", await deflate(rows)),
    chunk("IEND", new Uint8Array()),
  ]);
}

/** Bytes to base64. */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Refuses a request without a bearer token (any token is accepted). */
export function requireBearer(req: Request): void {
  if (!/^Bearer \S+/i.test(req.headers.get("authorization") ?? "")) {
    throw new ModelRequestError(
      401,
      "Missing bearer token: any AI_API_KEY works with the sandbox demo model.",
      null,
      "invalid_api_key",
    );
  }
}

/** A media request's fields: JSON, or multipart (text fields as text, files as their size). */
interface MediaRequest {
  readonly fields: Readonly<Record<string, unknown>>;
  /** Every file part, in order, as `[field, bytes]`. */
  readonly files: readonly (readonly [string, Uint8Array])[];
}

async function readMedia(req: Request): Promise<MediaRequest> {
  requireBearer(req);
  const type = req.headers.get("content-type") ?? "";
  const bytes = await readModelBody(req);
  if (type.startsWith("multipart/form-data")) {
    const form = await new Response(bytes, { headers: { "content-type": type } }).formData();
    const fields: Record<string, unknown> = {};
    const files: [string, Uint8Array][] = [];
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = value;
      else files.push([name, new Uint8Array(await value.arrayBuffer())]);
    }
    return { fields, files };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ModelRequestError(400, "The request body is not valid JSON.");
  }
  if (!isRecord(parsed)) throw new ModelRequestError(400, "The request body must be an object.");
  return { fields: parsed, files: [] };
}

function promptOf(request: MediaRequest): string {
  const prompt = request.fields.prompt;
  if (typeof prompt !== "string" || !prompt.trim()) {
    throw new ModelRequestError(400, "you must provide a prompt", "prompt");
  }
  return prompt;
}

/** `POST …/images/generations` (OpenAI and xAI): one deterministic PNG for the prompt. */
export async function imageGeneration(req: Request): Promise<Response> {
  const request = await readMedia(req);
  const prompt = promptOf(request);
  const png = await demoPng(`generate:${prompt}`);
  return jsonResponse(200, imageReply(png));
}

/** `POST …/images/edits`: a PNG seeded by the prompt and the sources' sizes. */
export async function imageEdit(req: Request): Promise<Response> {
  const request = await readMedia(req);
  const prompt = promptOf(request);
  // OpenAI sends files; xAI sends `image`/`images` as data URIs in JSON.
  const uris = [request.fields.image, request.fields.images].flat().flatMap((value) =>
    isRecord(value) && typeof value.url === "string"
      ? [value.url]
      : typeof value === "string"
      ? [value]
      : []
  );
  const sources = request.files.length + uris.length;
  if (sources === 0) throw new ModelRequestError(400, "you must provide an image", "image");
  const sizes = [...request.files.map(([, bytes]) => bytes.length), ...uris.map((u) => u.length)];
  const png = await demoPng(`edit:${prompt}:${sizes.join(",")}`);
  return jsonResponse(200, imageReply(png));
}

function imageReply(png: Uint8Array): Record<string, unknown> {
  return {
    created: 1_767_225_600,
    data: [{ b64_json: base64(png), mime_type: "image/png" }],
    usage: { cost_in_usd_ticks: DEMO_IMAGE_COST_TICKS },
  };
}

/** `POST …/audio/transcriptions`: a transcript that names the clip's size. */
export async function transcription(req: Request): Promise<Response> {
  const request = await readMedia(req);
  const file = request.files.find(([name]) => name === "file");
  if (!file) throw new ModelRequestError(400, "you must provide a file", "file");
  return jsonResponse(200, {
    text: `This is the sandbox transcript of a ${file[1].length}-byte audio clip.`,
  });
}

/** `POST …/videos/generations`: an id, derived from the prompt. */
export async function videoGeneration(req: Request): Promise<Response> {
  const prompt = promptOf(await readMedia(req));
  return jsonResponse(200, { request_id: `vid_${digest(`video:${prompt}`).slice(0, 24)}` });
}

/** `GET …/videos/<id>`: `done` on the first poll, with a URL this sandbox serves. */
export function videoStatus(req: Request, url: URL, id: string, base: string): Response {
  requireBearer(req);
  return jsonResponse(200, {
    status: "done",
    video: { url: `${url.origin}${base}/media/${id}.mp4`, duration: 1 },
    model: "grok-imagine-video-1.5",
    usage: { cost_in_usd_ticks: DEMO_VIDEO_COST_TICKS },
  });
}

/** `GET …/media/<id>.mp4`: a tiny MP4-shaped file (an `ftyp` box and the id). */
export function videoFile(id: string): Response {
  const tail = new TextEncoder().encode(`sandbox video ${id}`);
  const box = concatBytes([
    u32(24),
    new TextEncoder().encode("ftypisom"),
    u32(0x200),
    new TextEncoder().encode("isomiso2"),
    tail,
  ]);
  return new Response(box, { status: 200, headers: { "content-type": "video/mp4" } });
}
