/**
 * The OpenAI media tools (docs/tools.md#media-tools): `generate_image` and `edit_image` over the
 * Images API and `listen` over audio transcriptions, all through the official openai SDK. Each
 * needs `AI_PROVIDER=openai` with `AI_API_KEY` (their plugin files say so, so under another
 * provider they resolve skipped); requests go to `AI_BASE_URL` when it is set. A generated image is
 * uploaded as a timeline asset and the result names its uuid: the bytes never reach the model.
 */
import { outboundFetch } from "../../net/outbound.ts";
import { refusalIn } from "../../net/refusal.ts";
import type OpenAI from "openai";
import * as z from "../../base/zod.ts";
import type { JsonSchema, ToolContext } from "../../core/types/tool.ts";
import type { MediaKind } from "../../journal/catalogue_engine.ts";
import { withoutNodeGlobals } from "../../providers/without_node_globals.ts";
import { describeAsset, isAudio, isImage } from "../shared/asset_format.ts";
import { optionalText, present } from "../shared/args.ts";
import type { PlatformContext } from "../shared/platform_context.ts";
import { relay, ToolRefusal } from "../shared/relay.ts";
import {
  bodyDetail,
  fromBase64,
  journalMedia,
  type MediaEndpoint,
  mediaFailure,
  MediaRejected,
  postGeneratedImage,
  sourceBytes,
  VendorMediaTool,
} from "./common.ts";

export { type MediaEndpoint, mediaEndpointFrom } from "./common.ts";

/** The image model the Images API is asked for. */
export const OPENAI_IMAGE_MODEL = "gpt-image-2";
/** The transcription model. */
export const OPENAI_TRANSCRIBE_MODEL = "gpt-transcribe";
/** Per-request timeout: image generation is slow, and a cut-off paid call is money lost. */
export const OPENAI_MEDIA_TIMEOUT_MS = 300_000;
/** The largest audio file the transcription endpoint takes. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

const QUALITIES = ["low", "medium", "high", "auto"] as const;
const BACKGROUNDS = ["opaque", "auto"] as const;
const FORMATS = ["png", "jpeg", "webp"] as const;
const EXTENSIONS: Readonly<Record<string, string>> = { png: "png", jpeg: "jpg", webp: "webp" };

/** A count the model may send as a number or a numeric string. */
const looseNumber = z.union([z.number(), z.string()]).nullish().transform((v) => v ?? undefined);

const ImageOptions = {
  prompt: optionalText,
  size: optionalText,
  quality: optionalText,
  background: optionalText,
  output_format: optionalText,
  output_compression: looseNumber,
  filename: optionalText,
  description: optionalText,
  timeline: optionalText,
};
const GenerateArgs = z.looseObject(ImageOptions);
type GenerateArgs = typeof GenerateArgs._output;
const EditArgs = z.looseObject({
  ...ImageOptions,
  image: z.union([z.string(), z.array(z.string())]).nullish().transform((v) => v ?? undefined),
  mask: optionalText,
});
type EditArgs = typeof EditArgs._output;
const ListenArgs = z.looseObject({ uuid: optionalText });
type ListenArgs = typeof ListenArgs._output;

/** The Images API answer, checked: one image's base64. */
const ImagesReply = z.object({
  data: z.array(z.object({ b64_json: z.string().nullish() }).loose()).min(1),
}).loose();
/** The transcription answer, checked. */
const TranscriptReply = z.object({ text: z.string() }).loose();

const IMAGE_PROPERTIES: Record<string, JsonSchema> = {
  prompt: { type: "string", description: "What the image should show." },
  size: {
    type: "string",
    description: "Width x height, e.g. '1024x1024' (default), '1536x1024', '1024x1536', or 'auto'.",
  },
  quality: { type: "string", enum: [...QUALITIES], description: "Rendering quality." },
  background: { type: "string", enum: [...BACKGROUNDS], description: "Background." },
  output_format: { type: "string", enum: [...FORMATS], description: "File format (png)." },
  output_compression: {
    type: "integer",
    description: "0-100 compression for jpeg/webp (ignored for png).",
  },
  filename: { type: "string", description: "Optional filename; its stem names the asset." },
  description: { type: "string", description: "Optional description of the posted asset." },
  timeline: {
    type: "string",
    description: "Optional timeline uuid to post to instead of the current one.",
  },
};

