/**
 * The demo model's code sandbox, so code execution and its asset bridge run offline against the
 * sandbox (docs/tools.md#code_execution-run-code-in-the-vendors-sandbox): the containers API routes the openai SDK calls —
 * create, list files, a file's content, upload a file — over an in-memory store that lives as
 * long as the sandbox. Nothing is ever executed: a demo "run" writes one file, `output.txt`,
 * that says so and quotes the source.
 */
import { digest, jsonResponse, ModelRequestError, readModelBody } from "./wire_common.ts";
import { requireBearer } from "./media_wire.ts";

/** One file in a demo container. */
interface DemoFile {
  readonly id: string;
  readonly path: string;
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly source: "user" | "assistant";
  readonly createdAt: number;
}

/** The containers of one sandbox, by id. */
export class DemoContainers {
  readonly #containers = new Map<string, DemoFile[]>();
  #created = 0;

  /** A new, empty container's id. */
  create(): string {
    const id = `cntr_demo_${++this.#created}_${
      digest(`${Date.now()}:${this.#created}`).slice(0, 12)
    }`;
    this.#containers.set(id, []);
    return id;
  }

  /** Records a code run in `container` (created when unknown): its `output.txt`. */
  run(container: string | undefined, code: string): string {
    const id = container && this.#containers.has(container) ? container : this.create();
    const files = this.#containers.get(id)!;
    const text = "(sandbox demo model) This sandbox does not execute code. The source it was " +
      `asked to run:\n\n${code}\n`;
    files.push(this.#file(id, "/mnt/data/output.txt", new TextEncoder().encode(text), "assistant"));
    return id;
  }

  /** `POST …/containers`. */
  async handleCreate(req: Request): Promise<Response> {
    requireBearer(req);
    await readModelBody(req);
    const id = this.create();
    return jsonResponse(200, { id, object: "container", name: "demo", status: "running" });
  }

  /** `GET …/containers/<id>/files`. */
  list(req: Request, container: string): Response {
    requireBearer(req);
    return jsonResponse(200, {
      object: "list",
      data: this.#files(container).map((file) => this.#card(container, file)),
      first_id: null,
      last_id: null,
      has_more: false,
    });
  }

  /** `GET …/containers/<id>/files/<file>/content`. */
  content(req: Request, container: string, fileId: string): Response {
    requireBearer(req);
    const file = this.#files(container).find((f) => f.id === fileId);
    if (!file) throw new ModelRequestError(404, `No file ${fileId} in container ${container}.`);
    return new Response(file.bytes, { headers: { "content-type": "application/octet-stream" } });
  }

  /** `POST …/containers/<id>/files` (multipart `file`). */
  async upload(req: Request, container: string): Promise<Response> {
    requireBearer(req);
    const files = this.#files(container);
    const type = req.headers.get("content-type") ?? "";
    const body = await readModelBody(req);
    if (!type.startsWith("multipart/form-data")) {
      throw new ModelRequestError(400, "Upload a file as multipart/form-data.", "file");
    }
    const form = await new Response(body, { headers: { "content-type": type } }).formData();
    const upload = form.get("file");
    if (upload === null || typeof upload === "string") {
      throw new ModelRequestError(400, "you must provide a file", "file");
    }
    const name = upload.name.split("/").at(-1) || "upload.bin";
    const file = this.#file(
      container,
      `/mnt/data/${name}`,
      new Uint8Array(await upload.arrayBuffer()),
      "user",
    );
    files.push(file);
    return jsonResponse(200, this.#card(container, file));
  }

  #files(container: string): DemoFile[] {
    const files = this.#containers.get(container);
    if (!files) throw new ModelRequestError(404, `No container found with id '${container}'.`);
    return files;
  }

  #file(
    container: string,
    path: string,
    bytes: Uint8Array<ArrayBuffer>,
    source: DemoFile["source"],
  ) {
    const count = this.#containers.get(container)?.length ?? 0;
    const id = `cfile_${digest(`${container}:${count}:${path}`).slice(0, 24)}`;
    return { id, path, bytes, source, createdAt: Math.floor(Date.now() / 1000) };
  }

  #card(container: string, file: DemoFile): Record<string, unknown> {
    return {
      id: file.id,
      object: "container.file",
      container_id: container,
      created_at: file.createdAt,
      bytes: file.bytes.length,
      path: file.path,
      source: file.source,
    };
  }
}
