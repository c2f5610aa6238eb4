/**
 * The xAI media tools (docs/tools.md#the-xai-media-tools): `grok_generate_image`,
 * `grok_edit_image` and `grok_generate_video`, spoken to with `fetch` (there is no xAI SDK
 * here) and every answer checked by zod. They need `AI_PROVIDER=xai` with `AI_API_KEY`; requests
 * go to `AI_BASE_URL` when it is set, else https://api.x.ai/v1. What they make is uploaded as a
 * timeline asset and the result names its uuid: the bytes never reach the model.
 */
import { HostNotAllowedError } from "../../net/host_fence.ts";
import { handedFetch, outboundFetch } from "../../net/outbound.ts";
import { readCapped } from "../../net/read_capped.ts";
import { UrlRefusedError } from "../../net/refusal.ts";
import { sleep } from "../../base/sleep.ts";
import * as z from "../../base/zod.ts";
import type { JsonSchema, ToolContext } from "../../core/types/tool.ts";
import type { MediaKind } from "../../journal/catalogue_engine.ts";
import { isImage } from "../shared/asset_format.ts";
import { optionalText, present } from "../shared/args.ts";
import type { PlatformContext } from "../shared/platform_context.ts";
import { targetTimeline } from "../shared/platform_tool.ts";
import { relay } from "../shared/relay.ts";
import {
  bodyDetail,
  fromBase64,
  journalMedia,
  type MediaEndpoint,
  mediaFailure,
  MediaRejected,
  mediaSlug,
  postedLine,
  postGeneratedImage,
  sniffImage,
  sourceBytes,
  toBase64,
  uploadGenerated,
  VendorMediaTool,
  XAI_DEFAULT_BASE_URL,
} from "./common.ts";

export { type MediaEndpoint, mediaEndpointFrom } from "./common.ts";

/** The xAI image model. */
export const XAI_IMAGE_MODEL = "grok-imagine-image-quality";
/** The xAI video model. */
export const XAI_VIDEO_MODEL = "grok-imagine-video-1.5";
/** The most source images one edit takes. */
export const XAI_MAX_EDIT_SOURCES = 3;
/** How long one xAI request may take. */
const REQUEST_TIMEOUT_MS = 300_000;
/**
 * The largest finished video downloaded (256 MiB): the body is read as it streams and given up
 * at this size, whatever the server declared.
 */
export const MAX_VIDEO_BYTES = 256 * 1024 * 1024;
/** One USD tick, as xAI bills: `cost_in_usd_ticks` × 1e-10 dollars. */
const TICK_USD = 1e-10;

/** Timing seams for the video poll (tests shorten them). */
export interface VideoTiming {
  /** Between polls; 5 s unless given. */
  readonly pollIntervalMs?: number;
  /** Give up after; 600 s unless given. */
  readonly deadlineMs?: number;
}

const Usage = z.object({ cost_in_usd_ticks: z.number().nullish() }).loose().nullish();
const ImageReply = z.object({
  data: z.array(z.object({ b64_json: z.string().nullish() }).loose()).min(1),
  usage: Usage,
}).loose();
const Submitted = z.object({ request_id: z.string().nullish(), id: z.string().nullish() }).loose();
const Poll = z.object({
  status: z.string(),
  video: z.object({ url: z.string() }).loose().nullish(),
  usage: Usage,
  error: z.unknown().optional(),
  message: z.unknown().optional(),
}).loose();

const looseArgs = {
  prompt: optionalText,
  aspect_ratio: optionalText,
  resolution: optionalText,
  filename: optionalText,
  description: optionalText,
  timeline: optionalText,
};
const GenerateArgs = z.looseObject(looseArgs);
type GenerateArgs = typeof GenerateArgs._output;
const EditArgs = z.looseObject({
  ...looseArgs,
  image: z.union([z.string(), z.array(z.string())]).nullish().transform((v) => v ?? undefined),
});
type EditArgs = typeof EditArgs._output;
const VideoArgs = z.looseObject({ ...looseArgs, duration: optionalText });
type VideoArgs = typeof VideoArgs._output;

const COMMON_PROPERTIES: Record<string, JsonSchema> = {
  prompt: { type: "string", description: "What to make." },
  aspect_ratio: { type: "string", description: "Optional aspect ratio, e.g. '1:1', '16:9'." },
  resolution: { type: "string", description: "Optional resolution, e.g. '1k', '720p'." },
  filename: { type: "string", description: "Optional filename; its stem names the asset." },
  description: { type: "string", description: "Optional description of the posted asset." },
  timeline: {
    type: "string",
    description: "Optional timeline uuid to post to instead of the current one.",
  },
};

