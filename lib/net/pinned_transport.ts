/**
 * A GET dialled at an address the fence already validated, with the URL's host name kept for
 * TLS (SNI and certificate verification) and the Host header. This closes the DNS-rebinding
 * window: the name is resolved once, by the fence, and never again by the socket layer. An
 * `https:` URL is spoken to over TLS; an `http:` one (a URL a vendor handed us may be plain
 * http; `web_fetch` never asks for one) over the bare TCP connection.
 *
 * Why not `fetch`: Deno 2.9.6's fetch resolves the name itself, and
 * `Deno.createHttpClient({ proxy: { transport: "tcp", … } })`, the one way to aim it at a fixed
 * socket, speaks plain-text HTTP to that socket even for an https URL (measured), which would
 * leak the request in clear. `node:https` with a `lookup` override does pin, but there a
 * permission denial escapes as an uncaught exception and its `signal` option does not abort
 * (both measured). `Deno.connect` + `Deno.startTls` gives exact control and ordinary errors.
 */
import { errorMessage } from "../base/error_text.ts";
import { ByteReader } from "./byte_reader.ts";
import { bodyFrames, readResponseHead, requestHead, type ResponseHead } from "./http1.ts";
import type { Target } from "./target.ts";

/** One GET to a validated target. */
export interface HttpRequest {
  /** The validated URL and the addresses it may be dialled at. */
  readonly target: Target;
  /** Header fields besides Host (which comes from the URL). */
  readonly headers: Readonly<Record<string, string>>;
  /** Aborting closes the connection; every pending step rejects. */
  readonly signal: AbortSignal;
}

/** A response whose body has not been read yet. */
export interface HttpResponse extends ResponseHead {
  /** The body with transfer framing removed; content coding (gzip, …) is still applied. */
  readonly body: ReadableStream<Uint8Array>;
  /** Drops the connection; safe to call more than once. */
  close(): void;
}

/** Performs one GET; tests may substitute their own. */
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

/** Thrown when no validated address could be reached; the message is for the model. */
export class ConnectError extends Error {
  /** Names the class in stack traces and logs. */
  override name = "ConnectError";
}

/** Options for {@link pinnedTransport}. */
export interface PinnedTransportOptions {
  /** Extra PEM root certificates (e.g. a test CA); the system roots stay trusted. */
  readonly caCerts?: readonly string[];
}

/** The default transport: dials each validated address in turn until one connects. */
export function pinnedTransport(options: PinnedTransportOptions = {}): Transport {
  return async ({ target, headers, signal }) => {
    const { url } = target;
    const tls = url.protocol === "https:";
    const port = url.port === "" ? (tls ? 443 : 80) : Number(url.port);
    const serverName = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
    const conn = await dial(target, port, tls ? serverName : null, options, signal);

    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      signal.removeEventListener("abort", close);
      try {
        conn.close();
      } catch {
        // already closed by the peer or by an abort: nothing left to release
      }
    };
    signal.addEventListener("abort", close, { once: true });
    if (signal.aborted) close();

    try {
      await writeAll(conn, new TextEncoder().encode(requestHead(url, headers)));
      const reader = new ByteReader(tolerantRead(conn));
      const head = await readResponseHead(reader);
      const frames = bodyFrames(reader, head);
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await frames.next();
            if (next.done) {
              controller.close();
              close();
            } else {
              controller.enqueue(next.value);
            }
          } catch (error) {
            close();
            controller.error(error);
          }
        },
        cancel() {
          close();
        },
      });
      return { ...head, body, close };
    } catch (error) {
      close();
      throw error;
    }
  };
}

/** Connects to the first address that answers; `serverName` null: plain TCP (an http URL). */
async function dial(
  target: Target,
  port: number,
  serverName: string | null,
  options: PinnedTransportOptions,
  signal: AbortSignal,
): Promise<Deno.Conn> {
  let lastError: unknown = null;
  for (const address of target.addresses) {
    signal.throwIfAborted();
    let tcp: Deno.TcpConn | null = null;
    const abort = () => tcp?.close();
    try {
      tcp = await Deno.connect({ hostname: address.text, port, signal });
      signal.addEventListener("abort", abort, { once: true });
      if (serverName === null) {
        signal.removeEventListener("abort", abort);
        return tcp;
      }
      // The TCP socket goes to the validated IP; TLS still verifies the certificate against
      // the URL's own name, so pinning never weakens authentication.
      const tls = await Deno.startTls(tcp, {
        hostname: serverName,
        caCerts: options.caCerts ? [...options.caCerts] : undefined,
      });
      await tls.handshake();
      signal.removeEventListener("abort", abort);
      return tls;
    } catch (error) {
      signal.removeEventListener("abort", abort);
      try {
        tcp?.close();
      } catch {
        // the handshake failure may already have closed it
      }
      signal.throwIfAborted();
      lastError = error;
    }
  }
  const why = errorMessage(lastError);
  const tried = target.addresses.map((a) => a.text).join(", ");
  throw new ConnectError(`could not connect to ${target.url.host} (${tried}): ${why}`);
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/**
 * Reads from the TLS connection, treating a peer that closes TCP without a TLS close_notify
 * as end of stream: many servers do, and for a `Connection: close` response that is how the
 * body ends. Truncation attacks do not matter here; we only ever read, never act on length.
 */
function tolerantRead(conn: Deno.Conn): (buffer: Uint8Array) => Promise<number | null> {
  return async (buffer) => {
    try {
      return await conn.read(buffer);
    } catch (error) {
      if (error instanceof Deno.errors.UnexpectedEof) return null;
      if (error instanceof Error && /close_notify/i.test(error.message)) return null;
      throw error;
    }
  };
}
