/**
 * A response body read up to a byte cap, for the blob downloads whose size the caller bounds
 * (docs/platform-client.md#downloads): a stated `Content-Length` over the cap refuses before a
 * byte is read, and a body that runs past it is cut off there, so a blob that is not what its
 * listing said costs at most the cap in memory and time.
 */
import { PlatformError } from "./errors.ts";

/** A blob larger than the caller's cap: it was not read whole, and nothing of it is returned. */
export class BlobTooLargeError extends PlatformError {
  /** Always "BlobTooLargeError". */
  override name = "BlobTooLargeError";
  /** The cap, in bytes. */
  readonly maxBytes: number;

  /** `endpoint` names the call; the message says the cap and that the read was stopped. */
  constructor(maxBytes: number, endpoint: string, stated?: number) {
    super(
      stated === undefined
        ? `The download ran past its ${maxBytes}-byte limit and was stopped there.`
        : `The download states ${stated} bytes, over its ${maxBytes}-byte limit; it was not read.`,
      { endpoint },
    );
    this.maxBytes = maxBytes;
  }
}

/**
 * `response`'s body, at most `maxBytes` of it.
 * @throws {BlobTooLargeError} when the stated length or the body itself is over `maxBytes`.
 */
export async function readBodyWithin(
  response: Response,
  maxBytes: number,
  endpoint: string,
): Promise<Uint8Array> {
  const stated = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(stated) && stated > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new BlobTooLargeError(maxBytes, endpoint, stated);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) throw new BlobTooLargeError(maxBytes, endpoint);
      chunks.push(value);
    }
  } finally {
    // Cancelling closes the connection: the rest of an oversized body is never read.
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
