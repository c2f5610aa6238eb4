/**
 * Name resolution for `web_fetch`. The fence resolves a name itself, checks every address,
 * and then dials one of those exact addresses, so the name is never resolved a second time
 * by the socket layer (no DNS-rebinding window between the check and the connect).
 */
import { errorMessage } from "../base/error_text.ts";

/** Resolves a host name to its IP address strings (A and AAAA). Injectable for tests. */
export type Resolver = (host: string, signal: AbortSignal) => Promise<string[]>;

/** Thrown when a name cannot be resolved; the message is for the model. */
export class ResolveError extends Error {
  /** Names the class in stack traces and logs. */
  override name = "ResolveError";
}

/**
 * The default resolver: `Deno.resolveDns` for A and AAAA in parallel, IPv4 first (the likelier
 * route on a server box). Unlike `getaddrinfo`, it asks the DNS servers directly and never
 * reads /etc/hosts, so a hosts-file alias simply fails to resolve — failing closed.
 */
export const denoResolver: Resolver = async (host, signal): Promise<string[]> => {
  const lookups = await Promise.allSettled([
    Deno.resolveDns(host, "A", { signal }),
    Deno.resolveDns(host, "AAAA", { signal }),
  ]);
  signal.throwIfAborted();
  const addresses: string[] = [];
  const failures: string[] = [];
  for (const lookup of lookups) {
    if (lookup.status === "fulfilled") addresses.push(...lookup.value);
    else if (!(lookup.reason instanceof Deno.errors.NotFound)) {
      failures.push(errorMessage(lookup.reason));
    }
  }
  if (addresses.length === 0 && failures.length > 0) {
    throw new ResolveError(`could not resolve host '${host}': ${failures[0]}`);
  }
  return addresses;
};
