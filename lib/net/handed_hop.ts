/**
 * One hop of a handed URL outside the configured origins (lib/net/outbound.ts `handedFetch`),
 * through the same address fence `web_fetch` uses: the harness resolves the name itself, every
 * address it resolves to must be public (lib/net/address_policy.ts), and the connection is
 * dialled at an address that was judged (lib/net/pinned_transport.ts), so a DNS answer that
 * changes between the check and the connection cannot redirect it. Loaded lazily: only a wake
 * that reads such a URL pays for the resolver, the policy and the transport.
 */
import { type AddressPolicy, publicAddressPolicy } from "./address_policy.ts";
import type { FenceRoute } from "./host_fence.ts";
import { decodeContent } from "./http1.ts";
import { pinnedTransport, type Transport } from "./pinned_transport.ts";
import { refuseUrl } from "./refusal.ts";
import { denoResolver, type Resolver } from "./dns.ts";
import { checkTarget, FenceRefusal, UnresolvedHost } from "./target.ts";

/** The address fence's seams; production uses every default. */
export interface HopOptions {
  /** Resolves host names (default: `Deno.resolveDns`, A and AAAA). */
  readonly resolver?: Resolver;
  /**
   * Judges each address (default: public addresses only). A test seam: a local test server is
   * itself on loopback. Never set this in production.
   */
  readonly policy?: AddressPolicy;
  /** Performs the GET (default: the pinned transport). */
  readonly transport?: Transport;
  /** Extra PEM roots for the default transport (a test CA). */
  readonly caCerts?: readonly string[];
}

/** What the hop sends. */
export interface HopRequest {
  readonly method: string;
  readonly headers: Headers;
  readonly signal?: AbortSignal | null;
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

/**
 * Judges `url`'s host and, when every address is public, GETs it at one of those addresses.
 * Refusals are {@link UrlRefusedError}s (the listener hears of each); a name that does not
 * resolve, or no address that answers, is a `TypeError` (a network failure, as `fetch` has).
 */
export async function pinnedHop(
  via: FenceRoute,
  url: URL,
  request: HopRequest,
  hop: number,
  options: HopOptions = {},
): Promise<Response> {
  if (request.method !== "GET") {
    throw new TypeError(`a URL outside the configured origins is only read with GET`);
  }
  const signal = request.signal ?? new AbortController().signal;
  let target;
  try {
    target = await checkTarget(url, {
      resolver: options.resolver ?? denoResolver,
      policy: options.policy ?? publicAddressPolicy,
      signal,
    });
  } catch (error) {
    if (error instanceof FenceRefusal) throw refuseUrl(via, url, error.reason, hop);
    // A name that did not resolve is a network failure, as `fetch` reports one.
    if (error instanceof UnresolvedHost) throw new TypeError(error.reason, { cause: error });
    throw error;
  }
  const headers: Record<string, string> = {
    // Identity keeps a caller's byte cap honest; a coded body is decoded below anyway.
    "Accept-Encoding": "identity",
    Connection: "close",
  };
  for (const [name, value] of request.headers) {
    if (!["host", "connection", "accept-encoding"].includes(name)) headers[name] = value;
  }
  const transport = options.transport ?? pinnedTransport({ caCerts: options.caCerts });
  const response = await transport({ target, headers, signal });
  if (response.status < 200 || response.status > 599) {
    response.close();
    throw new TypeError(`the server answered with HTTP ${response.status}`);
  }
  const body = NULL_BODY.has(response.status)
    ? null
    : decodeContent(response.body, response.headers);
  if (body === null) response.close();
  const decoded = new Headers(response.headers);
  if (body !== null && response.headers.has("content-encoding")) {
    // The bytes handed on are decoded: their length and coding are no longer the server's.
    decoded.delete("content-encoding");
    decoded.delete("content-length");
  }
  return new Response(body, { status: response.status, headers: decoded });
}
