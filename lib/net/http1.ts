/**
 * The HTTP/1.1 wire for one GET over a connection we opened ourselves (see
 * `pinned_transport.ts` for why we do not use `fetch`). Only what a read-only fetch needs:
 * write a request head, parse a response head, undo chunked framing, undo content coding.
 * One request per connection (`Connection: close`), so there is no pipelining to get wrong.
 */
import { ByteReader } from "./byte_reader.ts";

/** Thrown when the server's response cannot be parsed; the message is for the model. */
export class ProtocolError extends Error {
  /** Names the class in stack traces and logs. */
  override name = "ProtocolError";
}

/** A parsed status line and header block. */
export interface ResponseHead {
  /** The final status code (interim 1xx responses are skipped). */
  readonly status: number;
  /** The response header fields. */
  readonly headers: Headers;
}

const MAX_HEAD_BYTES = 64 * 1024;
const MAX_INTERIM_RESPONSES = 8;

/** The request head for a GET of `url`, Host first, then the given headers. */
export function requestHead(url: URL, headers: Readonly<Record<string, string>>): string {
  // URL serialisation percent-encodes CR, LF and spaces, so the target cannot split the head.
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(name + value)) throw new TypeError(`header ${name} contains a line break`);
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** Reads the final response head, skipping interim 1xx responses (100 Continue, 103 hints). */
export async function readResponseHead(reader: ByteReader): Promise<ResponseHead> {
  for (let i = 0; i <= MAX_INTERIM_RESPONSES; i++) {
    const head = await readOneHead(reader);
    if (head.status >= 200 || head.status === 101) return head;
  }
  throw new ProtocolError("the server sent too many interim (1xx) responses.");
}

async function readOneHead(reader: ByteReader): Promise<ResponseHead> {
  let budget = MAX_HEAD_BYTES;
  const statusLine = await reader.readLine(budget);
  if (statusLine === null) {
    throw new ProtocolError("the server closed the connection without a response.");
  }
  const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  if (!match) throw new ProtocolError("the server did not answer with HTTP/1.x.");
  budget -= statusLine.length;
  const headers = new Headers();
  let last: [string, string] | null = null;
  while (true) {
    const line = await reader.readLine(budget);
    if (line === null) throw new ProtocolError("the server closed the connection mid-header.");
    if (line === "") break;
    budget -= line.length + 2;
    if (budget < 0) throw new ProtocolError("the server sent an oversized response head.");
    if ((line.startsWith(" ") || line.startsWith("\t")) && last) {
      // Obsolete line folding: a continuation of the previous header's value.
      last[1] += ` ${line.trim()}`;
      headers.set(last[0], last[1]);
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue; // a malformed line carries nothing we could trust
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    try {
      headers.append(name, value);
      last = [name, headers.get(name) ?? value];
    } catch {
      last = null; // an invalid name or value is dropped, as a browser would
    }
  }
  return { status: Number(match[1]), headers };
}

/**
 * The body bytes with transfer framing removed (RFC 9112 §6.3): none for 1xx/204/304, chunked
 * when the last transfer coding is chunked, a Content-Length run, else everything until the
 * server closes. A body cut short by the server ends quietly; what arrived is still readable.
 */
export async function* bodyFrames(
  reader: ByteReader,
  head: ResponseHead,
): AsyncGenerator<Uint8Array> {
  if (head.status < 200 || head.status === 204 || head.status === 304) return;
  const transfer = head.headers.get("transfer-encoding");
  if (transfer !== null) {
    const codings = transfer.toLowerCase().split(",").map((c) => c.trim()).filter(Boolean);
    if (codings.length !== 1 || codings[0] !== "chunked") {
      throw new ProtocolError(`the server used an unsupported transfer-encoding '${transfer}'.`);
    }
    yield* chunked(reader);
    return;
  }
  const length = head.headers.get("content-length");
  if (length !== null) {
    const values = new Set(length.split(",").map((v) => v.trim()));
    const only = [...values][0];
    if (values.size !== 1 || !/^\d{1,15}$/.test(only)) {
      throw new ProtocolError("the server sent an invalid Content-Length.");
    }
    yield* fixed(reader, Number(only));
    return;
  }
  while (true) {
    const chunk = await reader.readSome(Number.MAX_SAFE_INTEGER);
    if (chunk === null) return;
    yield chunk;
  }
}

async function* fixed(reader: ByteReader, length: number): AsyncGenerator<Uint8Array> {
  let remaining = length;
  while (remaining > 0) {
    const chunk = await reader.readSome(remaining);
    if (chunk === null) return;
    remaining -= chunk.length;
    yield chunk;
  }
}

async function* chunked(reader: ByteReader): AsyncGenerator<Uint8Array> {
  while (true) {
    const line = await reader.readLine(4096);
    if (line === null) return;
    const match = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(line);
    if (!match) throw new ProtocolError("the server sent a malformed chunked body.");
    const size = parseInt(match[1], 16);
    if (size === 0) {
      // Trailer fields are read and dropped: nothing in them changes what the model reads.
      while (true) {
        const trailer = await reader.readLine(4096);
        if (trailer === null || trailer === "") return;
      }
    }
    yield* fixed(reader, size);
    const end = await reader.readLine(4096);
    if (end === null) return;
    if (end !== "") throw new ProtocolError("the server sent a malformed chunked body.");
  }
}

const DECODERS: Readonly<Record<string, CompressionFormat>> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "brotli",
};

/**
 * Undoes the response's Content-Encoding. We ask for `identity`, but servers and CDNs send
 * gzip or brotli anyway; decoding stays inside the byte cap because the caller stops reading
 * decoded bytes at the cap (a compression bomb cannot inflate past it).
 */
export function decodeContent(
  body: ReadableStream<Uint8Array>,
  headers: Headers,
): ReadableStream<Uint8Array> {
  const coding = headers.get("content-encoding");
  if (coding === null) return body;
  const codings = coding.toLowerCase().split(",").map((c) => c.trim()).filter(Boolean);
  let stream = body;
  for (const name of codings.reverse()) {
    if (name === "identity") continue;
    const format = DECODERS[name];
    if (!format) {
      throw new ProtocolError(
        `the server sent content encoded as '${name}', which cannot be decoded.`,
      );
    }
    // The DOM typing says the writable side takes any BufferSource; ours are Uint8Arrays.
    const decoder = new DecompressionStream(format) as unknown as TransformStream<
      Uint8Array,
      Uint8Array
    >;
    stream = stream.pipeThrough(decoder);
  }
  return stream;
}
