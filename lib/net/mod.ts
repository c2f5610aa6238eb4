/**
 * Every HTTP request the harness makes of its own goes through this folder
 * (docs/security.md#one-fetch-path; tests/architecture/fetch_only.test.ts fails on a module
 * elsewhere in lib/ that calls `fetch` or opens a socket). A path whose destination the
 * operator configured uses `outboundFetch`; a URL a vendor or a peer handed the harness is read
 * with `handedFetch`; `web_fetch` builds on the address fence and the pinned transport directly.
 * This entry re-exports the light half only: the resolver, the address policy and the transport
 * load when a handed URL first leaves the configured origins.
 */
export {
  handedFetch,
  type HandedOptions,
  type HopOptions,
  MAX_HANDED_REDIRECTS,
  outboundFetch,
  requireHttp,
} from "./outbound.ts";
export { onUrlRefused, refuseUrl, safeTarget, UrlRefusedError } from "./refusal.ts";
export {
  fenceCheck,
  type FenceFetch,
  fenceInstalled,
  type FenceRoute,
  HostNotAllowedError,
  installFence,
} from "./host_fence.ts";
export { type CappedBody, readCapped } from "./read_capped.ts";
