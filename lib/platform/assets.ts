/** Assets: multipart upload (replay-protected), list, read, and blob download. */
import * as z from "../base/zod.ts";
import { type CallOptions, type CreateOptions, type Transport } from "./http.ts";
import { PlatformError } from "./errors.ts";
import { contentUuid, fetchPage, type ListSpec, paginate } from "./lists.ts";
import type { ListOptions, Page, Paginator } from "./pagination.ts";
import { type Asset, AssetSchema } from "./schemas.ts";
import { clearedFields, type ClearedText } from "./cleared.ts";

const Envelope = z.object({ asset: AssetSchema });
const BLOB_ENDPOINT = "GET {file.url}";

/** Filters for listing assets. */
export interface AssetListOptions extends ListOptions {
  /** Only this timeline's assets. */
  readonly timeline?: string;
}

/** The most bytes {@link AssetsApi.download} reads of a blob unless told otherwise (256 MiB). */
export const DOWNLOAD_MAX_BYTES = 256 * 1024 * 1024;

/** A downloaded blob. */
export interface DownloadedBlob {
  /** The blob's bytes. */
  readonly bytes: Uint8Array;
  /** The Content-Type the blob server sent, if any. */
  readonly contentType: string | null;
}

function spec(options: AssetListOptions): ListSpec<typeof AssetSchema> {
  return {
    path: "/assets",
    key: "assets",
    item: AssetSchema,
    idOf: contentUuid,
    query: { timeline: options.timeline },
  };
}

/** `/assets` and `POST /timelines/{uuid}/assets`. */
export class AssetsApi {
  readonly #t: Transport;

  /** Wired by PlatformClient; use `client.<namespace>` rather than constructing this. */
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /**
   * Uploads a file the outbound gate cleared as `asset[file]` (+ `asset[description]`). Keyed
   * replays return the original.
   */
  async create(
    timeline: string,
    asset: ClearedText<"asset">,
    options: CreateOptions = {},
  ): Promise<Asset> {
    const input = clearedFields(asset, "asset");
    const form = new FormData();
    const blob = new Blob([input.file.slice()], {
      type: input.contentType ?? "application/octet-stream",
    });
    form.append("asset[file]", blob, input.filename);
    if (input.description !== undefined) form.append("asset[description]", input.description);
    const body = await this.#t.json({
      method: "POST",
      path: "/timelines/{uuid}/assets",
      params: { uuid: timeline },
      form,
      ...options,
    }, Envelope);
    return body.asset;
  }

  /** Walks assets newest first (every timeline you view, or one with `timeline`). */
  list(options: AssetListOptions = {}): Paginator<Asset> {
    return paginate(this.#t, spec(options), options);
  }

  /** One page of assets. */
  page(options: AssetListOptions = {}): Promise<Page<Asset>> {
    return fetchPage(this.#t, spec(options), options.before, options);
  }

  /** One asset by its `content.uuid`. */
  async get(uuid: string, options: CallOptions = {}): Promise<Asset> {
    const body = await this.#t.json(
      { method: "GET", path: "/assets/{uuid}", params: { uuid }, ...options },
      Envelope,
    );
    return body.asset;
  }

  /**
   * Downloads an asset's bytes from its signed `file.url` (or a URL given directly): a plain
   * GET without the bearer token, following redirects, since the URL itself is the credential.
   * The body is streamed up to `maxBytes` ({@link DOWNLOAD_MAX_BYTES} by default), whatever the
   * asset's `byte_size` says.
   * @throws {BlobTooLargeError} when the blob is larger than that; it is never read whole.
   */
  async download(
    source: Asset | string,
    options: CallOptions & { readonly maxBytes?: number } = {},
  ): Promise<DownloadedBlob> {
    let href: string;
    if (typeof source === "string") href = source;
    else if (source.content.file) href = source.content.file.url;
    else {
      throw new PlatformError(
        `Asset ${source.content.uuid} has no attached file to download.`,
        { endpoint: BLOB_ENDPOINT },
      );
    }
    const url = new URL(href, this.#t.baseUrl);
    const reply = await this.#t.send({
      method: "GET",
      path: "{file.url}",
      url,
      auth: false,
      accept: false,
      ...options,
      maxBytes: options.maxBytes ?? DOWNLOAD_MAX_BYTES,
    });
    return { bytes: reply.bytes, contentType: reply.headers.get("content-type") };
  }
}