/** The xAI base URL for `endpoint`, without a trailing slash. */
function baseOf(endpoint: MediaEndpoint): string {
  return (endpoint.baseURL ?? XAI_DEFAULT_BASE_URL).replace(/\/+$/, "");
}

/** One xAI call: JSON in, checked JSON out; an error status is xAI's own words. */
async function xai<T>(
  endpoint: MediaEndpoint,
  method: "GET" | "POST",
  path: string,
  schema: z.ZodType<T>,
  body: unknown,
  signal: AbortSignal | undefined,
): Promise<T> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const response = await outboundFetch("media")(`${baseOf(endpoint)}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${endpoint.apiKey ?? ""}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const raw = await response.text();
  let parsed: unknown;
  try {
    parsed = raw ? JSON.parse(raw) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    throw new MediaRejected("xAI", bodyDetail(parsed, raw || `HTTP ${response.status}`));
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    throw new Error(`xAI answered ${method} ${path} with a body this runtime cannot read`);
  }
  return checked.data;
}

function costOf(usage: z.infer<typeof Usage>): number | undefined {
  const ticks = usage?.cost_in_usd_ticks;
  return typeof ticks === "number" ? ticks * TICK_USD : undefined;
}

/** The optional generation fields the model gave, as xAI names them. */
function shape(args: { aspect_ratio?: string; resolution?: string }): Record<string, string> {
  const out: Record<string, string> = {};
  if (present(args.aspect_ratio?.trim())) out.aspect_ratio = args.aspect_ratio?.trim() ?? "";
  if (present(args.resolution?.trim())) out.resolution = args.resolution?.trim() ?? "";
  return out;
}

/** Shared by the xAI tools: the endpoint check and the failure wrapping. */
abstract class XaiMediaTool<Args> extends VendorMediaTool<Args> {
  /** The vendor's provider name. */
  protected readonly vendor = "xai";

  /** Runs one paid call; every failure becomes `<lead>: <reason>`. */
  protected async attempt(
    lead: string,
    work: (endpoint: MediaEndpoint) => Promise<string>,
  ): Promise<string> {
    try {
      return await work(this.endpoint());
    } catch (error) {
      return mediaFailure(lead, error);
    }
  }

  /** Decodes an image answer, journals it and uploads it; returns the posted line. */
  protected async postImage(
    context: PlatformContext,
    call: ToolContext | undefined,
    reply: z.infer<typeof ImageReply>,
    args: GenerateArgs,
    meta: { kind: MediaKind; started: number; verb: string },
  ): Promise<string> {
    const b64 = reply.data[0]?.b64_json;
    if (!b64) throw new Error("xAI returned no image data");
    const bytes = fromBase64(b64);
    // xAI does not say the format; the magic number does (JPEG is its usual answer).
    const kind = sniffImage(bytes) ?? { ext: "jpg", type: "image/jpeg" };
    return await postGeneratedImage(context, call, {
      bytes,
      ext: kind.ext,
      contentType: kind.type,
      args,
      media: {
        provider: "xai",
        kind: meta.kind,
        model: XAI_IMAGE_MODEL,
        started: meta.started,
        cost: costOf(reply.usage),
      },
      verb: meta.verb,
    });
  }
}

/** `grok_generate_image`: an image from a prompt with xAI's image model, posted as an asset. */
export class GrokGenerateImageTool extends XaiMediaTool<GenerateArgs> {
  /** The name the model calls it by. */
  readonly name = "grok_generate_image";
  /** What it does, for the model. */
  readonly description: string =
    "Generate an image from a text prompt with xAI's grok image model and post it to the " +
    "timeline as a file. Returns the new asset's uuid. Each call is paid: generate once per " +
    "request, and do not regenerate an image you already posted.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = {
    type: "object",
    properties: COMMON_PROPERTIES,
    required: ["prompt"],
  };
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<GenerateArgs> = GenerateArgs;

  /** Generates, uploads, and answers with the asset line. */
  protected async act(
    context: PlatformContext,
    args: GenerateArgs,
    call: ToolContext | undefined,
  ): Promise<string> {
    if (!present(args.prompt?.trim())) return "Error: 'prompt' is required.";
    return await this.attempt("Error generating image", async (endpoint) => {
      const started = performance.now();
      const reply = await xai(endpoint, "POST", "/images/generations", ImageReply, {
        model: XAI_IMAGE_MODEL,
        prompt: args.prompt,
        n: 1,
        response_format: "b64_json",
        ...shape(args),
      }, call?.signal);
      return await this.postImage(context, call, reply, args, {
        kind: "image.generate",
        started,
        verb: "Generated the image",
      });
    });
  }
}

/** `grok_edit_image`: a new image from one to three asset images, posted as an asset. */
export class GrokEditImageTool extends XaiMediaTool<EditArgs> {
  /** The name the model calls it by. */
  readonly name = "grok_edit_image";
  /** What it does, for the model. */
  readonly description: string =
    "Edit or combine image files on the timeline with xAI's grok image model: pass up to " +
    `${XAI_MAX_EDIT_SOURCES} source assets' uuids in 'image' and say what to change in ` +
    "'prompt'. The result is posted as a new file and its uuid returned. Each call is paid.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = {
    type: "object",
    properties: {
      image: {
        type: "array",
        items: { type: "string" },
        description: `The source images' asset uuids (1 to ${XAI_MAX_EDIT_SOURCES}).`,
      },
      ...COMMON_PROPERTIES,
    },
    required: ["image", "prompt"],
  };
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<EditArgs> = EditArgs;

  /** Downloads the sources, edits, uploads, and answers with the asset line. */
  protected async act(
    context: PlatformContext,
    args: EditArgs,
    call: ToolContext | undefined,
  ): Promise<string> {
    const uuids = (Array.isArray(args.image) ? args.image : [args.image ?? ""])
      .map((uuid) => uuid.trim()).filter((uuid) => uuid !== "");
    if (!uuids.length) return "Error: 'image' needs at least one source asset uuid.";
    if (uuids.length > XAI_MAX_EDIT_SOURCES) {
      return `Error: 'image' takes at most ${XAI_MAX_EDIT_SOURCES} source images ` +
        `(${uuids.length} given).`;
    }
    if (!present(args.prompt?.trim())) return "Error: 'prompt' is required.";
    return await this.attempt("Error editing image", async (endpoint) => {
      const onlyImages = (type: string) =>
        isImage(type) ? undefined : `the source must be an image file (it is ${type}).`;
      const uris: { url: string; type: "image_url" }[] = [];
      for (const uuid of uuids) {
        const source = await relay(
          "read the source image",
          () => sourceBytes(context, uuid, onlyImages, call?.signal),
        );
        if (typeof source === "string") return source;
        const type = sniffImage(source.bytes)?.type ?? source.contentType;
        uris.push({ url: `data:${type};base64,${toBase64(source.bytes)}`, type: "image_url" });
      }
      const started = performance.now();
      const reply = await xai(endpoint, "POST", "/images/edits", ImageReply, {
        model: XAI_IMAGE_MODEL,
        prompt: args.prompt,
        n: 1,
        response_format: "b64_json",
        // One source travels as `image`, several as `images`: the shapes xAI's endpoint takes.
        ...(uris.length === 1 ? { image: uris[0] } : { images: uris }),
        ...shape(args),
      }, call?.signal);
      return await this.postImage(context, call, reply, args, {
        kind: "image.edit",
        started,
        verb: "Edited the image",
      });
    });
  }
}

