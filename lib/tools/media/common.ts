/**
 * What all the media tools share: where their requests go, the asset name a generated file gets,
 * the keyed upload of its bytes, and the one error text a failed generation reads as. A
 * generation is a paid, non-idempotent effect: it carries no key and no recovery re-runs it; the
 * upload that follows is the keyed asset create, so a replayed upload returns the first asset.
 */
import { errorMessage } from "../../base/error_text.ts";
import type { ToolContext } from "../../core/types/tool.ts";
import { mediaCall, type MediaKind } from "../../journal/catalogue_engine.ts";
import type { Asset } from "../../platform/mod.ts";
import { uuid5 } from "../../platform/idempotency.ts";
import { pyRepr } from "../../pycompat/repr.ts";
import { describeAsset } from "../shared/asset_format.ts";
import { PlatformTool, targetTimeline } from "../shared/platform_tool.ts";
import type { PlatformContext } from "../shared/platform_context.ts";
import { relay, ToolRefusal } from "../shared/relay.ts";

/** Where a media tool sends its requests, as the wake's environment says. */
export interface MediaEndpoint {
  /** `AI_PROVIDER` (`openai` unless set). */
  readonly provider: string;
  /** `AI_API_KEY`; never logged. */
  readonly apiKey?: string;
  /** `AI_BASE_URL`; unset ⇒ the vendor's default endpoint. */
  readonly baseURL?: string;
}

/** The endpoint from environment variables (blank values read as unset). */
export function mediaEndpointFrom(read: (name: string) => string | undefined): MediaEndpoint {
  const value = (name: string) => {
    const raw = read(name)?.trim();
    return raw ? raw : undefined;
  };
  return {
    provider: (value("AI_PROVIDER") ?? "openai").toLowerCase(),
    apiKey: value("AI_API_KEY"),
    baseURL: value("AI_BASE_URL"),
  };
}

/** xAI's API root when `AI_BASE_URL` is unset. */
export const XAI_DEFAULT_BASE_URL = "https://api.x.ai/v1";

/** A vendor answered a media request with an error; its message is the vendor's own detail. */
export class MediaRejected extends Error {
  /** Always "MediaRejected". */
  override name = "MediaRejected";
  /** `OpenAI rejected the request — <detail>`. */
  constructor(vendor: "OpenAI" | "xAI", detail: string) {
    super(`${vendor} rejected the request — ${detail}`);
  }
}

/** The most readable detail an error body holds: `error.message`, `message`, `detail`, else raw. */
export function bodyDetail(body: unknown, raw: string): string {
  const pick = (value: unknown): string | undefined =>
    typeof value === "string" && value.trim() ? value.trim() : undefined;
  if (body !== null && typeof body === "object") {
    const record = body as Record<string, unknown>;
    const nested = record.error;
    if (nested !== null && typeof nested === "object") {
      const message = pick((nested as Record<string, unknown>).message);
      if (message) return message;
    }
    const direct = pick(nested) ?? pick(record.message) ?? pick(record.detail);
    if (direct) return direct;
  }
  return raw.trim().slice(0, 500) || "no detail given";
}

/**
 * The tool result for a failed media call: `<lead>: <why>`, one line, never a stack. A
 * {@link ToolRefusal} (bad input the tool caught) reads `Error: <text>` instead.
 */
export function mediaFailure(lead: string, error: unknown): string {
  if (error instanceof ToolRefusal) return `Error: ${error.message}`;
  return `${lead}: ${errorMessage(error).replace(/\s+/g, " ").trim()}`;
}

/**
 * The asset name stem: lowercase `[a-z0-9]` runs of the filename's stem (else the prompt) joined
 * by `-`, at most 48 characters, else `image`.
 */
