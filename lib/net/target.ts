/**
 * The SSRF fence for one hop: is this URL something `web_fetch` may fetch, and which exact
 * addresses may it dial for it? Every refusal is a {@link FetchRefusal} whose message is a
 * plain sentence the model can act on; its class says which kind it is ({@link FenceRefusal},
 * {@link UnresolvedHost}), so a caller that words it its own way never reads the sentence.
 */
import { errorMessage } from "../base/error_text.ts";
import { type AddressPolicy, dialAddress } from "./address_policy.ts";
import { type IpAddress, parseIp } from "./ip.ts";
import { METADATA_HOST_NAMES } from "./metadata_addresses.ts";
import { ResolveError, type Resolver } from "./dns.ts";

/** A fetch the fence refused, or one that could not complete; the message says why. */
export class FetchRefusal extends Error {
  /** Names the class in stack traces and logs. */
  override name = "FetchRefusal";
}

/**
 * The fence's verdict on a host: it is, or resolves to, an address that is not public, or a name
 * that is local by definition. The message reads `refused: <reason>.`.
 */
export class FenceRefusal extends FetchRefusal {
  /** Names the class in stack traces and logs. */
  override name = "FenceRefusal";
  /** Why, without the lead-in or the full stop: `127.0.0.1 is a loopback address`. */
  readonly reason: string;

  /** `reason` without a final period. */
  constructor(reason: string) {
    super(`refused: ${reason}.`);
    this.reason = reason;
  }
}

/** The host's name resolved to no address: a network failure, not a verdict on the host. */
export class UnresolvedHost extends FetchRefusal {
  /** Names the class in stack traces and logs. */
  override name = "UnresolvedHost";
  /** Why, without the full stop: `could not resolve host 'x.example'`. */
  readonly reason: string;

  /** `reason` without a final period. */
  constructor(reason: string) {
    super(`${reason}.`);
    this.reason = reason;
  }
}

/** A validated hop: the URL and the public addresses it may be dialled at, in order. */
export interface Target {
  /** The hop's URL, as parsed. */
  readonly url: URL;
  /** Public addresses to dial, deduplicated, in resolver order (IPv4 first by default). */
  readonly addresses: readonly IpAddress[];
}

/** What the fence needs to judge a hop. */
export interface TargetChecks {
  /** Resolves a name to addresses. */
  readonly resolver: Resolver;
  /** Judges each address. */
  readonly policy: AddressPolicy;
  /** The fetch's deadline, passed to the resolver. */
  readonly signal: AbortSignal;
}

// Names that are local by definition (RFC 6761, RFC 6762, RFC 8375, ICANN's .internal):
// refusing them by name gives a clearer reason than whatever they happen to resolve to.
const LOCAL_SUFFIXES = ["localhost", "local", "internal", "home.arpa"];

/**
 * Parses the model's URL and applies the rules that need no network: absolute, https,
 * no credentials, a host. Throws {@link FetchRefusal}.
 */
export function parseTargetUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new FetchRefusal(
      base ? "the server sent a redirect to an invalid URL." : "that is not a valid absolute URL.",
    );
  }
  if (url.protocol !== "https:") {
    throw new FetchRefusal(`only https URLs are allowed (this one is ${url.protocol}).`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new FetchRefusal("URLs carrying credentials (user:password@) are not allowed.");
  }
  if (url.hostname === "") throw new FetchRefusal("the URL has no host.");
  return url;
}

/**
 * Judges a parsed https URL's host: an IP literal is checked as written; a name is resolved
 * and every address it resolves to must pass the policy (one inward address poisons the
 * name, since the connection could land on any of them). Returns the addresses to dial.
 */
export async function checkTarget(url: URL, checks: TargetChecks): Promise<Target> {
  const host = url.hostname;
  const literal = parseIp(host);
  if (literal) {
    const shown = host.startsWith("[") ? host.slice(1, -1) : host;
    if (literal.zone !== null) {
      throw new FenceRefusal(`${shown} is a scoped address (it carries a zone id)`);
    }
    const what = checks.policy(literal.address);
    if (what) throw new FenceRefusal(`${literal.address.text} is ${what}`);
    return { url, addresses: [dialAddress(literal.address)] };
  }

  const name = host.toLowerCase().replace(/\.$/, "");
  // Before the generic rules, so the refusal names what was attempted.
  if (METADATA_HOST_NAMES.includes(name)) {
    throw new FenceRefusal(`${name} is a cloud metadata host name`);
  }
  const suffix = LOCAL_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix) {
    throw new FenceRefusal(`${name} is not a public host (.${suffix} names are local)`);
  }
  if (!name.includes(".")) {
    // A bare name is completed by the resolver's search domains: an intranet name by design.
    throw new FenceRefusal(`'${name}' is a single-label name, not a public host`);
  }

  let resolved: string[];
  try {
    resolved = await checks.resolver(name, checks.signal);
  } catch (error) {
    checks.signal.throwIfAborted();
    if (error instanceof ResolveError) throw new UnresolvedHost(error.message);
    throw new UnresolvedHost(`could not resolve host '${name}': ${errorMessage(error)}`);
  }
  if (resolved.length === 0) throw new UnresolvedHost(`could not resolve host '${name}'`);

  const addresses: IpAddress[] = [];
  for (const text of resolved) {
    const parsed = parseIp(text);
    if (!parsed || parsed.zone !== null) {
      throw new FenceRefusal(`${name} resolved to '${text}', which is not a plain IP address`);
    }
    const what = checks.policy(parsed.address);
    if (what) {
      throw new FenceRefusal(`${name} resolves to ${parsed.address.text}, which is ${what}`);
    }
    const dial = dialAddress(parsed.address);
    if (!addresses.some((a) => a.text === dial.text)) addresses.push(dial);
  }
  return { url, addresses };
}
