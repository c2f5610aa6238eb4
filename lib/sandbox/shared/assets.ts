/**
 * Asset uploads: the multipart parts the platform reads (`asset[file]`, `asset[description]`)
 * and what the server derives from the bytes (filename, size, content type, base64 MD5).
 */
import { createHash } from "node:crypto";
import { extname } from "node:path";
import { readBody, type RequestContext } from "./http.ts";
import { Problem, validationFailed } from "./problem.ts";

/** An upload as received. */
export interface Upload {
  readonly filename: string;
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly checksum: string;
  readonly description: string;
}

/**
 * Reads a `multipart/form-data` asset upload.
 * @throws {Problem} 413 when over the upload limit, 400 for an unparseable form, 422 when
 *   `asset[file]` is missing.
 */
export async function readUpload(ctx: RequestContext): Promise<Upload> {
  const type = ctx.req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    throw validationFailed({ file: ["can't be blank"] }, "Upload the file as multipart/form-data.");
  }
  const raw = await readBody(ctx.req, ctx.state.limits.multipartBytes);
  let form: FormData;
  try {
    // Re-wrapping the bounded bytes lets the built-in parser do the multipart work.
    form = await new Response(raw, { headers: { "content-type": type } }).formData();
  } catch {
    throw new Problem(400, "bad_request", "The multipart body could not be parsed.");
  }
  const file = form.get("asset[file]");
  if (!(file instanceof File)) throw validationFailed({ file: ["can't be blank"] });
  const description = form.get("asset[description]");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const filename = safeFilename(file.name);
  return {
    filename,
    bytes,
    contentType: identify(bytes, filename, file.type),
    checksum: md5Base64(bytes),
    description: typeof description === "string" ? description : "",
  };
}

/** Base64 of the MD5 digest, the checksum format of the platform's blob store. */
function md5Base64(bytes: Uint8Array): string {
  return createHash("md5").update(bytes).digest("base64");
}

function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop()?.trim() ?? "";
  return base === "" ? "upload.bin" : base;
}

const MAGIC: ReadonlyArray<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], "image/png"],
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x25, 0x50, 0x44, 0x46], "application/pdf"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
];

const BY_EXTENSION: Record<string, string> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".json": "application/json",
  ".html": "text/html",
  ".xml": "application/xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".js": "text/javascript",
  ".ts": "text/plain",
  ".py": "text/x-python",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".mp3": "audio/mpeg",
  ".mp4": "video/mp4",
};

/**
 * The content type, decided server-side as the platform does: the bytes' signature first, then
 * the filename's extension, then what the client declared, then text-or-binary.
 */
function identify(bytes: Uint8Array, filename: string, declared: string): string {
  for (const [signature, type] of MAGIC) {
    if (signature.every((b, i) => bytes[i] === b)) return type;
  }
  if (
    bytes.length >= 12 && String.fromCharCode(...bytes.subarray(0, 4)) === "RIFF" &&
    String.fromCharCode(...bytes.subarray(8, 12)) === "WEBP"
  ) return "image/webp";
  const byName = BY_EXTENSION[extname(filename).toLowerCase()];
  if (byName) return byName;
  const clean = declared.split(";")[0].trim().toLowerCase();
  if (clean !== "" && clean !== "application/octet-stream") return clean;
  return looksLikeText(bytes) ? "text/plain" : "application/octet-stream";
}

function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, 4096), { stream: true });
    return true;
  } catch {
    return false;
  }
}
