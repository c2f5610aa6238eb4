/**
 * Host rules (docs/security.md#host-rules): the operator's allowlist of the hosts the harness
 * itself may send HTTP requests to. An entry is an exact host name, an IP literal, or
 * `regex:<pattern>` matched against the WHOLE normalised host. Hosts are compared after one
 * normalisation, applied alike to the entry and to every request's host: lowercased, IDNA to
 * ASCII (punycode), one trailing dot dropped, IP literals printed canonically (IPv4 dotted, IPv6
 * RFC 5952 without brackets). Ports, CIDR ranges and globs are not rules: an entry that looks
 * like one is refused, so an operator never believes a rule is in force that matches nothing.
 *
 * IDNA is done by the WHATWG URL parser (`new URL("http://" + host).hostname`), the same parser
 * `fetch` dials with, so a rule and a request can never normalise differently; `node:url`'s
 * `domainToASCII` would give the same answer but boots Deno's Node layer on every wake.
 */
import { type Fence, type FenceFetch, type FenceRoute, HostNotAllowedError } from "./host_fence.ts";
import { parseIp, parseIPv6 } from "./ip.ts";

/** Which of the harness's own request paths made a request (the journal's `via=`). */
export type HostRoute = FenceRoute;

export { HostNotAllowedError };

/** The `fetch` shape every guarded request path uses. */
export type FetchLike = FenceFetch;

/** One compiled `regex:` rule. */
export interface HostPattern {
  /** The entry as written, `regex:` included. */
  readonly entry: string;
  /** The pattern anchored at both ends. */
  readonly regex: RegExp;
}

/** A compiled allowlist. */
export interface HostRules {
  /** The file the rules came from, named in every refusal. */
  readonly file: string;
  /** The entries as written, in file order. */
  readonly entries: readonly string[];
  /** The normalised exact hosts (names and canonical IP text). */
  readonly exact: ReadonlySet<string>;
  /** The `regex:` rules. */
  readonly patterns: readonly HostPattern[];
}

/** An entry that is not a rule; the message names the entry and the fix. */
export class HostRuleError extends Error {
  /** Names the class in stack traces and logs. */
  override name = "HostRuleError";
}

