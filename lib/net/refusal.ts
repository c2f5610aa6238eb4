/**
 * A URL the harness will not fetch, whatever the host rules say: a scheme other than http(s)
 * (`file:`, `data:`, `ftp:` …), credentials in the URL, or — for a URL a vendor or a peer handed
 * the harness — a host that is, or resolves to, an address that is not public (loopback,
 * private, link-local, cloud metadata). The refusal happens before any connection, and the
 * process's listener (the wake's journal, {@link onUrlRefused}) hears of each one.
 */
import { type FenceRoute, HostNotAllowedError } from "./host_fence.ts";

/** A request refused before it was sent; the message is one sentence a model can act on. */
export class UrlRefusedError extends Error {
  /** Names the class in stack traces and logs. */
  override name = "UrlRefusedError";
  /** The request path that tried it (the journal's `via=`). */
  readonly via: FenceRoute;
  /**
   * What was refused, safe to print: `scheme://host:port` for an http(s) URL, `file:` for any
   * other scheme. Never the path or the query, which may be a credential (a signed URL).
   */
  readonly target: string;
  /** Why, without the target: `127.0.0.1 is a loopback address`. */
  readonly reason: string;
  /** 0 for the request itself, n for its n-th redirect. */
  readonly hop: number;

  /** `target` as {@link safeTarget} prints it; `reason` without a final period. */
  constructor(via: FenceRoute, target: string, reason: string, hop = 0) {
    super(
      hop > 0
        ? `redirect ${hop} (to ${target}…) was refused: ${reason}.`
        : `the URL ${target}… was refused: ${reason}.`,
    );
    this.via = via;
    this.target = target;
    this.reason = reason;
    this.hop = hop;
  }
}

/** What may be printed of `url`: its origin for http(s), its scheme alone otherwise. */
export function safeTarget(url: URL): string {
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
}

let listener: ((refusal: UrlRefusedError) => void) | null = null;

/**
 * Hands every later refusal to `fn` (the wake's `url refused` journal line); null stops it.
 * One listener per process, as there is one fence.
 */
export function onUrlRefused(fn: ((refusal: UrlRefusedError) => void) | null): void {
  listener = fn;
}

/** Builds the refusal, tells the listener, and returns it for the caller to throw. */
export function refuseUrl(
  via: FenceRoute,
  url: URL | string,
  reason: string,
  hop = 0,
): UrlRefusedError {
  const target = typeof url === "string" ? url : safeTarget(url);
  const refusal = new UrlRefusedError(via, target, reason, hop);
  try {
    listener?.(refusal);
  } catch {
    // A journal that cannot write must not turn a refusal into a different error.
  }
  return refusal;
}

/**
 * The fetch path's refusal (a {@link UrlRefusedError} or the host rules' `HostNotAllowedError`)
 * wherever a caller wrapped it: an SDK reports one as a bare "Connection error." whose cause
 * holds it. Undefined when `error` is no refusal.
 */
export function refusalIn(error: unknown): UrlRefusedError | HostNotAllowedError | undefined {
  for (let link = error, depth = 0; link instanceof Error && depth < 8; depth++) {
    if (link instanceof UrlRefusedError || link instanceof HostNotAllowedError) return link;
    link = link.cause;
  }
  return undefined;
}
