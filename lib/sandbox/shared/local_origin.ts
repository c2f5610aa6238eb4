/**
 * Who may talk to a local server (the sandbox platform, the playground's page). Both listen on
 * loopback for a browser on the same machine, which any web site that browser opens can also
 * aim at. Two checks keep such a site out:
 *
 * - **Host**: a request must name the server by a name it was started for (127.0.0.1,
 *   localhost or [::1], or the address it was explicitly bound to) and its port. A site whose
 *   own name was re-pointed at 127.0.0.1 (DNS rebinding) sends its own name and is refused.
 * - **Cross-site writes**: a request that changes state must come from the server's own origin.
 *   Browsers send `Origin` (and `Sec-Fetch-Site`) on every cross-origin POST, including the
 *   "simple" ones a form or a `no-cors` fetch makes without a preflight; programs such as curl
 *   or the harness send neither and are not affected.
 */

/** The `host[:port]` spellings one server answers to, lowercased. */
export type ServedHosts = ReadonlySet<string>;

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/**
 * The `Host` values a server answers to: the loopback names and each of `bound` (the address or
 * name it was started with, and the address it listens on), each with the port — and without
 * it on port 80, where a browser leaves it out. An IP literal is safe to list whatever it is:
 * DNS rebinding needs the attacker's own name in `Host`.
 */
export function servedHosts(bound: readonly string[], port: number): ServedHosts {
  const names = new Set(LOOPBACK_NAMES);
  for (const name of bound) {
    const plain = name.replace(/^\[(.*)\]$/, "$1").toLowerCase();
    if (plain !== "") names.add(plain.includes(":") ? `[${plain}]` : plain);
  }
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

/** Why the request's `Host` is refused, or null when it names this server. */
export function hostRefusal(req: Request, hosts: ServedHosts): string | null {
  const host = (req.headers.get("host") ?? "").trim().toLowerCase();
  if (hosts.has(host)) return null;
  const shown = host === "" ? "no Host header" : `Host '${host.slice(0, 100)}'`;
  return `This server answers to ${[...hosts].join(", ")} only, not ${shown}.`;
}

/** Methods that only read: a browser may send them from anywhere, and they change nothing. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a state-changing request is refused as cross-site, or null when it may proceed: the
 * browser says it comes from another origin (`Origin` is not this server's own, or
 * `Sec-Fetch-Site` is anything but `same-origin`). A request without either header (curl,
 * the harness, any program) is not a browser's cross-site request and proceeds.
 */
export function crossSiteRefusal(req: Request): string | null {
  if (SAFE_METHODS.has(req.method)) return null;
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  const own = `http://${(req.headers.get("host") ?? "").toLowerCase()}`;
  if (site !== null && site !== "same-origin" && site !== "none") {
    return `A ${site} request may not change anything here.`;
  }
  if (origin !== null && origin.toLowerCase() !== own) {
    return `A request from ${origin.slice(0, 100)} may not change anything here.`;
  }
  return null;
}