/** The SDK's module, loaded on first use so only a wake that makes media calls pays for it. */
async function openai(
  endpoint: MediaEndpoint,
): Promise<{ client: OpenAI; sdk: typeof import("openai") }> {
  const sdk = await import("openai");
  // Construction reads the SDK's environment defaults; hidden Node globals keep it on its
  // non-Node branch, as the provider does. Synchronous, so no other code sees the window.
  const client = withoutNodeGlobals(() =>
    new sdk.default({
      apiKey: endpoint.apiKey ?? "",
      baseURL: endpoint.baseURL,
      maxRetries: 0,
      timeout: OPENAI_MEDIA_TIMEOUT_MS,
      fetch: outboundFetch("media"),
    })
  );
  return { client, sdk };
}

/** An SDK error as the model reads it: the vendor's detail, not the SDK's status prefix. */
function vendorError(sdk: typeof import("openai"), error: unknown): unknown {
  // The fetch path's refusal, which the SDK wraps as a bare "Connection error.".
  const refusal = refusalIn(error);
  if (refusal) return refusal;
  if (error instanceof sdk.APIError && error.status !== undefined) {
    const raw = error.message.replace(/^\d{3}\s*/, "");
    return new MediaRejected("OpenAI", bodyDetail({ error: error.error }, raw));
  }
  return error;
}

/** The image options shared by generate and edit, checked; bad values are a {@link ToolRefusal}. */
function imageParams(args: GenerateArgs) {
  const pick = <T extends string>(
    field: string,
    value: string | undefined,
    allowed: readonly T[],
  ) => {
    if (!present(value)) return undefined;
    const lower = value.trim().toLowerCase();
    if (!(allowed as readonly string[]).includes(lower)) {
      throw new ToolRefusal(`'${field}' must be one of ${allowed.join(", ")}.`);
    }
    return lower as T;
  };
  const size = present(args.size) ? args.size.trim().toLowerCase() : "1024x1024";
  if (!/^(\d{2,5}x\d{2,5}|auto)$/.test(size)) {
    throw new ToolRefusal("'size' must be WIDTHxHEIGHT (e.g. '1024x1024') or 'auto'.");
  }
  const quality = pick("quality", args.quality, QUALITIES);
  const background = pick("background", args.background, BACKGROUNDS);
  const format = pick("output_format", args.output_format, FORMATS) ?? "png";
  let compression: number | undefined;
  if (args.output_compression !== undefined && args.output_compression !== "") {
    compression = Number(args.output_compression);
    if (!Number.isInteger(compression) || compression < 0 || compression > 100) {
      throw new ToolRefusal("'output_compression' must be a whole number from 0 to 100.");
    }
    // PNG is lossless: the API refuses a compression for it, so it is dropped, not sent.
    if (format === "png") compression = undefined;
  }
  // Unset options are left out, not sent empty: a multipart body would carry them as text.
  return {
    size: size as OpenAI.Images.ImageGenerateParams["size"],
    ...(quality === undefined ? {} : { quality }),
    ...(background === undefined ? {} : { background }),
    output_format: format,
    ...(compression === undefined ? {} : { output_compression: compression }),
  };
}

/** Shared by the OpenAI tools: the endpoint, the provider check, the failure wrapping. */
abstract class OpenAIMediaTool<Args> extends VendorMediaTool<Args> {
  /** The vendor's provider name. */
  protected readonly vendor = "openai";

