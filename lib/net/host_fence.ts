/**
 * The process's host fence (docs/security.md#host-rules): where every request path of the
 * harness picks up the host rules, without knowing whether there are any. A path builds its
 * client with {@link fencedFetch} (or checks a URL with {@link fenceCheck}); the wake installs
 * the rules once, before its first request, when `host_rules.json` exists. Until then, and in a
 * process with no rules, both pass everything through. This module imports nothing, so the idle
 * wake pays for one tiny file; the rules' parser and matcher load only when there is a file.
 */

/** A request path's name, as the journal's `via=` prints it (see lib/net/host_rules.ts). */
export type FenceRoute =
  | "web_fetch"
  | "mcp"
  | "platform"
  | "model"
  | "media"
  | "ntfy"
  | "xai_management"
  | "embeddings"
  | "code";

/** The `fetch` shape the fence wraps. */
export type FenceFetch = (input: URL | Request | string, init?: RequestInit) => Promise<Response>;

/** What an installed fence does: wrap a fetch, or judge one URL (throwing to refuse). */
export interface Fence {
  /** `inner`, guarded for requests made by `via` (redirect hops included). */
  wrap(via: FenceRoute, inner: FenceFetch): FenceFetch;
  /** Throws when `url`'s host is not allowed; `hop` > 0 for a redirect's target. */
  check(via: FenceRoute, url: URL, hop: number): void;
}

/** A request the host rules refused before any connection was made. */
export class HostNotAllowedError extends Error {
  /** Names the class in stack traces and logs. */
  override name = "HostNotAllowedError";
  /** The normalised host that was refused. */
  readonly host: string;
  /** The request path that tried it. */
  readonly via: FenceRoute;
  /** The rules file that does not list it. */
  readonly file: string;
  /** 0 for the request itself, n for its n-th redirect. */
  readonly hop: number;

  /** `hop` > 0 when the refused host is a redirect's target. */
  constructor(host: string, via: FenceRoute, file: string, hop = 0) {
    super(
      `${hop > 0 ? `redirect ${hop} goes to host` : "host"} '${host}', which the host rules ` +
        `in ${file} do not allow.`,
    );
    this.host = host;
    this.via = via;
    this.file = file;
    this.hop = hop;
  }
}

let installed: Fence | null = null;

/** Installs `fence` for the rest of the process (null lifts it: tests only). */
export function installFence(fence: Fence | null): void {
  installed = fence;
}

/** Whether a fence is installed. */
export function fenceInstalled(): boolean {
  return installed !== null;
}

/**
 * A fetch for `via` that consults the fence at each call, so a client built before the fence
 * was installed is still guarded. `inner` defaults to the global `fetch`, looked up per call.
 */
export function fencedFetch(via: FenceRoute, inner?: FenceFetch): FenceFetch {
  const base: FenceFetch = inner ?? ((input, init) => fetch(input, init));
  return (input, init) => (installed ? installed.wrap(via, base)(input, init) : base(input, init));
}

/** Throws when the fence refuses `url` for `via`; passes when no fence is installed. */
export function fenceCheck(via: FenceRoute, url: URL, hop = 0): void {
  installed?.check(via, url, hop);
}
