/**
 * A scripted HTTP server for wire-level tests: a real Deno.serve on 127.0.0.1 (port 0) that
 * records every request (method, path, query, headers, body bytes) and answers from a
 * handler the test supplies. Use with `await using stub = await startStub(...)`.
 */

/** One request as the server saw it. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Headers;
  readonly body: Uint8Array;
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON. */
  json(): unknown;
  /** The body parsed as multipart/form-data (or urlencoded). */
  formData(): Promise<FormData>;
}

/**
 * Answers one request. `closing` aborts when the stub shuts down: a handler that stalls on
 * purpose waits on it, so shutdown never hangs behind it.
 */
export type StubHandler = (
  rec: Recorded,
  req: Request,
  closing: AbortSignal,
) => Response | Promise<Response>;

/** A running stub. */
export interface Stub extends AsyncDisposable {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Every request so far, in arrival order. */
  readonly requests: Recorded[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** Starts a stub server answering with `handler`. */
export function startStub(handler: StubHandler): Promise<Stub> {
  const requests: Recorded[] = [];
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const body = new Uint8Array(await req.arrayBuffer());
      const headers = new Headers(req.headers);
      const rec: Recorded = {
        method: req.method,
        path: url.pathname,
        query: url.searchParams,
        headers,
        body,
        text: () => new TextDecoder().decode(body),
        json: () => JSON.parse(new TextDecoder().decode(body)),
        formData: () =>
          new Request(req.url, { method: "POST", headers, body: body.slice() }).formData(),
      };
      requests.push(rec);
      return await handler(rec, req, closing.signal);
    },
  );
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return Promise.resolve({
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  });
}

/** A routing handler: `"GET /path"` → handler; anything else answers a 404 problem. */
export function routes(table: Record<string, StubHandler>): StubHandler {
  return (rec, req, closing) => {
    const hit = table[`${rec.method} ${rec.path}`];
    return hit
      ? hit(rec, req, closing)
      : problem(404, "not_found", `No stub route for ${rec.method} ${rec.path}.`);
  };
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** An RFC 9457 problem response in the platform's shape. */
export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const title = code.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
  return new Response(
    JSON.stringify({
      type: `https://basecradle.com/docs/api#error-${code}`,
      title,
      status,
      code,
      detail,
      instance: "0198c2a4-0000-7367-9f40-8f9aabbccdd7",
      ...extra,
    }),
    { status, headers: { "content-type": "application/problem+json", ...headers } },
  );
}

/** A 204 with no body. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** Resolves after `ms`, or early when `signal` aborts, leaving no timer behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** A local port that was bound and released, so connecting to it is refused. */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * A raw TCP server that reads the request and then answers with `raw` bytes verbatim (or
 * nothing) before closing, for answers an HTTP server library would refuse to send.
 */
export function startRawServer(raw: string | null): { url: string; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      (async () => {
        try {
          await conn.read(new Uint8Array(64 * 1024));
          if (raw !== null) await conn.write(new TextEncoder().encode(raw));
        } catch {
          // The client may already be gone; nothing to report.
        } finally {
          conns.delete(conn);
          try {
            conn.close();
          } catch {
            // Already closed.
          }
        }
      })();
    }
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // Already closed.
        }
      }
    },
  };
}
