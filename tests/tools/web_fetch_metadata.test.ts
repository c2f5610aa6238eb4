/**
 * One list of metadata addresses, two fences (docs/security.md#the-permission-set):
 * lib/net/metadata_addresses.ts is what web_fetch's address policy refuses and what the
 * production permission set denies. deno.json cannot import it, so this file holds deno.json's
 * deny list equal to what the module generates, pins the addresses the list must never lose,
 * and checks that web_fetch refuses every entry and every spelling, before any dial. That the
 * permission set enforces the list in a real process is tests/e2e/net_deny.test.ts.
 */
import assert from "node:assert/strict";
import manifest from "../../deno.json" with { type: "json" };
import { publicAddressPolicy } from "../../lib/net/address_policy.ts";
import { parseIp } from "../../lib/net/ip.ts";
import {
  CLOUD_RESOLVERS,
  embeddedForms,
  LINK_LOCAL_V4,
  METADATA_HOST_NAMES,
  METADATA_V4,
  METADATA_V6,
  netDenyList,
} from "../../lib/net/metadata_addresses.ts";
import type { HttpRequest, Transport } from "../../lib/net/pinned_transport.ts";
import type { Resolver } from "../../lib/net/dns.ts";
import { WebFetchTool } from "../../lib/tools/web_fetch.ts";
import { NET_DENY_LIST } from "../../lib/runtime/permissions.ts";

const DENY: readonly string[] = manifest.permissions.harness.net.deny;

/** Runs web_fetch on `url` with a transport that must never be dialled; returns the reply. */
async function refusal(url: string, resolver: Resolver): Promise<string> {
  const dials: HttpRequest[] = [];
  const transport: Transport = (request) => {
    dials.push(request);
    return Promise.reject(new Error("dialled"));
  };
  const text = await new WebFetchTool({ resolver, transport }).run({ url });
  assert.equal(dials.length, 0, `${url} was dialled`);
  return text;
}

const noLookups: Resolver = () => Promise.reject(new Error("no lookup expected"));

Deno.test("deno.json's net deny list is exactly what metadata_addresses.ts generates", () => {
  assert.deepEqual(DENY, netDenyList());
  // The report resolved-config prints checks the same list.
  assert.deepEqual(NET_DENY_LIST, DENY);
});

Deno.test("the list keeps every address the harness promises to deny", () => {
  // Independent of the module's own table: deleting an endpoint there must fail here.
  const required = [
    "169.254.0.0/16",
    "168.63.129.16",
    "100.100.100.200",
    "192.0.0.192",
    "[fd00:ec2::254]",
    "metadata.google.internal",
  ];
  for (const v4 of ["169.254.169.254", "168.63.129.16", "100.100.100.200", "192.0.0.192"]) {
    required.push(`[::ffff:${v4}]`, `[::${v4}]`, `[64:ff9b::${v4}]`);
  }
  for (const entry of required) assert.ok(DENY.includes(entry), `${entry} is not denied`);
  // Every IPv4 endpoint is denied with all three IPv6 spellings, and directly or by the range.
  for (const { address } of METADATA_V4) {
    assert.ok(DENY.includes(address) || address.startsWith("169.254."), address);
    for (const form of embeddedForms(address)) assert.ok(DENY.includes(`[${form}]`), form);
  }
  assert.ok(DENY.includes(LINK_LOCAL_V4));
  // The resolvers stay out: Deno.resolveDns checks the box's name servers against this list.
  for (const { address } of CLOUD_RESOLVERS) {
    assert.ok(!DENY.includes(address) && !DENY.includes(`[${address}]`), address);
  }
});

Deno.test("every entry is one Deno accepts: IPv4, IPv4 CIDR, bracketed exact IPv6, or a name", () => {
  for (const entry of DENY) {
    const bracketed = /^\[(.+)\]$/.exec(entry);
    if (bracketed) {
      assert.equal(parseIp(bracketed[1])?.address.family, 6, entry);
    } else if (/^[\d.]+\/\d+$/.test(entry)) {
      assert.equal(parseIp(entry.split("/")[0])?.address.family, 4, entry);
    } else if (parseIp(entry) === null) {
      assert.match(entry, /^[a-z0-9-]+(\.[a-z0-9-]+)*$/, `${entry} is not a plain host name`);
    } else {
      // Deno refuses an unbracketed IPv6 entry at start-up, so only IPv4 may stand bare.
      assert.equal(parseIp(entry)?.address.family, 4, entry);
    }
  }
});

Deno.test("web_fetch refuses every IP entry and endpoint as cloud metadata, before any dial", async () => {
  const hosts = new Set<string>();
  for (const { address } of [...METADATA_V4, ...METADATA_V6, ...CLOUD_RESOLVERS]) {
    hosts.add(address);
  }
  for (const entry of DENY) {
    const bracketed = /^\[(.+)\]$/.exec(entry);
    if (bracketed) hosts.add(bracketed[1]);
    else if (parseIp(entry)) hosts.add(entry);
  }
  for (const host of hosts) {
    const url = host.includes(":") ? `https://[${host}]/` : `https://${host}/`;
    assert.match(await refusal(url, noLookups), /a cloud metadata address\.$/, url);
  }
});

Deno.test("web_fetch refuses the whole link-local range the deny list covers", async () => {
  for (const host of ["169.254.0.0", "169.254.0.1", "169.254.100.7", "169.254.255.255"]) {
    const url = `https://${host}/`;
    assert.match(await refusal(url, noLookups), /refused: .* is a link-local address\.$/, url);
  }
});

Deno.test("web_fetch refuses every metadata host name without a lookup", async () => {
  for (const name of METADATA_HOST_NAMES) {
    for (const spelling of [name, `${name.toUpperCase()}.`]) {
      assert.equal(
        await refusal(`https://${spelling}/`, noLookups),
        `Couldn't fetch 'https://${spelling}/': refused: ${name} is a cloud metadata host name.`,
      );
    }
  }
});

Deno.test("a name resolving to any endpoint, in any spelling, is refused", async () => {
  for (const { address } of METADATA_V4) {
    for (const form of [address, ...embeddedForms(address)]) {
      const resolver: Resolver = () => Promise.resolve([form]);
      const text = await refusal("https://innocent.example/", resolver);
      assert.match(text, /a cloud metadata address\.$/, form);
      assert.ok(text.includes(address), `${form}: ${text}`);
    }
  }
  for (const { address } of METADATA_V6) {
    const resolver: Resolver = () => Promise.resolve([address]);
    const text = await refusal("https://innocent.example/", resolver);
    assert.match(text, /which is a cloud metadata address\.$/, address);
  }
});

Deno.test("the address policy judges each endpoint by the shared table", () => {
  for (const { address } of [...METADATA_V4, ...METADATA_V6, ...CLOUD_RESOLVERS]) {
    const parsed = parseIp(address);
    assert.ok(parsed, address);
    assert.equal(publicAddressPolicy(parsed.address), "a cloud metadata address", address);
  }
});
