/**
 * The SSRF fence without a socket: IP spellings, the address policy, the per-hop URL checks,
 * and a hostile-URL suite run through the tool with a transport that records every dial. No
 * test here may reach the network, and each asserts that nothing was dialled.
 */
import assert from "node:assert/strict";
import { dialAddress, publicAddressPolicy } from "../../lib/net/address_policy.ts";
import { formatIPv6, ipFromBytes, parseIp, parseIPv4, parseIPv6 } from "../../lib/net/ip.ts";
import type { HttpRequest, Transport } from "../../lib/net/pinned_transport.ts";
import type { Resolver } from "../../lib/net/dns.ts";
import { checkTarget, FetchRefusal, parseTargetUrl } from "../../lib/net/target.ts";
import { WebFetchTool } from "../../lib/tools/web_fetch.ts";

/** A transport that must never be reached: it records the attempt and fails. */
function spyTransport(): { transport: Transport; dials: HttpRequest[] } {
  const dials: HttpRequest[] = [];
  const transport: Transport = (request) => {
    dials.push(request);
    return Promise.reject(new Error("the spy transport was dialled"));
  };
  return { transport, dials };
}

function tableResolver(table: Record<string, string[]>): Resolver {
  return (host) => Promise.resolve(table[host] ?? []);
}

function ip(text: string) {
  const parsed = parseIp(text);
  assert.ok(parsed, `should parse ${text}`);
  return parsed.address;
}

async function refusal(url: string, resolver: Resolver = tableResolver({})): Promise<string> {
  const { transport, dials } = spyTransport();
  const tool = new WebFetchTool({ resolver, transport });
  const text = await tool.run({ url });
  assert.match(text, /^Couldn't fetch '/, `${url} was fetched: ${text}`);
  assert.equal(dials.length, 0, `${url} must be refused before any connection`);
  return text;
}

// --- IP literals --------------------------------------------------------------------------

Deno.test("parseIPv4 reads every WHATWG spelling of 127.0.0.1", () => {
  for (
    const text of [
      "127.0.0.1",
      "2130706433",
      "0x7f000001",
      "0X7F000001",
      "0177.0.0.1",
      "0177.0000.0000.0001",
      "127.1",
      "127.0.1",
      "0x7f.1",
      "017700000001",
      "127.0.0.1.",
    ]
  ) {
    assert.deepEqual(parseIPv4(text), new Uint8Array([127, 0, 0, 1]), text);
  }
});

Deno.test("parseIPv4 rejects what is not an address", () => {
  for (
    const text of [
      "1.2.3.256",
      "0x100000000",
      "4294967296",
      "1.2.3.4.5",
      "08.1.1.1",
      "a.b",
      "",
      "1..2",
    ]
  ) {
    assert.equal(parseIPv4(text), null, text);
  }
  assert.deepEqual(parseIPv4("4294967295"), new Uint8Array([255, 255, 255, 255]));
  assert.deepEqual(parseIPv4("0x"), new Uint8Array([0, 0, 0, 0]));
});

Deno.test("parseIPv6 reads compressed, embedded-IPv4, bracketed and scoped forms", () => {
  assert.equal(formatIPv6(parseIPv6("[::1]")!.bytes), "::1");
  assert.equal(formatIPv6(parseIPv6("0:0:0:0:0:0:0:1")!.bytes), "::1");
  assert.equal(formatIPv6(parseIPv6("::ffff:127.0.0.1")!.bytes), "::ffff:7f00:1");
  assert.equal(formatIPv6(parseIPv6("::127.0.0.1")!.bytes), "::7f00:1");
  assert.equal(formatIPv6(parseIPv6("2001:DB8:0:0:1:0:0:1")!.bytes), "2001:db8::1:0:0:1");
  assert.equal(formatIPv6(parseIPv6("1:0:0:2:0:0:0:3")!.bytes), "1:0:0:2::3");
  assert.equal(formatIPv6(parseIPv6("1:2:3:4:5:6:7::")!.bytes), "1:2:3:4:5:6:7:0");
  assert.equal(formatIPv6(parseIPv6("::")!.bytes), "::");
  assert.deepEqual(parseIPv6("fe80::1%eth0")?.zone, "eth0");
  assert.deepEqual(parseIPv6("[fe80::1%25eth0]")?.zone, "eth0");
  for (
    const bad of [
      ":::",
      "1::2::3",
      "12345::",
      "1:2:3:4:5:6:7:8:9",
      "::1.2.3",
      "1.2.3.4::",
      ":1",
      "g::",
    ]
  ) {
    assert.equal(parseIPv6(bad), null, bad);
  }
});

