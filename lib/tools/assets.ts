/**
 * `assets`: exchange files on a timeline the way a peer shares an attachment — list them, read
 * a text file, view an image, upload text the agent wrote, or post an image another tool
 * captured this wake. See docs/tools.md#platform-tools.
 *
 * `view` hands the picture to the model as image input. A model that definitely has no image
 * input (the `vision: false` option, or the bound context saying so) gets the file's
 * description instead, and the swap is logged as a WARNING — never a caption promising a view
 * it cannot have. `create` is replay-protected (Idempotency-Key kind `asset`); `post_image`
 * is not, because its bytes live only in this wake's memory and can never be re-sent.
 */
import type * as z from "../base/zod.ts";
import type { JsonSchema, ToolContext, ToolOutput } from "../core/types/tool.ts";
import { imageWithheld } from "../journal/catalogue_engine.ts";
import type { Asset } from "../platform/mod.ts";
import { mediaType } from "./net/content_type.ts";
import type { PlatformContext } from "./shared/platform_context.ts";
import {
  optionalText,
  present,
  type TextArgs,
  textArgs,
  type TextArgValues,
} from "./shared/args.ts";
import {
  captureFilename,
  describeAsset,
  isAudio,
  isImage,
  isText,
  MAX_INLINE_BYTES,
  viewRefusal,
} from "./shared/asset_format.ts";
import { downloadImage } from "./shared/asset_image.ts";
import type { ImageStash } from "./shared/image_stash.ts";
import { renderList, takeCapped } from "./shared/lists.ts";
import { PlatformTool, targetTimeline } from "./shared/platform_tool.ts";
import { relay, unknownAction } from "./shared/relay.ts";
import { pyRepr } from "../pycompat/repr.ts";

const ACTIONS = ["list", "read", "view", "create", "post_image"] as const;

const Args: TextArgs<
  "action" | "uuid" | "image" | "content" | "filename" | "description" | "timeline"
> = textArgs({
  action: optionalText,
  uuid: optionalText,
  image: optionalText,
  content: optionalText,
  filename: optionalText,
  description: optionalText,
  timeline: optionalText,
});
/** The `assets` tool's arguments once checked: what the tool acts on. */
export type AssetsArgs = TextArgValues<
  "action" | "uuid" | "image" | "content" | "filename" | "description" | "timeline"
>;

/**
 * Per-wake extras the host may put on the bound context (read by shape, so the shared
 * {@link PlatformContext} stays minimal): whether the model can see images, its name for the
 * journal, and this wake's image stash.
 */
export interface AssetsContextExtras {
  /** `false` only when the model definitely has no image input; unknown shows the image. */
  readonly vision?: boolean;
  /** The model's name, for the withheld-image WARNING. */
  readonly model?: string;
  /** Images captured this wake, for `post_image`. */
  readonly images?: ImageStash;
}

/** Options for {@link AssetsTool}; the bound context's extras take precedence. */
export interface AssetsToolOptions extends AssetsContextExtras {}

const PARAMETERS: JsonSchema = {
  type: "object",
  properties: {
    action: { type: "string", enum: [...ACTIONS], description: "What to do." },
    uuid: {
      type: "string",
      description: "The asset's uuid (read/view only). Get it from 'list', or pass 'latest' " +
        "for the most recent file on the timeline — e.g. an image you just posted.",
    },
    image: {
      type: "string",
      description: "The reference of a captured image to post (post_image only) — e.g. " +
        "'mcp-image-1' as shown in a tool result, or 'latest' for the most recent capture. " +
        "Defaults to the latest capture if omitted.",
    },
    content: { type: "string", description: "The text content of the file to upload (create)." },
    filename: {
      type: "string",
      description: "The filename for the uploaded file, e.g. 'notes.md' (create, post_image).",
    },
    description: {
      type: "string",
      description: "An optional human-readable description of the file (create, post_image).",
    },
    timeline: {
      type: "string",
      description: "Optional timeline uuid to act on instead of the current one. Omit to use " +
        "the timeline you are engaged on.",
    },
  },
  required: ["action"],
};

