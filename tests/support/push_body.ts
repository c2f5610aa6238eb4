/**
 * Pushes a large request body at a local server over a raw TCP connection, the way a hostile
 * client would, and stops as soon as the server answers: so a test can tell a server that
 * refuses early (it answers after a few megabytes, whatever the socket buffers held) from one
 * that reads the whole body first (the client gets to send all of it). Nothing here is timed:
 * the writer and the reader race, and whichever finishes decides.
 */

/** How a body is framed on the wire. */
export type Framing =
  /** `Content-Length: <declared>`, then bytes up to `total`. */
  | { readonly kind: "length"; readonly declared: number }
  /** `Transfer-Encoding: chunked`, 64 KiB chunks. */
  | { readonly kind: "chunked" };

/** What happened to one pushed body. */
export interface Pushed {
  /** The status the server answered with (0 if it closed without an answer). */
  readonly status: number;
  /** The response head and its body (when the server said its length), as text. */
  readonly head: string;
  /** Body bytes the client got onto the wire before the answer (or the connection) ended it. */
  readonly sent: number;
}

const CHUNK = 64 * 1024;

/**
 * Sends `method path` to `url`'s host and port with `headers` and up to `total` body bytes of
 * "a" (framed as `framing`), reading the answer in parallel; resolves once the server has
 * answered (the whole head, and the body when its length is given) or closed the connection.
 */
export async function pushBody(
  url: string,
  request: {
    readonly method?: string;
    readonly path: string;
    readonly headers?: Record<string, string>;
    readonly framing: Framing;
    readonly total: number;
  },
): Promise<Pushed> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname: hostname.replace(/^\[|\]$/g, ""), port: +port });
  const lines = [
    `${request.method ?? "POST"} ${request.path} HTTP/1.1`,
    `Host: ${new URL(url).host}`,
  ];
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    lines.push(`${name}: ${value}`);
  }
  lines.push(
    request.framing.kind === "length"
      ? `Content-Length: ${request.framing.declared}`
      : "Transfer-Encoding: chunked",
  );
  let answered = false;
  let head = "";
  const reading = (async () => {
    const buffer = new Uint8Array(16 * 1024);
    const decoder = new TextDecoder();
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      head += decoder.decode(buffer.subarray(0, n), { stream: true });
      if (answerComplete(head)) break;
    }
    answered = true;
    // A write blocked on a server that stopped reading fails now instead of waiting forever.
    close(conn);
  })();
  let sent = 0;
  const encoder = new TextEncoder();
  const payload = new Uint8Array(CHUNK).fill(0x61); // "a"
  const frame = request.framing.kind === "chunked"
    ? concat(encoder.encode(`${CHUNK.toString(16)}\r\n`), payload, encoder.encode("\r\n"))
    : payload;
  try {
    await writeAll(conn, encoder.encode(lines.join("\r\n") + "\r\n\r\n"));
    while (!answered && sent < request.total) {
      await writeAll(conn, frame);
      sent += CHUNK;
    }
    if (!answered && request.framing.kind === "chunked") {
      await writeAll(conn, encoder.encode("0\r\n\r\n"));
    }
  } catch {
    // The server closed its side after answering: the write that was under way fails.
  }
  await reading;
  const status = Number(head.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0);
  return { status, head, sent };
}

/** Whether `text` holds a whole response head and as much body as its Content-Length says. */
function answerComplete(text: string): boolean {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const length = Number(text.slice(0, end).match(/^content-length:\s*(\d+)/im)?.[1] ?? 0);
  return new TextEncoder().encode(text.slice(end + 4)).byteLength >= length;
}

/** `write` may take only part of a buffer; the framing needs every byte, in order. */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.byteLength;) at += await conn.write(bytes.subarray(at));
}

function close(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * The peak resident memory of a process (`VmHWM` in /proc/<pid>/status), in bytes: how much it
 * ever held at once, whatever it has freed since.
 */
export async function peakResidentBytes(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = status.match(/^VmHWM:\s+(\d+) kB$/m)?.[1];
  if (kb === undefined) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb) * 1024;
}
