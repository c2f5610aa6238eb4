/**
 * Tries to reach every address form of the metadata deny list from inside a process, by the
 * three ways in-process code opens a connection (fetch, Deno.connect, node:net), and says how
 * each attempt ended. Loaded by child processes only: tests/e2e/net_deny.test.ts runs it as a
 * plain `-P=harness` script and, through net_probe_memory.ts, as a custom memory provider.
 *
 * The verdict that matters is `refused`: the permission check threw before any packet left.
 * Anything else (`reached`, `timeout`, a network error) means the deny list let the attempt
 * through. Every attempt has a short deadline, so a missing entry fails the test in seconds.
 */
import net from "node:net";
import {
  embeddedForms,
  LINK_LOCAL_V4,
  METADATA_HOST_NAMES,
  METADATA_V4,
  METADATA_V6,
  netDenyList,
} from "../../lib/net/metadata_addresses.ts";

/** How one attempt ended. */
export interface ProbeResult {
  /** The host as given to the API (an IP in any spelling, or a name). */
  readonly target: string;
  /** `fetch`, `connect` (Deno.connect) or `node:net`. */
  readonly api: string;
  /** `refused` (permission error), `reached`, `timeout`, or the error's name. */
  readonly verdict: string;
  /** The error message, for the assertion's failure text. */
  readonly detail: string;
}

const DEADLINE_MS = 2_000;

/** IPv4 dotted quad → its 32-bit value. */
function v4Number(v4: string): number {
  return v4.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

/** IPv4 dotted quad → the low 32 bits of an IPv6 address, in hex groups (`a9fe:a9fe`). */
function v4Hex(v4: string): string {
  const n = v4Number(v4);
  return `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
}

/**
 * Every host the deny list must refuse: each entry as written (a range at both ends and at
 * each endpoint inside it), and the spellings Deno must not be fooled by: hex-embedded and
 * fully expanded upper-case IPv6, the IPv4 endpoints as one decimal or hex integer (which the
 * system resolver turns back into the dotted address), and upper-case names with a root dot.
 */
export function probeTargets(): string[] {
  const targets = new Set<string>();
  for (const entry of netDenyList()) {
    if (entry === LINK_LOCAL_V4) {
      targets.add("169.254.0.0").add("169.254.0.1").add("169.254.255.255");
    } else {
      targets.add(entry.replace(/^\[(.*)\]$/, "$1"));
    }
  }
  for (const { address } of METADATA_V4) {
    const hex = v4Hex(address);
    targets.add(address);
    for (const form of embeddedForms(address)) targets.add(form);
    targets.add(`::ffff:${hex}`).add(`::${hex}`).add(`64:ff9b::${hex}`);
    targets.add(`64:FF9B:0:0:0:0:${hex.toUpperCase()}`);
    targets.add(String(v4Number(address)));
    targets.add(`0x${v4Number(address).toString(16)}`);
  }
  for (const { address } of METADATA_V6) targets.add(address.toUpperCase());
  for (const name of METADATA_HOST_NAMES) targets.add(`${name.toUpperCase()}.`);
  return [...targets];
}

/** The verdict for an error an attempt threw. */
function judge(error: unknown): { verdict: string; detail: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    return { verdict: "refused", detail: message };
  }
  // fetch reports a permission error met while dialling a resolved name as a TypeError whose
  // cause quotes Deno's refusal; that is still a refusal before any packet.
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && /Requires net access to /.test(cause.message)) {
    return { verdict: "refused", detail: cause.message };
  }
  // node:net looks a name up before dialling, and Deno refuses the lookup of a denied name as
  // an EPERM from getaddrinfo (an unknown name is ENOTFOUND): no query, no packet.
  const node = error as { code?: unknown; syscall?: unknown };
  if (node.code === "EPERM" && node.syscall === "getaddrinfo") {
    return { verdict: "refused", detail: message };
  }
  const name = error instanceof Error ? error.name : typeof error;
  return { verdict: name === "TimeoutError" ? "timeout" : name, detail: message };
}

/** `work` with the probe deadline: a hung dial becomes a `timeout` verdict. */
async function attempt(work: (signal: AbortSignal) => Promise<void>): Promise<{
  verdict: string;
  detail: string;
}> {
  const signal = AbortSignal.timeout(DEADLINE_MS);
  try {
    await Promise.race([
      work(signal),
      new Promise<never>((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    ]);
    return { verdict: "reached", detail: "" };
  } catch (error) {
    return judge(error);
  }
}

/** Tries `host:port` with each API. */
export async function probe(host: string, port = 80): Promise<ProbeResult[]> {
  const literal6 = host.includes(":");
  const urlHost = literal6 ? `[${host}]` : host;
  const results: ProbeResult[] = [];
  const record = (api: string, outcome: { verdict: string; detail: string }) =>
    results.push({ target: host, api, ...outcome });
  record(
    "fetch",
    await attempt(async (signal) => {
      const response = await fetch(`http://${urlHost}:${port}/`, { signal });
      await response.body?.cancel();
    }),
  );
  record(
    "connect",
    await attempt(async () => {
      const conn = await Deno.connect({ hostname: host, port });
      conn.close();
    }),
  );
  record(
    "node:net",
    await attempt(() =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect({ host, port }, () => {
          socket.destroy();
          resolve();
        });
        socket.once("error", reject);
      })
    ),
  );
  return results;
}

/** Probes every target of {@link probeTargets}, plus `control` (a reachable local listener). */
export async function probeAll(control?: { host: string; port: number }): Promise<{
  readonly results: ProbeResult[];
  readonly control: ProbeResult[];
  /** `Deno.permissions.query` for the Azure wire server, the address that started this. */
  readonly wireServerQuery: string;
}> {
  const results: ProbeResult[] = [];
  for (const target of probeTargets()) results.push(...await probe(target));
  const { state } = await Deno.permissions.query({ name: "net", host: "168.63.129.16" });
  return {
    results,
    control: control ? await probe(control.host, control.port) : [],
    wireServerQuery: state,
  };
}

/** The control listener's address from the environment (`PROBE_CONTROL=host:port`). */
export function controlFromEnv(): { host: string; port: number } | undefined {
  const value = Deno.env.get("PROBE_CONTROL");
  if (!value) return undefined;
  const at = value.lastIndexOf(":");
  return { host: value.slice(0, at), port: Number(value.slice(at + 1)) };
}

if (import.meta.main) {
  console.log(JSON.stringify(await probeAll(controlFromEnv())));
  // node:net keeps no handle open, but a refused fetch may leave a pooled client behind.
  Deno.exit(0);
}