/** List, read, view and create files on a timeline, and post captured images. */
export class AssetsTool extends PlatformTool<AssetsArgs> {
  /** The name the model calls it by. */
  readonly name = "assets";
  /** What it does, for the model. */
  readonly description: string =
    "Exchange files on the timeline, the way a peer shares an attachment. action='list' shows " +
    "the files here with their uuids; action='read' downloads one file by uuid and returns its " +
    "text (binary files come back as a description, not raw bytes); action='view' looks at an " +
    "image file by uuid (or uuid='latest' for the most recent file on the timeline) so you can " +
    "actually see it; action='create' uploads a new file from the text content you provide, " +
    "with a filename and an optional description; action='post_image' posts an image a tool " +
    "just returned (such as a browser screenshot) to the timeline — pass its reference in " +
    "'image' (e.g. 'mcp-image-1', or 'latest'), so you can share what you captured even if you " +
    "cannot see it yourself. Operations use the current timeline unless you pass a timeline " +
    "uuid. Assets are shared with every viewer and can never be edited or deleted.";
  /** JSON Schema of the arguments. */
  readonly parameters: JsonSchema = PARAMETERS;
  /** The zod schema the arguments are checked against. */
  protected readonly schema: z.ZodType<AssetsArgs> = Args;
  readonly #options: AssetsToolOptions;

  /** Builds the tool, optionally bound; `options` say whether the model can see images. */
  constructor(context?: PlatformContext, options: AssetsToolOptions = {}) {
    super(context);
    this.#options = options;
  }

  /** Dispatches on the checked arguments; every outcome is a text for the model. */
  protected async act(
    context: PlatformContext,
    args: AssetsArgs,
    call: ToolContext | undefined,
    raw?: unknown,
  ): Promise<string | ToolOutput> {
    const target = targetTimeline(context, args.timeline);
    switch (args.action) {
      case "list":
        return await relay("list the files", () => this.#list(context, target));
      case "read":
        if (!present(args.uuid)) {
          return "Error: 'read' needs the asset's uuid. Use 'list' to find it.";
        }
        return await relay("read the file", () => this.#read(context, target, args.uuid ?? ""));
      case "view":
        if (!present(args.uuid)) {
          return "Error: 'view' needs the asset's uuid. Use 'list' to find it.";
        }
        return await relay("view the file", () => this.#view(context, target, args.uuid ?? ""));
      case "create": {
        // Asked for before validating: the key is a pure function of the call, and a create
        // the tool rejects still holds its ordinal in the turn.
        const key = call ? await context.idempotencyKey("asset", call.callId) : undefined;
        if (args.content === undefined || !present(args.filename)) {
          return "Error: 'create' needs both 'content' and a 'filename'.";
        }
        return await relay(
          "create the file",
          () => this.#create(context, target, args, key, call),
          { context, timeline: target, what: "asset" },
          { call, args: raw },
        );
      }
      case "post_image":
        return await relay(
          "post the image",
          () => this.#postImage(context, target, args, call),
          undefined,
          { call, args: raw },
        );
      default:
        return unknownAction(args.action, ACTIONS);
    }
  }

  /** The bound context's extras, falling back to the tool's options. */
  #extras(context: PlatformContext): AssetsContextExtras {
    const extras = context as PlatformContext & AssetsContextExtras;
    return {
      vision: extras.vision ?? this.#options.vision,
      model: extras.model ?? this.#options.model,
      images: extras.images ?? this.#options.images,
    };
  }

  /** `latest` → the newest asset on the timeline (or undefined when it has none). */
  async #resolve(context: PlatformContext, timeline: string, uuid: string) {
    if (uuid.trim().toLowerCase() !== "latest") return uuid;
    const [newest] = await context.client.assets.list({ timeline, limit: 1 }).toArray();
    return newest?.content.uuid;
  }

  async #list(context: PlatformContext, timeline: string): Promise<string> {
    const capped = await takeCapped(context.client.assets.list({ timeline }));
    return renderList(capped, describeAsset, {
      title: "Files on this timeline (newest first):",
      empty: "No files on this timeline yet.",
    });
  }