const PREFIX = "regex:";
// Characters the URL parser would read as a path, a query, credentials or an escape.
const NOT_IN_A_HOST = /[\s/\\?#@%]/;

/**
 * Normalises a request's host (a `URL.hostname`, brackets and all, or a host as typed): the
 * canonical text rules are compared with, or null when it is no valid host at all.
 */
export function normaliseHost(host: string): string | null {
  const ip = parseIp(host);
  if (ip && ip.zone === null) return ip.address.text;
  if (host === "" || NOT_IN_A_HOST.test(host) || host.includes(":")) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
  // A name the parser turned into an IP literal (`0x7f.1`) compares as that address.
  const literal = parseIp(ascii);
  if (literal) return literal.address.text;
  const name = ascii.endsWith(".") ? ascii.slice(0, -1) : ascii;
  return name === "" || name.split(".").includes("") ? null : name;
}

/**
 * Compiles one entry: an exact host or a `regex:` rule.
 * @throws {HostRuleError} naming the entry and the fix for a port, a CIDR range, a glob, an
 * empty or invalid pattern, a scoped IPv6 address or anything that is no host.
 */
export function compileRule(entry: string): { exact: string } | { pattern: HostPattern } {
  const quoted = JSON.stringify(entry);
  if (entry.startsWith(PREFIX)) {
    const source = entry.slice(PREFIX.length);
    if (source === "") {
      throw new HostRuleError(
        `${quoted} is an empty regex. Fix: write the pattern after 'regex:', e.g. ` +
          `"regex:([a-z0-9-]+\\.)*example\\.com", or remove the entry.`,
      );
    }
    try {
      // Alone first: a pattern that only parses inside the anchors (`a)|(b`) would escape them.
      new RegExp(source);
      return { pattern: { entry, regex: new RegExp(`^(?:${source})$`) } };
    } catch (error) {
      throw new HostRuleError(
        `${quoted} is not a valid regular expression (${(error as Error).message}). Fix: ` +
          "correct the pattern; it is matched against the whole lowercase ASCII host name.",
      );
    }
  }
  if (entry.includes("*")) {
    throw new HostRuleError(
      `${quoted} is a glob; host rules take no wildcards. Fix: list each host, or write a ` +
        `regex rule such as "regex:([a-z0-9-]+\\.)*example\\.com".`,
    );
  }
  if (entry.includes("/")) {
    throw new HostRuleError(
      `${quoted} looks like a CIDR range or a URL; host rules are host names and single IP ` +
        "addresses. Fix: list each address or host name on its own, without a scheme or path.",
    );
  }
  const v6 = parseIPv6(entry);
  if (v6 && v6.zone !== null) {
    throw new HostRuleError(
      `${quoted} is a scoped IPv6 address. Fix: write the address without its zone id.`,
    );
  }
  if (!v6 && entry.includes(":")) {
    throw new HostRuleError(
      `${quoted} carries a port; host rules match a host on every port. Fix: write the host ` +
        "alone (an IPv6 address as [::1] or ::1).",
    );
  }
  const host = normaliseHost(entry);
  if (host === null) {
    throw new HostRuleError(
      `${quoted} is not a host name or IP address. Fix: write a host such as api.openai.com ` +
        "or 203.0.113.7, or a regex:<pattern> rule.",
    );
  }
  return { exact: host };
}

/**
 * Compiles a list of entries read from `file`.
 * @throws {HostRuleError} for the first entry that is not a rule.
 */
export function compileHostRules(entries: readonly string[], file: string): HostRules {
  const exact = new Set<string>();
  const patterns: HostPattern[] = [];
  for (const entry of entries) {
    const rule = compileRule(entry);
    if ("exact" in rule) exact.add(rule.exact);
    else patterns.push(rule.pattern);
  }
  return Object.freeze({ file, entries: Object.freeze([...entries]), exact, patterns });
}

/** Whether `host` (normalised or not) is allowed by `rules`. */
export function hostAllowed(rules: HostRules, host: string): boolean {
  const normal = normaliseHost(host);
  if (normal === null) return false;
  return rules.exact.has(normal) || rules.patterns.some((p) => p.regex.test(normal));
}

/**
 * The exact hosts as Deno's `--allow-net` takes them (IPv6 bracketed), or null when a `regex:`
 * rule makes the set open-ended and no flag can express it.
 */
export function allowNetList(rules: HostRules): string[] | null {
  if (rules.patterns.length > 0) return null;
  return [...rules.exact].map((host) => (host.includes(":") ? `[${host}]` : host));
}

/** What a guard needs besides the rules. */
export interface GuardOptions {
  /** The request path, named in the refusal and the journal. */
  readonly via: HostRoute;
  /** Called once per refusal, before it is thrown (the journal's `host refused` line). */
  readonly onRefused?: (refusal: HostNotAllowedError) => void;
}

/**
 * Throws {@link HostNotAllowedError} when `url`'s host is not allowed.
 * @param hop 0 for the request itself, n for its n-th redirect.
 */
export function checkHost(rules: HostRules, url: URL, options: GuardOptions, hop = 0): void {
  if (hostAllowed(rules, url.hostname)) return;
  const host = normaliseHost(url.hostname) ?? url.hostname;
  const refusal = new HostNotAllowedError(host, options.via, rules.file, hop);
  options.onRefused?.(refusal);
  throw refusal;
}

/** Redirects `fetch` follows (WHATWG fetch's redirect statuses). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** WHATWG fetch's redirect limit. */
const MAX_REDIRECTS = 20;
// The headers that describe a body, dropped with it when a redirect turns the request into a GET.
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language"];

/**
 * Wraps `inner` so that every request, and every redirect hop, is checked against `rules`
 * before it is sent. `redirect: "manual"` and `"error"` pass through (the caller sees each 3xx
 * and its next request is checked again); the default `"follow"` is replaced by a loop of
 * manual hops that follows the fetch standard (303, and 301/302 after a POST, become a GET
 * without the body; `Authorization` is dropped when a hop leaves the origin; at most 20 hops)
 * and checks each target before it is dialled. A 307/308 cannot re-send a streamed body, as in
 * `fetch` itself. `rules` null returns `inner` unchanged.
 */
export function guardedFetch(
  rules: HostRules | null,
  inner: FetchLike,
  options: GuardOptions,
): FetchLike {
  if (rules === null) return inner;
  return async (input, init) => {
    const request = input instanceof Request ? input : null;
    let url = new URL(input instanceof Request ? input.url : input);
    checkHost(rules, url, options);
    const mode = init?.redirect ?? request?.redirect ?? "follow";
    if (mode !== "follow") return await inner(input, init);

    let method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const headers = new Headers(init?.headers ?? request?.headers);
    let body: BodyInit | null = init?.body ?? null;
    if (init?.body === undefined && request?.body) body = await request.arrayBuffer();
    const signal = init?.signal ?? request?.signal;
    for (let hop = 0;; hop++) {
      const response = await inner(url, {
        ...init,
        method,
        headers,
        body,
        signal,
        redirect: "manual",
      });
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null) return response;
      await response.body?.cancel();
      if (hop + 1 > MAX_REDIRECTS) throw new TypeError("fetch failed: too many redirects");
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new TypeError(`fetch failed: the redirect's location is not a URL`);
      }
      if (next.protocol !== "http:" && next.protocol !== "https:") {
        throw new TypeError(`fetch failed: a redirect to a ${next.protocol} URL`);
      }
      checkHost(rules, next, options, hop + 1);
      const toGet = response.status === 303
        ? method !== "GET" && method !== "HEAD"
        : (response.status === 301 || response.status === 302) && method === "POST";
      if (toGet) {
        method = "GET";
        body = null;
        for (const name of BODY_HEADERS) headers.delete(name);
      } else if (body instanceof ReadableStream) {
        throw new TypeError("fetch failed: a redirect cannot re-send a streamed request body");
      }
      if (next.origin !== url.origin) headers.delete("authorization");
      url = next;
    }
  };
}

/** The process fence for `rules` (lib/net/host_fence.ts `installFence` takes it). */
export function hostFence(
  rules: HostRules,
  onRefused?: (refusal: HostNotAllowedError) => void,
): Fence {
  return {
    wrap: (via, inner) => guardedFetch(rules, inner, { via, onRefused }),
    check: (via, url, hop) => checkHost(rules, url, { via, onRefused }, hop),
  };
}