export function mediaSlug(
  filename: string | undefined,
  prompt: string,
  fallback = "image",
): string {
  const stem = filename?.trim() ? filename.trim().replace(/\.[^./\\]*$/, "") : "";
  const runs = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g)?.join("-") ?? "";
  const slug = (runs(stem) || runs(prompt)).slice(0, 48).replace(/-+$/, "");
  return slug || fallback;
}

/** The file extension and content type the bytes' magic number says, if it is a known one. */
export function sniffImage(bytes: Uint8Array): { ext: string; type: string } | undefined {
  const at = (offset: number, ...values: number[]) =>
    values.every((value, index) => bytes[offset + index] === value);
  if (at(0, 0x89, 0x50, 0x4e, 0x47)) return { ext: "png", type: "image/png" };
  if (at(0, 0xff, 0xd8, 0xff)) return { ext: "jpg", type: "image/jpeg" };
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) {
    return { ext: "webp", type: "image/webp" };
  }
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return { ext: "gif", type: "image/gif" };
  return undefined;
}

/** Base64 (plain or a `data:` URI's payload) to bytes; a malformed string is a vendor fault. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const payload = text.startsWith("data:") ? text.slice(text.indexOf(",") + 1) : text;
  let binary: string;
  try {
    binary = atob(payload.replace(/\s+/g, ""));
  } catch {
    throw new Error("the provider returned image data that is not valid base64");
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Bytes to base64, in chunks so a large image does not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** What a generated file is uploaded as. */
export interface GeneratedFile {
  readonly bytes: Uint8Array;
  readonly filename: string;
  readonly contentType: string;
  readonly description?: string;
}

/**
 * The Idempotency-Key of a generated file's upload: a UUIDv5 of `name` (`media:<callId>` unless
 * the caller names the upload otherwise, as the code bridge does per file) in the
 * namespace of the context's `asset` key for the call. The context counts a key's ordinal over
 * the turn's `assets create` calls only (a media call is not a platform create a recovery may
 * re-issue), so its own key would be the same for two media calls of one turn, or for a media
 * call and a later `assets create`, and the platform would answer the second upload with the
 * first asset. Hashing in the call id keeps the key deterministic for the call's own retries
 * while making it distinct from every other create's.
 */
export async function mediaUploadKey(
  context: PlatformContext,
  callId: string,
  name: string = `media:${callId}`,
): Promise<string | undefined> {
  const base = await context.idempotencyKey("asset", callId);
  return base === undefined ? undefined : await uuid5(base, name);
}

/**
 * Uploads a generated file as a timeline asset: the keyed create (its key from
 * {@link mediaUploadKey}), counted as a visible act. Returns the asset, or the model-readable
 * text of a platform refusal or an unknown outcome. `keyName`, for an upload that is not a media
 * call's own (the code bridge's), names it within the turn: the same name in the same turn is the
 * same key, so a re-sent upload returns the first asset.
 */
export async function uploadGenerated(
  context: PlatformContext,
  timeline: string,
  file: GeneratedFile,
  call: ToolContext | undefined,
  keyName?: string,
): Promise<Asset | string> {
  const key = call
    ? await mediaUploadKey(context, call.callId, keyName)
    : keyName
    ? await mediaUploadKey(context, keyName, keyName)
    : undefined;
  return await relay(
    "upload the generated file",
    async () => {
      const cleared = await context.gate.clear({
        surface: "asset",
        timeline,
        fields: {
          file: file.bytes,
          filename: file.filename,
          contentType: file.contentType,
          description: file.description,
        },
      });
      const asset = await context.client.assets.create(timeline, cleared, {
        idempotencyKey: key,
        signal: call?.signal,
      });
      context.recordAct("asset");
      return asset;
    },
    { context, timeline, what: "asset" },
    { call },
  );
}

/** The short line a successful generation returns: the asset's uuid, never its bytes. */
export function postedLine(what: string, asset: Asset): string {
  const name = asset.content.file?.filename ?? asset.content.uuid;
  return `${what} and posted it as ${pyRepr(name)} (asset uuid=${asset.content.uuid}). ` +
    describeAsset(asset);
}