  async #read(context: PlatformContext, timeline: string, ref: string): Promise<string> {
    const uuid = await this.#resolve(context, timeline, ref);
    if (uuid === undefined) return "No files on this timeline yet — nothing to read.";
    const asset = await context.client.assets.get(uuid);
    const meta = describeAsset(asset);
    const file = asset.content.file;
    if (!file) return `${meta}\n(no file is attached to this asset — nothing to read.)`;
    const text = isText(file.content_type);
    if (!text || file.byte_size > MAX_INLINE_BYTES) {
      const why = text
        ? `${file.byte_size} bytes, over the ${MAX_INLINE_BYTES}-byte inline limit`
        : "binary";
      const hint = isImage(file.content_type)
        ? " Use action='view' to look at it."
        : isAudio(file.content_type)
        ? " Use the 'listen' tool to hear what it says."
        : "";
      return `${meta}\n(${why} — not inlined. The file is on the timeline by that uuid.${hint})`;
    }
    const { bytes } = await context.client.assets.download(asset, { maxBytes: MAX_INLINE_BYTES });
    try {
      return `${meta}\n\n${new TextDecoder("utf-8", { fatal: true }).decode(bytes)}`;
    } catch {
      // Declared text but not UTF-8: describing beats guessing an encoding.
      return `${meta}\n(not valid UTF-8 text — not inlined.)`;
    }
  }

  async #view(
    context: PlatformContext,
    timeline: string,
    ref: string,
  ): Promise<string | ToolOutput> {
    const uuid = await this.#resolve(context, timeline, ref);
    if (uuid === undefined) return "No files on this timeline yet — nothing to view.";
    const asset = await context.client.assets.get(uuid);
    const meta = describeAsset(asset);
    const file = asset.content.file;
    if (!file) return `${meta}\n(no file is attached to this asset — nothing to view.)`;
    const refusal = viewRefusal(file);
    if (refusal) return `${meta}\n(${refusal})`;
    const { vision, model } = this.#extras(context);
    if (vision === false) return this.#withheld(context, asset, meta, model);
    const image = await downloadImage(context.client.assets, asset);
    if (typeof image === "string") return `${meta}\n(${image})`;
    return { text: meta, images: [image] };
  }

  /** The no-vision swap: the description stands in for the pixels, and the journal says so. */
  #withheld(context: PlatformContext, asset: Asset, meta: string, model?: string): string {
    const name = asset.content.file?.filename ?? asset.content.uuid;
    imageWithheld(context.journal, { images: name, model: model ?? "unknown" });
    return `${meta}\n(This model has no image input, so the image is described here instead ` +
      "of shown. Ask a peer, or a vision-capable tool, if you need what it depicts.)";
  }

  async #create(
    context: PlatformContext,
    timeline: string,
    args: AssetsArgs,
    idempotencyKey: string | undefined,
    call: ToolContext | undefined,
  ): Promise<string> {
    const filename = args.filename ?? "";
    const cleared = await context.gate.clear({
      surface: "asset",
      timeline,
      fields: {
        file: new TextEncoder().encode(args.content ?? ""),
        filename,
        description: args.description,
      },
    });
    const asset = await context.client.assets.create(timeline, cleared, {
      idempotencyKey,
      signal: call?.signal,
    });
    context.recordAct("asset");
    const size = asset.content.file?.byte_size ?? 0;
    return `Uploaded ${pyRepr(filename)} (${size} bytes). ${describeAsset(asset)}`;
  }

  async #postImage(
    context: PlatformContext,
    timeline: string,
    args: AssetsArgs,
    call: ToolContext | undefined,
  ): Promise<string> {
    const stash = this.#extras(context).images;
    if (stash?.get("latest") === undefined) {
      return "Error: no captured images to post. An image only becomes postable after a tool " +
        "(e.g. a browser screenshot) returns one this wake; captures do not survive a restart.";
    }
    const ref = present(args.image) ? args.image.trim() : "latest";
    const stashed = stash.get(ref);
    if (stashed === undefined) {
      return `Error: no captured image ${pyRepr(ref)}. Use the reference shown in the tool ` +
        "result (e.g. 'mcp-image-1'), or 'latest' for the most recent capture.";
    }
    const name = present(args.filename) ? args.filename : captureFilename(stashed.mimeType);
    // No Idempotency-Key: the bytes exist only in this wake, so no recovery may re-issue it.
    const cleared = await context.gate.clear({
      surface: "asset",
      timeline,
      fields: {
        file: stashed.data,
        filename: name,
        contentType: mediaType(stashed.mimeType) || undefined,
        description: args.description,
      },
    });
    const asset = await context.client.assets.create(timeline, cleared, { signal: call?.signal });
    context.recordAct("post_image");
    const size = asset.content.file?.byte_size ?? 0;
    return `Posted ${pyRepr(name)} (${size} bytes) from capture ${pyRepr(ref)}. ${
      describeAsset(asset)
    }`;
  }
}