/**
 * Reads the finished video from the URL xAI handed back, through the fetch path's handed door
 * (docs/security.md#one-fetch-path): http(s) only, and off xAI's configured endpoint only to a
 * public address, never to the box's own network or a `file:` path. No key is sent. The body
 * is read as it streams, up to {@link MAX_VIDEO_BYTES}.
 */
async function downloadVideo(
  endpoint: MediaEndpoint,
  id: string,
  url: string,
  call: ToolContext | undefined,
): Promise<Uint8Array> {
  const signal = call?.signal;
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let download: Response;
  try {
    download = await handedFetch("media", { trusted: [baseOf(endpoint)] })(url, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (error instanceof UrlRefusedError || error instanceof HostNotAllowedError) {
      // The journal's `tool` line says the call was refused on policy, not that it went well.
      call?.reportOutcome?.("refused");
      throw new Error(
        `xAI finished video ${id}, but the URL it gave for it was not fetched: ` +
          `${error.message} Nothing was posted.`,
      );
    }
    throw error;
  }
  if (!download.ok || download.body === null) {
    await download.body?.cancel();
    throw new Error(`downloading the finished video failed with HTTP ${download.status}`);
  }
  const { bytes, truncated } = await readCapped(download.body, MAX_VIDEO_BYTES);
  if (truncated) {
    throw new Error(
      `the finished video is larger than ${MAX_VIDEO_BYTES} bytes (256 MiB), the most this ` +
        "harness downloads; it was not posted",
    );
  }
  return bytes;
}

/** `grok_generate_video`: a video from a prompt, polled until done, posted as an asset. */
export class GrokGenerateVideoTool extends XaiMediaTool<VideoArgs> {
  /** The name the model calls it by. */
  readonly name = "grok_generate_video";
  /** What it does, for the model. */
  readonly description: string =
    "Generate a short video from a text prompt with xAI's grok video model and post it to the " +
    "timeline as a file. It can take minutes; the call waits until the video is ready and " +
    "returns the new asset's uuid. Each call is paid: do not start a second one for the same " +
    "request.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = {
    type: "object",
    properties: {
      ...COMMON_PROPERTIES,
      duration: { type: "string", description: "Optional length in seconds, e.g. '6'." },
    },
    required: ["prompt"],
  };
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<VideoArgs> = VideoArgs;
  readonly #interval: number;
  readonly #deadline: number;

  /** Builds the tool; `timing` shortens the poll for tests. */
  constructor(endpoint: MediaEndpoint, context?: PlatformContext, timing: VideoTiming = {}) {
    super(endpoint, context);
    this.#interval = timing.pollIntervalMs ?? 5_000;
    this.#deadline = timing.deadlineMs ?? 600_000;
  }

  /** Submits, polls, downloads, uploads, and answers with the asset line. */
  protected async act(
    context: PlatformContext,
    args: VideoArgs,
    call: ToolContext | undefined,
  ): Promise<string> {
    if (!present(args.prompt?.trim())) return "Error: 'prompt' is required.";
    let duration: number | undefined;
    if (present(args.duration?.trim())) {
      duration = Number(args.duration);
      if (!Number.isInteger(duration) || duration < 1 || duration > 60) {
        return "Error: 'duration' must be a whole number of seconds from 1 to 60.";
      }
    }
    return await this.attempt("Error generating video", async (endpoint) => {
      const started = performance.now();
      const submitted = await xai(endpoint, "POST", "/videos/generations", Submitted, {
        model: XAI_VIDEO_MODEL,
        prompt: args.prompt,
        ...shape(args),
        ...(duration === undefined ? {} : { duration }),
      }, call?.signal);
      const id = submitted.request_id ?? submitted.id;
      if (!id) throw new Error("xAI accepted the video but returned no request id");
      const done = await this.#poll(endpoint, id, call?.signal);
      const url = done.video?.url;
      if (!url) throw new Error(`xAI reported video ${id} done but gave no URL`);
      const bytes = await downloadVideo(endpoint, id, url, call);
      journalMedia(context, {
        provider: "xai",
        kind: "video.generate",
        model: XAI_VIDEO_MODEL,
        started,
        cost: costOf(done.usage),
      });
      const asset = await uploadGenerated(context, targetTimeline(context, args.timeline), {
        bytes,
        filename: `${mediaSlug(args.filename, args.prompt ?? "", "video")}.mp4`,
        contentType: "video/mp4",
        description: args.description,
      }, call);
      return typeof asset === "string" ? asset : postedLine("Generated the video", asset);
    });
  }

  /** Polls until `done`; `failed`/`expired` relay xAI's words; the deadline ends the wait. */
  async #poll(endpoint: MediaEndpoint, id: string, signal?: AbortSignal) {
    const until = performance.now() + this.#deadline;
    for (;;) {
      const state = await xai(
        endpoint,
        "GET",
        `/videos/${encodeURIComponent(id)}`,
        Poll,
        undefined,
        signal,
      );
      const status = state.status.toLowerCase();
      if (status === "done") return state;
      if (status === "failed" || status === "expired") {
        const detail = bodyDetail(state, "");
        throw new MediaRejected(
          "xAI",
          detail === "no detail given" ? `the video ${status}` : `the video ${status}: ${detail}`,
        );
      }
      if (performance.now() + this.#interval > until) {
        throw new Error(
          `xAI did not finish video ${id} within ${
            Number((this.#deadline / 1000).toFixed(3))
          } s; ` +
            "it was not posted",
        );
      }
      await sleep(this.#interval, signal);
    }
  }
}
