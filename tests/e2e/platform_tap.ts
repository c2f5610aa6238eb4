/**
 * A pass-through proxy in front of the sandbox platform that records when each request arrived
 * and can act at a precise point: after the platform has answered a request and before that answer
 * reaches the wake. That is how a test makes an item appear "just after the wake's first listing"
 * deterministically, rather than by racing a timer.
 */

/** One request as the tap saw it. */
export interface TappedRequest {
  readonly method: string;
  /** Path without the query, e.g. `/messages`. */
  readonly path: string;
  /** The query string without its `?`. */
  readonly query: string;
  /** When it reached the tap, epoch ms. */
  readonly at: number;
}

/** The proxy; point `BASECRADLE_BASE_URL` at {@link PlatformTap.baseUrl}. */
export interface PlatformTap extends AsyncDisposable {
  readonly baseUrl: string;
  /** Every request, in arrival order. */
  readonly requests: TappedRequest[];
  /**
   * Runs `hook` once: for the next request `match` accepts, after the platform answered it and
   * before the answer is passed on (so nothing the hook creates is in that answer).
   */
  afterNext(match: (request: TappedRequest) => boolean, hook: () => Promise<void>): void;
  close(): Promise<void>;
}

/** Starts a tap forwarding to `upstream` (the sandbox's base URL). */
export function platformTap(upstream: string): PlatformTap {
  const requests: TappedRequest[] = [];
  let pending: { match: (r: TappedRequest) => boolean; hook: () => Promise<void> } | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const seen = {
      method: req.method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ""),
      at: Date.now(),
    };
    requests.push(seen);
    const headers = new Headers(req.headers);
    headers.delete("host");
    headers.delete("content-length");
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.bytes();
    const answer = await fetch(`${upstream}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body,
    });
    const bytes = await answer.arrayBuffer();
    if (pending?.match(seen)) {
      const { hook } = pending;
      pending = undefined;
      await hook();
    }
    const out = new Headers(answer.headers);
    out.delete("content-encoding");
    out.delete("content-length");
    return new Response(bytes, { status: answer.status, headers: out });
  });
  const close = () => server.shutdown();
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    requests,
    afterNext(match, hook) {
      pending = { match, hook };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