/** Writes the `media` journal line for a finished call. */
export function journalMedia(context: PlatformContext, f: {
  provider: string;
  kind: MediaKind;
  model: string;
  started: number;
  cost?: number | null;
}): void {
  mediaCall(context.journal, {
    provider: f.provider,
    kind: f.kind,
    model: f.model,
    seconds: (performance.now() - f.started) / 1000,
    cost: f.cost,
  });
}

/** What the caller says of an image it generated, for {@link postGeneratedImage}. */
export interface GeneratedImage {
  readonly bytes: Uint8Array;
  /** The file extension, without the dot. */
  readonly ext: string;
  readonly contentType: string;
  /** The call's own arguments: the filename stem (else the prompt), timeline, description. */
  readonly args: {
    readonly filename?: string;
    readonly prompt?: string;
    readonly timeline?: string;
    readonly description?: string;
  };
  /** The `media` line's fields. */
  readonly media: Parameters<typeof journalMedia>[1];
  /** How the answer opens: `Generated the image`, `Edited the image`. */
  readonly verb: string;
}

/**
 * A generated image's last steps, the same for every vendor: the `media` line, the keyed upload
 * to the timeline, and the short answer naming the asset (or the upload's refusal text).
 */
export async function postGeneratedImage(
  context: PlatformContext,
  call: ToolContext | undefined,
  image: GeneratedImage,
): Promise<string> {
  journalMedia(context, image.media);
  const asset = await uploadGenerated(context, targetTimeline(context, image.args.timeline), {
    bytes: image.bytes,
    filename: `${mediaSlug(image.args.filename, image.args.prompt ?? "")}.${image.ext}`,
    contentType: image.contentType,
    description: image.args.description,
  }, call);
  return typeof asset === "string" ? asset : postedLine(image.verb, asset);
}

/**
 * Downloads a source asset's bytes for an edit or a transcription, checking its kind first.
 * @throws {ToolRefusal} when the asset has no file or `accept` refuses it.
 */
export async function sourceBytes(
  context: PlatformContext,
  uuid: string,
  accept: (contentType: string, size: number, asset: Asset) => string | undefined,
  signal?: AbortSignal,
): Promise<{ asset: Asset; bytes: Uint8Array; contentType: string; filename: string }> {
  const asset = await context.client.assets.get(uuid, { signal });
  const file = asset.content.file;
  if (!file) throw new ToolRefusal(`asset ${uuid} has no file attached.`);
  const refusal = accept(file.content_type, file.byte_size, asset);
  if (refusal) throw new ToolRefusal(refusal);
  const { bytes } = await context.client.assets.download(asset, { signal });
  return { asset, bytes, contentType: file.content_type, filename: file.filename };
}

/**
 * A media tool over one vendor's endpoint: the endpoint it was built with, and the refusal a
 * wake on another provider, or without a key, gets instead of a paid call.
 */
export abstract class VendorMediaTool<Args> extends PlatformTool<Args> {
  /** The provider this tool's vendor calls need (`AI_PROVIDER`). */
  protected abstract readonly vendor: "openai" | "xai";
  readonly #endpoint: MediaEndpoint;

  /** Builds the tool over `endpoint`, optionally bound. */
  constructor(endpoint: MediaEndpoint, context?: PlatformContext) {
    super(context);
    this.#endpoint = endpoint;
  }

  /** The endpoint, or the refusal when this wake is not on {@link vendor} with a key. */
  protected endpoint(): MediaEndpoint {
    const endpoint = this.#endpoint;
    if (endpoint.provider !== this.vendor || !endpoint.apiKey) {
      throw new ToolRefusal(
        `the '${this.name}' tool needs the '${this.vendor}' provider with AI_API_KEY set ` +
          `(this wake runs AI_PROVIDER=${endpoint.provider}).`,
      );
    }
    return endpoint;
  }
}
