/**
 * Which addresses `web_fetch`, and every URL handed to the harness by a vendor or a peer
 * (lib/net/outbound.ts), may connect to. The posture is allow-only-public: an address is
 * refused unless it is ordinary global unicast, so a range nobody listed (a new special-use
 * block, a deprecated transition prefix) fails closed instead of open. Embedded IPv4 (mapped,
 * compatible, NAT64, 6to4) is unwrapped and judged as the IPv4 it carries, because the kernel
 * or a translator will deliver the packet there.
 */
import { formatIPv4, type IpAddress, ipFromBytes, parseIp } from "./ip.ts";
import { CLOUD_RESOLVERS, METADATA_V4, METADATA_V6 } from "./metadata_addresses.ts";

/**
 * Judges one address: null when it is public, else a noun phrase saying what it is
 * (`"a loopback address"`). Tests may pass a permissive policy for the first hop only.
 */
export type AddressPolicy = (address: IpAddress) => string | null;

/** A CIDR block and the phrase a refusal uses for it. */
interface Block {
  readonly prefix: Uint8Array;
  readonly bits: number;
  readonly what: string;
}

function block(cidr: string, what: string): Block {
  const [text, bits] = cidr.split("/");
  const parsed = parseIp(text);
  if (!parsed) throw new Error(`bad CIDR in the address table: ${cidr}`);
  return { prefix: parsed.address.bytes, bits: Number(bits), what };
}

function inBlock(bytes: Uint8Array, b: Block): boolean {
  if (bytes.length !== b.prefix.length) return false;
  let bits = b.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (b.prefix[i] & mask)) return false;
  }
  return true;
}

// Exact addresses first: these are the endpoints an SSRF is usually after, and naming them
// tells the operator reading the journal what was attempted. The list is shared with the
// permission set's deny list (metadata_addresses.ts); some entries (168.63.129.16) are nominally
// public, which is why they must be listed rather than left to the ranges.
const METADATA: readonly Block[] = [...METADATA_V4, ...METADATA_V6, ...CLOUD_RESOLVERS].map((e) =>
  block(`${e.address}/${e.address.includes(":") ? 128 : 32}`, "a cloud metadata address")
);

// IANA IPv4 special-purpose registry, the blocks that are not globally reachable.
const V4_BLOCKS: readonly Block[] = [
  block("0.0.0.0/8", "an unspecified ('this network') address"),
  block("10.0.0.0/8", "a private address"),
  block("100.64.0.0/10", "a shared (CGNAT) address"),
  block("127.0.0.0/8", "a loopback address"),
  block("169.254.0.0/16", "a link-local address"),
  block("172.16.0.0/12", "a private address"),
  block("192.0.0.0/24", "a reserved (IETF protocol) address"),
  block("192.0.2.0/24", "a documentation address"),
  block("192.88.99.0/24", "a reserved (6to4 relay) address"),
  block("192.168.0.0/16", "a private address"),
  block("198.18.0.0/15", "a benchmarking address"),
  block("198.51.100.0/24", "a documentation address"),
  block("203.0.113.0/24", "a documentation address"),
  block("224.0.0.0/4", "a multicast address"),
  block("255.255.255.255/32", "the broadcast address"),
  block("240.0.0.0/4", "a reserved address"),
];

// IPv6 blocks judged before the "must be in 2000::/3" rule, so their refusal names them.
const V6_BLOCKS: readonly Block[] = [
  block("::/128", "an unspecified address"),
  block("::1/128", "a loopback address"),
  block("64:ff9b:1::/48", "a local-use NAT64 address"),
  block("100::/64", "a discard-only address"),
  block("2001::/23", "a reserved (IETF protocol) address"),
  block("2001:db8::/32", "a documentation address"),
  block("3fff::/20", "a documentation address"),
  block("5f00::/16", "a reserved (segment routing) address"),
  block("fc00::/7", "a unique-local (private IPv6) address"),
  block("fe80::/10", "a link-local address"),
  block("fec0::/10", "a site-local address"),
  block("ff00::/8", "a multicast address"),
];

const MAPPED = block("::ffff:0:0/96", "");
const COMPATIBLE = block("::/96", "");
const NAT64 = block("64:ff9b::/96", "");
const SIX_TO_FOUR = block("2002::/16", "");
const GLOBAL_UNICAST = block("2000::/3", "");

function judgeV4(bytes: Uint8Array): string | null {
  for (const b of [...METADATA, ...V4_BLOCKS]) if (inBlock(bytes, b)) return b.what;
  return null;
}

/** The IPv4 an IPv6 address carries, and how, when it is one of the embedding forms. */
function embeddedV4(bytes: Uint8Array): { v4: Uint8Array; how: string } | null {
  if (inBlock(bytes, MAPPED)) return { v4: bytes.slice(12), how: "an IPv4-mapped address" };
  if (inBlock(bytes, NAT64)) return { v4: bytes.slice(12), how: "a NAT64 address" };
  if (inBlock(bytes, SIX_TO_FOUR)) return { v4: bytes.slice(2, 6), how: "a 6to4 address" };
  // ::/96 minus :: and ::1 (judged first) is the deprecated IPv4-compatible form.
  if (inBlock(bytes, COMPATIBLE)) return { v4: bytes.slice(12), how: "an IPv4-compatible address" };
  return null;
}

/**
 * The default policy: null only for a public, globally routable unicast address.
 * IPv4-mapped and NAT64 addresses carrying a public IPv4 are public; IPv4-compatible ones
 * never are (the form is deprecated and unroutable).
 */
export const publicAddressPolicy: AddressPolicy = (address): string | null => {
  const bytes = address.bytes;
  if (address.family === 4) return judgeV4(bytes);
  for (const b of [...METADATA, ...V6_BLOCKS]) if (inBlock(bytes, b)) return b.what;
  const embedded = embeddedV4(bytes);
  if (embedded) {
    const inner = judgeV4(embedded.v4);
    if (inner) return `${embedded.how} embedding ${formatIPv4(embedded.v4)}, ${inner}`;
    if (embedded.how === "an IPv4-compatible address") {
      return "a deprecated IPv4-compatible address";
    }
    return null;
  }
  if (!inBlock(bytes, GLOBAL_UNICAST)) return "a reserved address";
  return null;
};

/**
 * The address to actually dial: an IPv4-mapped IPv6 address is dialled as its IPv4, so what
 * the socket reaches is exactly what the policy judged.
 */
export function dialAddress(address: IpAddress): IpAddress {
  if (address.family === 6 && inBlock(address.bytes, MAPPED)) {
    return ipFromBytes(address.bytes.slice(12));
  }
  return address;
}
