/**
 * The cloud metadata, credential and wire-server endpoints that no code in the harness process
 * may reach: the one list both network fences read (docs/security.md#the-permission-set).
 *
 * - `web_fetch`'s address policy ((`address_policy.ts`)) refuses every address here by
 *   name ("a cloud metadata address"), and every embedding of the IPv4 ones too, since it
 *   unwraps mapped, compatible, NAT64 and 6to4 forms before judging.
 * - The production permission set's net deny list (`deno.json` `permissions.harness.net.deny`)
 *   is {@link netDenyList}: deno.json cannot import this module, so
 *   tests/tools/web_fetch_metadata.test.ts holds the two equal, and tests/e2e/net_deny.test.ts
 *   proves every entry is refused in a real `-P=harness` process.
 *
 * Deno's deny list matches less than `web_fetch` does (measured on Deno 2.9.6): an IPv4 entry
 * also covers its IPv4-mapped spelling, but an IPv6 entry must be one exact address (no IPv6
 * CIDR), so each embedding of each IPv4 endpoint is listed on its own, and IPv6 ranges
 * (fe80::/10, the NAT64 image of 169.254.0.0/16) cannot be denied at all.
 */

/** One endpoint and what is served there. */
export interface MetadataEndpoint {
  /** The address: a dotted quad, or a compressed IPv6 address without brackets. */
  readonly address: string;
  /** Who serves what there; for the reader of this table and the docs. */
  readonly serves: string;
}

/**
 * The whole IPv4 link-local range. Every metadata service in 169.254.0.0/16 is inside it, and
 * nothing the harness needs is (the platform and the model endpoints are routable addresses).
 */
export const LINK_LOCAL_V4 = "169.254.0.0/16";

/** IPv4 metadata, credential and wire-server endpoints. */
export const METADATA_V4: readonly MetadataEndpoint[] = [
  {
    address: "169.254.169.254",
    serves: "instance metadata and credentials: AWS, GCP, Azure, OpenStack, DigitalOcean, " +
      "Oracle Cloud, IBM Cloud, Hetzner, Linode, Vultr",
  },
  { address: "169.254.170.2", serves: "AWS ECS task metadata and credentials" },
  { address: "169.254.170.23", serves: "AWS EKS Pod Identity credentials" },
  { address: "169.254.42.42", serves: "Scaleway instance metadata" },
  { address: "169.254.0.23", serves: "Tencent Cloud instance metadata" },
  // Nominally public, so no range covers it: it must be named.
  { address: "168.63.129.16", serves: "Azure wire server (VM agent, extensions, health)" },
  // Inside 100.64.0.0/10 (CGNAT), which the permission set cannot deny wholesale.
  { address: "100.100.100.200", serves: "Alibaba Cloud instance metadata" },
  { address: "192.0.0.192", serves: "Oracle Cloud Classic instance metadata" },
];

/** IPv6 metadata and credential endpoints. */
export const METADATA_V6: readonly MetadataEndpoint[] = [
  { address: "fd00:ec2::254", serves: "AWS instance metadata over IPv6" },
  { address: "fd00:ec2::23", serves: "AWS EKS Pod Identity credentials over IPv6" },
  { address: "fd20:ce::254", serves: "GCP instance metadata over IPv6" },
  { address: "fd00:c1::a9fe:a9fe", serves: "Oracle Cloud instance metadata over IPv6" },
  { address: "fd00:42::42", serves: "Scaleway instance metadata over IPv6" },
];

/**
 * Cloud DNS resolvers. `web_fetch` refuses them like metadata (a page has no business there),
 * but the permission set leaves them out on purpose: `Deno.resolveDns`, which `web_fetch`
 * resolves names with, checks the box's configured name servers against the deny list, so
 * denying a resolver a box uses would stop every lookup, and a resolver holds no credentials.
 * (169.254.169.253 is inside {@link LINK_LOCAL_V4} all the same.)
 */
export const CLOUD_RESOLVERS: readonly MetadataEndpoint[] = [
  { address: "169.254.169.253", serves: "AWS VPC DNS resolver" },
  { address: "fd00:ec2::253", serves: "AWS VPC DNS resolver over IPv6" },
];

/**
 * Host names that resolve to a metadata endpoint. Deno already checks the address a name
 * resolves to, so listing them matters where no local resolution happens: through an HTTP
 * proxy (which resolves the name itself) and in `Deno.permissions.query`, which does no DNS.
 * Lower case, no trailing dot (Deno and `web_fetch` both normalise those).
 */
export const METADATA_HOST_NAMES: readonly string[] = [
  "metadata.google.internal",
  // GCP's short form, completed by the instance's search domain.
  "metadata",
  "metadata.tencentyun.com",
];

/**
 * The IPv6 spellings that carry `v4`, for the IPv4 endpoints: IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-compatible (`::a.b.c.d`) and the NAT64 well-known prefix (`64:ff9b::a.b.c.d`). Deno
 * folds the mapped form onto the IPv4 entry by itself; it is listed anyway so the promise does
 * not rest on that normalisation. Other embeddings cannot be listed: 6to4 (`2002:…`) and
 * network-specific NAT64 prefixes leave free bits an exact entry cannot cover.
 */
export function embeddedForms(v4: string): string[] {
  return [`::ffff:${v4}`, `::${v4}`, `64:ff9b::${v4}`];
}

/** Whether dotted quad `v4` lies in {@link LINK_LOCAL_V4}. */
function linkLocal(v4: string): boolean {
  return v4.startsWith("169.254.");
}

/**
 * The production permission set's net deny list, in deno.json's order and spelling: the
 * link-local range, each IPv4 endpoint the range does not cover, the IPv6 spellings of every
 * IPv4 endpoint, the IPv6 endpoints (bracketed: Deno requires it), then the host names.
 */
export function netDenyList(): string[] {
  const bracket = (v6: string) => `[${v6}]`;
  return [
    LINK_LOCAL_V4,
    ...METADATA_V4.filter((e) => !linkLocal(e.address)).map((e) => e.address),
    ...METADATA_V4.flatMap((e) => embeddedForms(e.address).map(bracket)),
    ...METADATA_V6.map((e) => bracket(e.address)),
    ...METADATA_HOST_NAMES,
  ];
}