// --- the address policy -------------------------------------------------------------------

Deno.test("the policy refuses every non-public range, naming what it is", () => {
  const cases: [string, string][] = [
    ["127.0.0.1", "a loopback address"],
    ["127.255.255.254", "a loopback address"],
    ["0.0.0.0", "an unspecified ('this network') address"],
    ["0.1.2.3", "an unspecified ('this network') address"],
    ["10.0.0.1", "a private address"],
    ["10.255.255.255", "a private address"],
    ["172.16.0.1", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.168.1.1", "a private address"],
    ["100.64.0.1", "a shared (CGNAT) address"],
    ["100.127.255.255", "a shared (CGNAT) address"],
    ["169.254.1.1", "a link-local address"],
    ["169.254.169.254", "a cloud metadata address"],
    ["169.254.170.2", "a cloud metadata address"],
    ["168.63.129.16", "a cloud metadata address"],
    ["100.100.100.200", "a cloud metadata address"],
    ["192.0.0.8", "a reserved (IETF protocol) address"],
    ["192.0.2.1", "a documentation address"],
    ["198.51.100.7", "a documentation address"],
    ["203.0.113.9", "a documentation address"],
    ["198.18.0.1", "a benchmarking address"],
    ["198.19.255.255", "a benchmarking address"],
    ["224.0.0.1", "a multicast address"],
    ["239.255.255.250", "a multicast address"],
    ["240.0.0.1", "a reserved address"],
    ["255.255.255.255", "the broadcast address"],
    ["::", "an unspecified address"],
    ["::1", "a loopback address"],
    ["fc00::1", "a unique-local (private IPv6) address"],
    ["fd12:3456::1", "a unique-local (private IPv6) address"],
    ["fd00:ec2::254", "a cloud metadata address"],
    ["fe80::1", "a link-local address"],
    ["febf::1", "a link-local address"],
    ["fec0::1", "a site-local address"],
    ["ff02::1", "a multicast address"],
    ["2001:db8::1", "a documentation address"],
    ["3fff::1", "a documentation address"],
    ["100::1", "a discard-only address"],
    ["2001::1", "a reserved (IETF protocol) address"],
    ["64:ff9b:1::1", "a local-use NAT64 address"],
    ["4000::1", "a reserved address"],
    ["::ffff:0:0:1", "a reserved address"],
    ["::ffff:127.0.0.1", "an IPv4-mapped address embedding 127.0.0.1, a loopback address"],
    [
      "::ffff:a9fe:a9fe",
      "an IPv4-mapped address embedding 169.254.169.254, a cloud metadata address",
    ],
    ["::ffff:10.0.0.1", "an IPv4-mapped address embedding 10.0.0.1, a private address"],
    ["::127.0.0.1", "an IPv4-compatible address embedding 127.0.0.1, a loopback address"],
    ["::8.8.8.8", "a deprecated IPv4-compatible address"],
    ["64:ff9b::7f00:1", "a NAT64 address embedding 127.0.0.1, a loopback address"],
    [
      "64:ff9b::169.254.169.254",
      "a NAT64 address embedding 169.254.169.254, a cloud metadata address",
    ],
    ["2002:c0a8:101::1", "a 6to4 address embedding 192.168.1.1, a private address"],
    ["2002:7f00:1::", "a 6to4 address embedding 127.0.0.1, a loopback address"],
  ];
  for (const [text, what] of cases) assert.equal(publicAddressPolicy(ip(text)), what, text);
});

Deno.test("the policy lets public addresses through, right up to each range's edge", () => {
  for (
    const text of [
      "8.8.8.8",
      "1.1.1.1",
      "9.255.255.255",
      "11.0.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "126.255.255.255",
      "128.0.0.0",
      "169.253.255.255",
      "169.255.0.0",
      "172.15.255.255",
      "172.32.0.0",
      "192.167.255.255",
      "192.169.0.0",
      "198.17.255.255",
      "198.20.0.0",
      "223.255.255.255",
      "2606:4700:4700::1111",
      "2a00:1450:4001::200e",
      "::ffff:8.8.8.8",
      "64:ff9b::8.8.8.8",
      "2002:808:808::1",
    ]
  ) {
    assert.equal(publicAddressPolicy(ip(text)), null, text);
  }
});

Deno.test("an IPv4-mapped address is dialled as the IPv4 the policy judged", () => {
  assert.equal(dialAddress(ip("::ffff:8.8.8.8")).text, "8.8.8.8");
  assert.equal(dialAddress(ip("2606:4700::1")).text, "2606:4700::1");
  assert.equal(ipFromBytes(new Uint8Array([1, 2, 3, 4])).text, "1.2.3.4");
});

// --- the per-hop URL checks ---------------------------------------------------------------

Deno.test("checkTarget dials only validated addresses, deduplicated and in resolver order", async () => {
  const target = await checkTarget(parseTargetUrl("https://Public.Example./x"), {
    resolver: tableResolver({
      "public.example": ["93.184.216.34", "::ffff:93.184.216.34", "2606:2800::1"],
    }),
    policy: publicAddressPolicy,
    signal: new AbortController().signal,
  });
  assert.deepEqual(target.addresses.map((a) => a.text), ["93.184.216.34", "2606:2800::1"]);
});

Deno.test("checkTarget refuses a resolver answer that is not a plain IP (e.g. scoped)", async () => {
  await assert.rejects(
    checkTarget(parseTargetUrl("https://odd.example/"), {
      resolver: tableResolver({ "odd.example": ["fe80::1%eth0"] }),
      policy: publicAddressPolicy,
      signal: new AbortController().signal,
    }),
    (e: unknown) =>
      e instanceof FetchRefusal &&
      e.message ===
        "refused: odd.example resolved to 'fe80::1%eth0', which is not a plain IP address.",
  );
});

// --- the hostile-URL suite, through the tool ----------------------------------------------

const LOOPBACK_SPELLINGS = [
  "https://127.0.0.1/",
  "https://2130706433/",
  "https://0x7f000001/",
  "https://0177.0.0.1/",
  "https://0177.0000.0000.0001/",
  "https://127.1/",
  "https://127.0.1/",
  "https://0x7f.1/",
  "https://017700000001/",
  "https://127.0.0.1./",
  "https://%31%32%37.0.0.1/",
  "https://127.0.0.1:8443/admin",
];

Deno.test("every IPv4 spelling of loopback is refused as loopback", async () => {
  for (const url of LOOPBACK_SPELLINGS) {
    const message = await refusal(url);
    assert.match(
      message,
      /^Couldn't fetch '.*': refused: 127\.0\.0\.1 is a loopback address\.$/,
      url,
    );
  }
  assert.equal(
    await refusal("https://127.0.0.1/"),
    "Couldn't fetch 'https://127.0.0.1/': refused: 127.0.0.1 is a loopback address.",
  );
});

Deno.test("every IPv6 spelling of loopback is refused", async () => {
  const cases: [string, RegExp][] = [
    ["https://[::1]/", /refused: ::1 is a loopback address\.$/],
    ["https://[0:0:0:0:0:0:0:1]/", /refused: ::1 is a loopback address\.$/],
    ["https://[::ffff:127.0.0.1]/", /embedding 127\.0\.0\.1, a loopback address\.$/],
    ["https://[::ffff:7f00:1]/", /IPv4-mapped address embedding 127\.0\.0\.1, a loopback/],
    ["https://[0:0:0:0:0:ffff:7f00:0001]/", /IPv4-mapped address embedding 127\.0\.0\.1/],
    ["https://[::127.0.0.1]/", /IPv4-compatible address embedding 127\.0\.0\.1, a loopback/],
    ["https://[64:ff9b::127.0.0.1]/", /NAT64 address embedding 127\.0\.0\.1, a loopback/],
    ["https://[2002:7f00:1::1]/", /6to4 address embedding 127\.0\.0\.1, a loopback/],
    ["https://[::]/", /refused: :: is an unspecified address\.$/],
    ["https://0.0.0.0/", /refused: 0\.0\.0\.0 is an unspecified/],
    ["https://0/", /refused: 0\.0\.0\.0 is an unspecified/],
  ];
  for (const [url, expected] of cases) assert.match(await refusal(url), expected, url);
});

Deno.test("every spelling of 169.254.169.254 is refused as cloud metadata", async () => {
  for (
    const url of [
      "https://169.254.169.254/latest/meta-data/",
      "https://2852039166/",
      "https://0xa9fea9fe/",
      "https://0251.0376.0251.0376/",
      "https://0xa9.0xfe.0xa9.0xfe/",
      "https://169.254.43518/",
      "https://169.16689662/",
      "https://[::ffff:169.254.169.254]/",
      "https://[::ffff:a9fe:a9fe]/",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[fd00:ec2::254]/",
      "https://100.100.100.200/",
      "https://168.63.129.16/",
      "https://169.254.170.2/v2/credentials",
    ]
  ) {
    assert.match(await refusal(url), /a cloud metadata address\.$/, url);
  }
});

Deno.test("private, link-local, CGNAT, multicast, reserved and documentation literals are refused", async () => {
  const cases: [string, string][] = [
    ["https://10.0.0.1/", "a private address"],
    ["https://172.16.5.4/", "a private address"],
    ["https://192.168.0.1/", "a private address"],
    ["https://0xc0a80001/", "a private address"],
    ["https://100.64.0.1/", "a shared (CGNAT) address"],
    ["https://169.254.0.1/", "a link-local address"],
    ["https://224.0.0.251/", "a multicast address"],
    ["https://255.255.255.255/", "the broadcast address"],
    ["https://240.0.0.1/", "a reserved address"],
    ["https://192.0.2.10/", "a documentation address"],
    ["https://198.18.0.1/", "a benchmarking address"],
    ["https://[fd00::1]/", "a unique-local (private IPv6) address"],
    ["https://[fe80::1]/", "a link-local address"],
    ["https://[ff02::1]/", "a multicast address"],
    ["https://[2001:db8::1]/", "a documentation address"],
    [
      "https://[::ffff:192.168.1.1]/",
      "an IPv4-mapped address embedding 192.168.1.1, a private address",
    ],
  ];
  for (const [url, what] of cases) {
    assert.match(await refusal(url), new RegExp(`is ${escape(what)}\\.$`), url);
  }
});

Deno.test("a zone id makes the URL invalid, so scoped addresses never reach the fence", async () => {
  assert.equal(
    await refusal("https://[fe80::1%25eth0]/"),
    "Couldn't fetch 'https://[fe80::1%25eth0]/': that is not a valid absolute URL.",
  );
});

Deno.test("names that are local by definition are refused without resolving", async () => {
  let lookups = 0;
  const resolver: Resolver = () => {
    lookups++;
    return Promise.resolve(["93.184.216.34"]);
  };
  const cases: [string, RegExp][] = [
    [
      "https://localhost/",
      /refused: localhost is not a public host \(\.localhost names are local\)\.$/,
    ],
    ["https://LOCALHOST./", /refused: localhost is not a public host/],
    ["https://api.localhost/", /refused: api\.localhost is not a public host/],
    ["https://printer.local/", /\(\.local names are local\)/],
    [
      "https://metadata.google.internal/",
      /refused: metadata\.google\.internal is a cloud metadata host name\.$/,
    ],
    ["https://gateway.internal/", /\(\.internal names are local\)/],
    ["https://router.home.arpa/", /\(\.home\.arpa names are local\)/],
    ["https://intranet/", /refused: 'intranet' is a single-label name, not a public host\.$/],
  ];
  for (const [url, expected] of cases) assert.match(await refusal(url, resolver), expected, url);
  assert.equal(lookups, 0);
});

Deno.test("a name that resolves inward (even partly) is refused, naming the address", async () => {
  const resolver = tableResolver({
    "intranet.example": ["127.0.0.1"],
    "mixed.example": ["93.184.216.34", "10.0.0.5"],
    "mixed6.example": ["93.184.216.34", "2606:2800::1", "::1"],
    "mapped.example": ["::ffff:169.254.169.254"],
    "meta.example": ["169.254.169.254"],
    "ula.example": ["fd12::7"],
  });
  const cases: [string, string][] = [
    ["intranet.example", "resolves to 127.0.0.1, which is a loopback address."],
    ["mixed.example", "resolves to 10.0.0.5, which is a private address."],
    ["mixed6.example", "resolves to ::1, which is a loopback address."],
    [
      "mapped.example",
      "resolves to ::ffff:a9fe:a9fe, which is an IPv4-mapped address embedding 169.254.169.254, " +
      "a cloud metadata address.",
    ],
    ["meta.example", "resolves to 169.254.169.254, which is a cloud metadata address."],
    ["ula.example", "resolves to fd12::7, which is a unique-local (private IPv6) address."],
  ];
  for (const [host, tail] of cases) {
    assert.equal(
      await refusal(`https://${host}/x`, resolver),
      `Couldn't fetch 'https://${host}/x': refused: ${host} ${tail}`,
    );
  }
});

Deno.test("an unresolvable name, or a failing resolver, is a refusal, not a crash", async () => {
  assert.equal(
    await refusal("https://nowhere.example/"),
    "Couldn't fetch 'https://nowhere.example/': could not resolve host 'nowhere.example'.",
  );
  const broken: Resolver = () => Promise.reject(new Error("SERVFAIL"));
  assert.equal(
    await refusal("https://broken.example/", broken),
    "Couldn't fetch 'https://broken.example/': could not resolve host 'broken.example': SERVFAIL.",
  );
});

Deno.test("non-https schemes, credentials and relative URLs are refused", async () => {
  const cases: [string, string][] = [
    ["http://example.com/", "only https URLs are allowed (this one is http:)."],
    ["HTTP://example.com/", "only https URLs are allowed (this one is http:)."],
    ["file:///etc/passwd", "only https URLs are allowed (this one is file:)."],
    ["data:text/plain,hello", "only https URLs are allowed (this one is data:)."],
    ["ftp://example.com/x", "only https URLs are allowed (this one is ftp:)."],
    ["javascript:alert(1)", "only https URLs are allowed (this one is javascript:)."],
    ["wss://example.com/", "only https URLs are allowed (this one is wss:)."],
    [
      "https://user:secret@example.com/",
      "URLs carrying credentials (user:password@) are not allowed.",
    ],
    ["https://user@example.com/", "URLs carrying credentials (user:password@) are not allowed."],
    ["/relative/path", "that is not a valid absolute URL."],
    ["https://", "that is not a valid absolute URL."],
  ];
  for (const [url, why] of cases) {
    assert.equal(await refusal(url), `Couldn't fetch '${url}': ${why}`, url);
  }
});

Deno.test("a missing or blank url is an error the model can read", async () => {
  const tool = new WebFetchTool({ transport: spyTransport().transport });
  for (const args of [{}, { url: "" }, { url: "   " }, { url: null }, { url: 42 }, null]) {
    await assert.rejects(tool.run(args), { message: "'web_fetch' needs a 'url' to fetch." });
  }
});

Deno.test("the tool is benign: no capabilities, the reference's name and schema", () => {
  const tool = new WebFetchTool();
  assert.equal(tool.name, "web_fetch");
  assert.equal(tool.requires.size, 0);
  assert.deepEqual(tool.spec().parameters.required, ["url"]);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
