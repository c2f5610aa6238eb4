/**
 * The wake's code container (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox): the one container OpenAI's
 * `code_interpreter` runs in for the rest of the wake once a reply named it (or `code_attach`
 * created it), what has been bridged already, and the openai SDK's containers API — loaded on
 * first use, so a wake whose model never runs code never loads it. The container is kept for one
 * wake only: the next wake starts with `{type: "auto"}` again.
 */
import type OpenAI from "openai";
import { outboundFetch } from "../../net/outbound.ts";
import { withoutNodeGlobals } from "../../providers/without_node_globals.ts";
import { readCapped } from "../../net/read_capped.ts";

/** The largest file the bridge moves in either direction (64 MiB). */
export const CODE_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** Per-call timeout of a containers API call, in milliseconds. */
export const CONTAINER_TIMEOUT_MS = 60_000;

/** Where the containers API is reached: the same key and endpoint as the model. */
export interface CodeEndpoint {
  /** `AI_API_KEY`; never logged. */
  readonly apiKey: string;
  /** `AI_BASE_URL`; unset ⇒ OpenAI's own. */
  readonly baseURL?: string;
}

/** A container file larger than {@link CODE_FILE_MAX_BYTES}: the download stopped at the cap. */
export class ContainerFileTooLargeError extends Error {
  override name = "ContainerFileTooLargeError";
}

/** A file the executor wrote into the container. */
export interface ContainerFile {
  /** The container's file id. */
  readonly id: string;
  /** The file's base name (the last segment of its container path). */
  readonly filename: string;
  /** The size the listing states; -1 when unknown (a cited file the listing did not give). */
  readonly bytes: number;
}

/** The file names a listing or a citation gives, reduced to a safe base name. */
export function baseName(path: string, fallback: string): string {
  const name = path.split("/").filter((part) => part !== "").at(-1)?.trim() ?? "";
  return name === "" || name === "." || name === ".." ? fallback : name;
}

/** One wake's code container and bridge bookkeeping. */
export class CodeContainer {
  /** The container the next request names; undefined until a reply or `code_attach` set one. */
  container?: string;
  /** Container file ids already stored as assets this wake. */
  readonly bridgedFiles: Set<string> = new Set();
  /** sha256 (hex) of every executed source stored this wake. */
  readonly bridgedSources: Set<string> = new Set();
  /** How many sources were stored: `code-execution-<n>.py` takes the next number. */
  sources = 0;
  readonly #endpoint: CodeEndpoint;
  #client?: Promise<OpenAI>;

  /** Nothing is loaded until the first containers call. */
  constructor(endpoint: CodeEndpoint) {
    this.#endpoint = endpoint;
  }

  /** Takes the container a reply ran in, unless this wake already has one. */
  adopt(container: string | undefined): void {
    if (container && !this.container) this.container = container;
  }

  /** The wake's container, created now when there is none yet. */
  async ensureContainer(): Promise<string> {
    if (this.container) return this.container;
    return await this.#create();
  }

  /** Replaces a container that is gone (OpenAI expires idle ones) with a new one. */
  async replaceContainer(): Promise<string> {
    this.container = undefined;
    return await this.#create();
  }

  /** Every file the executor wrote (`source` is `assistant`) in `container`. */
  async outputs(container: string): Promise<ContainerFile[]> {
    const client = await this.#sdk();
    const files: ContainerFile[] = [];
    for await (const file of client.containers.files.list(container)) {
      if (file.source !== "assistant") continue;
      files.push({ id: file.id, filename: baseName(file.path, file.id), bytes: file.bytes });
    }
    return files;
  }

  /**
   * A container file's bytes, streamed up to {@link CODE_FILE_MAX_BYTES} whatever the listing
   * said of its size: a stated length over the cap is refused unread, and a body that runs past
   * it is cut off there.
   * @throws {ContainerFileTooLargeError} when the file is larger than the cap.
   */
  async download(container: string, fileId: string): Promise<Uint8Array> {
    const client = await this.#sdk();
    const reply = await client.containers.files.content.retrieve(fileId, {
      container_id: container,
    });
    const stated = Number(reply.headers.get("content-length") ?? Number.NaN);
    if (Number.isFinite(stated) && stated > CODE_FILE_MAX_BYTES) {
      await reply.body?.cancel().catch(() => {});
      throw new ContainerFileTooLargeError(
        `it states ${stated} bytes, over the ${CODE_FILE_MAX_BYTES}-byte limit; it was not read`,
      );
    }
    if (!reply.body) return new Uint8Array(0);
    const { bytes, truncated } = await readCapped(reply.body, CODE_FILE_MAX_BYTES);
    if (truncated) {
      throw new ContainerFileTooLargeError(
        `it is over the ${CODE_FILE_MAX_BYTES}-byte limit; the download was stopped there`,
      );
    }
    return bytes;
  }

  /** Uploads `bytes` into `container` as `filename`; the path the executor reads it from. */
  async upload(container: string, bytes: Uint8Array, filename: string): Promise<string> {
    const client = await this.#sdk();
    const { toFile } = await import("openai");
    const created = await client.containers.files.create(container, {
      file: await toFile(bytes, filename),
    });
    return created.path || `/mnt/data/${filename}`;
  }

  /** Whether `error` is the SDK's 404 (a container or file that does not exist). */
  async isNotFound(error: unknown): Promise<boolean> {
    const sdk = await import("openai");
    return error instanceof sdk.NotFoundError;
  }

  async #create(): Promise<string> {
    const client = await this.#sdk();
    const created = await client.containers.create({ name: "basecradle-harness" });
    this.container = created.id;
    return created.id;
  }

  #sdk(): Promise<OpenAI> {
    this.#client ??= (async () => {
      const sdk = await withoutNodeGlobals(() => import("openai"));
      return withoutNodeGlobals(() =>
        new sdk.default({
          apiKey: this.#endpoint.apiKey,
          baseURL: this.#endpoint.baseURL,
          maxRetries: 0,
          timeout: CONTAINER_TIMEOUT_MS,
          fetch: outboundFetch("code"),
        })
      );
    })();
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }
}