  /** Runs one paid call; every failure becomes `<lead>: <reason>`. */
  protected async attempt(
    lead: string,
    work: (client: OpenAI, sdk: typeof import("openai")) => Promise<string>,
  ): Promise<string> {
    let sdk: typeof import("openai") | undefined;
    try {
      const endpoint = this.endpoint();
      const built = await openai(endpoint);
      sdk = built.sdk;
      return await work(built.client, built.sdk);
    } catch (error) {
      return mediaFailure(lead, sdk ? vendorError(sdk, error) : error);
    }
  }

  /** Decodes the Images API's answer and uploads it; returns the posted line. */
  protected async post(
    context: PlatformContext,
    call: ToolContext | undefined,
    reply: unknown,
    args: GenerateArgs,
    meta: { kind: MediaKind; started: number; verb: string },
  ): Promise<string> {
    const checked = ImagesReply.safeParse(reply);
    const b64 = checked.success ? checked.data.data[0]?.b64_json : undefined;
    if (!b64) throw new Error("OpenAI returned no image data");
    const format = imageParams(args).output_format;
    return await postGeneratedImage(context, call, {
      bytes: fromBase64(b64),
      ext: EXTENSIONS[format],
      contentType: format === "jpeg" ? "image/jpeg" : `image/${format}`,
      args,
      media: {
        provider: "openai",
        kind: meta.kind,
        model: OPENAI_IMAGE_MODEL,
        started: meta.started,
      },
      verb: meta.verb,
    });
  }
}

/** `generate_image`: an image from a prompt, posted as an asset. */
export class GenerateImageTool extends OpenAIMediaTool<GenerateArgs> {
  /** The name the model calls it by. */
  readonly name = "generate_image";
  /** What it does, for the model. */
  readonly description: string =
    "Generate an image from a text prompt with OpenAI's image model and post it to the " +
    "timeline as a file. Returns the new asset's uuid (view it with the assets tool). Each call " +
    "is paid: generate once per request, and do not regenerate an image you already posted.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = {
    type: "object",
    properties: IMAGE_PROPERTIES,
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
    return await this.attempt("Error generating image", async (client) => {
      const params = imageParams(args);
      const started = performance.now();
      const reply = await client.images.generate({
        model: OPENAI_IMAGE_MODEL,
        prompt: args.prompt ?? "",
        n: 1,
        ...params,
      }, { signal: call?.signal });
      return await this.post(context, call, reply, args, {
        kind: "image.generate",
        started,
        verb: "Generated the image",
      });
    });
  }
}

/** `edit_image`: new image from one or more asset images (and an optional mask), posted. */
export class EditImageTool extends OpenAIMediaTool<EditArgs> {
  /** The name the model calls it by. */
  readonly name = "edit_image";
  /** What it does, for the model. */
  readonly description: string =
    "Edit or combine image files on the timeline with OpenAI's image model: pass the source " +
    "assets' uuids in 'image' and say what to change in 'prompt'; an optional 'mask' asset " +
    "marks (by transparency) where to edit. The result is posted as a new file and its uuid " +
    "returned. Each call is paid.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = {
    type: "object",
    properties: {
      image: {
        type: "array",
        items: { type: "string" },
        description: "The source images' asset uuids (one or more).",
      },
      mask: { type: "string", description: "Optional mask image's asset uuid." },
      ...IMAGE_PROPERTIES,
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
    if (!present(args.prompt?.trim())) return "Error: 'prompt' is required.";
    return await this.attempt("Error editing image", async (client, sdk) => {
      const params = imageParams(args);
      const onlyImages = (type: string) =>
        isImage(type) ? undefined : `the source must be an image file (it is ${type}).`;
      const files = [];
      for (const uuid of uuids) {
        const source = await relay(
          "read the source image",
          () => sourceBytes(context, uuid, onlyImages, call?.signal),
        );
        if (typeof source === "string") return source;
        files.push(await sdk.toFile(source.bytes, source.filename, { type: source.contentType }));
      }
      let mask;
      if (present(args.mask?.trim())) {
        const source = await relay(
          "read the mask",
          () => sourceBytes(context, args.mask?.trim() ?? "", onlyImages, call?.signal),
        );
        if (typeof source === "string") return source;
        mask = await sdk.toFile(source.bytes, source.filename, { type: source.contentType });
      }
      const started = performance.now();
      const reply = await client.images.edit({
        model: OPENAI_IMAGE_MODEL,
        prompt: args.prompt ?? "",
        image: files,
        n: 1,
        ...(mask ? { mask } : {}),
        ...params,
        size: params.size as OpenAI.Images.ImageEditParams["size"],
      }, { signal: call?.signal });
      return await this.post(context, call, reply, args, {
        kind: "image.edit",
        started,
        verb: "Edited the image",
      });
    });
  }
}

