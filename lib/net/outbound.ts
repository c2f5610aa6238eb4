/**
 * The one way the harness sends an HTTP request of its own (docs/security.md#one-fetch-path).
 * Two doors, by who chose the destination:
 *
 * - {@link outboundFetch}, for a destination the operator configured (the platform, the model,
 *   media and code endpoints, MCP servers, ntfy, the xAI Management API, the embeddings
 *   endpoint): http(s) only, then the host rules on the request and on every redirect hop.
 * - {@link handedFetch}, for a URL a vendor or a peer handed the harness (a finished video's
 *   URL, an asset's `file.url`): a GET of an http(s) URL that carries no credentials, the host
 *   rules on every hop, and, on every hop that leaves the origins the caller names as
 *   configured, the address fence: the name resolved by the harness, every address judged
 *   public, the connection dialled at the address judged (lib/net/handed_hop.ts, loaded only
 *   when such a hop comes).
 *
 * Until a handed URL leaves the configured origins nothing loads beyond this file, the fence
 * and the refusal, so the idle wake pays for three small modules.
 */
import { lazyImport } from "../base/lazy_import.ts";
import { fenceCheck, fencedFetch, type FenceFetch, type FenceRoute } from "./host_fence.ts";
import type { HopOptions } from "./handed_hop.ts";
import { refuseUrl } from "./refusal.ts";

export type { FenceFetch, FenceRoute } from "./host_fence.ts";
export type { HopOptions } from "./handed_hop.ts";

/** Redirects a handed URL may take before the read gives up (each hop is judged again). */
export const MAX_HANDED_REDIRECTS = 10;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The URL a fetch input names. */
function urlOf(input: URL | Request | string): URL | null {
  try {
    return new URL(input instanceof Request ? input.url : input);
  } catch {
    return null;
  }
}

/**
 * Throws the {@link refuseUrl} refusal when `url` is not http(s) (or no URL at all). Every
 * request of the harness passes here: `fetch` itself would read a `file:` URL from disk.
 */
export function requireHttp(via: FenceRoute, url: URL | null, hop = 0): URL {
  if (url === null) throw refuseUrl(via, "", "it is not a valid absolute URL", hop);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refuseUrl(via, url, "only http and https URLs are fetched", hop);
  }
  return url;
}

/**
 * The fetch for a path whose destination the operator configured: refuses a URL that is not
 * http(s) with a {@link UrlRefusedError}, then applies the host rules (lib/net/host_fence.ts)
 * to the request and every redirect hop. `inner` defaults to the global `fetch`.
 */
export function outboundFetch(via: FenceRoute, inner?: FenceFetch): FenceFetch {
  const fenced = fencedFetch(via, inner);
  return async (input, init) => {
    requireHttp(via, urlOf(input));
    return await fenced(input, init);
  };
}

/** How a handed URL is read. */
export interface HandedOptions {
  /**
   * The origins the operator configured for this path (the platform's base URL, the vendor's
   * endpoint): a hop to one of them is an ordinary request, like any other to that endpoint.
   * Compared by origin (scheme, host and port).
   */
  readonly trusted: readonly (string | URL)[];
  /** The fetch for hops to a trusted origin (default: the global `fetch`). */
  readonly fetch?: FenceFetch;
  /** The address fence's seams, for tests. */
  readonly hops?: HopOptions;
}

/** The origin of `value`, or null when it is no URL. */
function originOf(value: string | URL): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * The fetch for a URL a vendor or a peer handed the harness: GET (or HEAD) only, http(s)
 * only, no credentials in the URL, the host rules on every hop, redirects followed by hand (at
 * most {@link MAX_HANDED_REDIRECTS}; `Authorization` dropped when a hop leaves the origin), and
 * every hop outside {@link HandedOptions.trusted} dialled through the address fence. A refusal
 * is a {@link UrlRefusedError} (or the rules' `HostNotAllowedError`), thrown before any
 * connection to the refused hop.
 */
export function handedFetch(via: FenceRoute, options: HandedOptions): FenceFetch {
  const trusted = new Set(options.trusted.map(originOf).filter((o) => o !== null));
  const inner: FenceFetch = options.fetch ?? ((input, init) => fetch(input, init));
  return async (input, init = {}) => {
    const method = (init.method ?? (input instanceof Request ? input.method : "GET"))
      .toUpperCase();
    if (method !== "GET" && method !== "HEAD") {
      throw new TypeError(`a handed URL is only read (GET), never sent a ${method}`);
    }
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : {}));
    let url = requireHttp(via, urlOf(input));
    for (let hop = 0;; hop++) {
      if (url.username !== "" || url.password !== "") {
        throw refuseUrl(via, url, "it carries credentials (user:password@)", hop);
      }
      fenceCheck(via, url, hop);
      const request = { method, headers, signal: init.signal, redirect: "manual" as const };
      const response = trusted.has(url.origin)
        ? await inner(url, request)
        : await (await hopModule()).pinnedHop(via, url, request, hop, options.hops);
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null) return response;
      await response.body?.cancel();
      if (hop + 1 > MAX_HANDED_REDIRECTS) {
        throw new TypeError(`more than ${MAX_HANDED_REDIRECTS} redirects`);
      }
      let next: URL | null;
      try {
        next = new URL(location, url);
      } catch {
        next = null;
      }
      const checked = requireHttp(via, next, hop + 1);
      if (checked.origin !== url.origin) headers.delete("authorization");
      url = checked;
    }
  };
}

/** The address fence's hop, loaded the first time a handed URL leaves the trusted origins. */
function hopModule(): Promise<typeof import("./handed_hop.ts")> {
  return lazyImport<typeof import("./handed_hop.ts")>("lib/net/handed_hop.ts");
}