/** `listen`: a transcript of an audio asset. */
export class ListenTool extends OpenAIMediaTool<ListenArgs> {
  /** The name the model calls it by. */
  readonly name = "listen";
  /** What it does, for the model. */
  readonly description: string =
    "Listen to an audio file on the timeline: pass its asset uuid and get back a transcript " +
    "of what it says (speech to text with OpenAI's transcription model). Audio files only, at " +
    "most 25 MiB. Each call is paid.";
  readonly #maxBytes: number;

  /** Builds the tool; `maxBytes` (25 MiB unless given) is the largest clip it sends. */
  constructor(
    endpoint: MediaEndpoint,
    context?: PlatformContext,
    options: { maxBytes?: number } = {},
  ) {
    super(endpoint, context);
    this.#maxBytes = options.maxBytes ?? MAX_AUDIO_BYTES;
  }

  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = {
    type: "object",
    properties: { uuid: { type: "string", description: "The audio asset's uuid." } },
    required: ["uuid"],
  };
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<ListenArgs> = ListenArgs;

  /** Downloads the clip, transcribes it, and answers with the transcript. */
  protected async act(
    context: PlatformContext,
    args: ListenArgs,
    call: ToolContext | undefined,
  ): Promise<string> {
    const uuid = args.uuid?.trim() ?? "";
    if (!uuid) {
      call?.reportOutcome?.("invalid");
      return "Error: 'uuid' is required: the audio asset to listen to.";
    }
    return await this.attempt("Error transcribing audio", async (client, sdk) => {
      // A file listen cannot transcribe is declined, never `ok`: the outcome says so.
      const audio = (type: string, size: number) => {
        if (!isAudio(type)) {
          call?.reportOutcome?.("refused");
          return `asset ${uuid} is not audio (it is ${type}); listen only transcribes audio files.`;
        }
        if (size > this.#maxBytes) {
          call?.reportOutcome?.("refused");
          return `asset ${uuid} is ${size} bytes, over the ${this.#maxBytes}-byte${
            this.#maxBytes === MAX_AUDIO_BYTES ? " (25 MiB)" : ""
          } ` +
            "limit the transcription endpoint accepts, so it cannot be transcribed.";
        }
        return undefined;
      };
      const source = await relay(
        "read the audio file",
        () => sourceBytes(context, uuid, audio, call?.signal),
      );
      if (typeof source === "string") return source;
      const started = performance.now();
      const reply = await client.audio.transcriptions.create({
        model: OPENAI_TRANSCRIBE_MODEL,
        file: await sdk.toFile(source.bytes, source.filename, { type: source.contentType }),
      }, { signal: call?.signal });
      const checked = TranscriptReply.safeParse(reply);
      if (!checked.success) throw new Error("OpenAI returned no transcript text");
      journalMedia(context, {
        provider: "openai",
        kind: "audio.transcribe",
        model: OPENAI_TRANSCRIBE_MODEL,
        started,
      });
      return `${describeAsset(source.asset)}\n\nTranscript:\n${checked.data.text}`;
    });
  }
}
