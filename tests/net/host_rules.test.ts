/**
 * Host rules: how entries and request hosts normalise and match, which entries refuse, and the
 * guarded fetch's redirect walk against local servers (127.0.0.1 allowed, `localhost` not).
 */
import assert from "node:assert/strict";
import {
  allowNetList,
  compileHostRules,
  compileRule,
  guardedFetch,
  hostAllowed,
  HostNotAllowedError,
  HostRuleError,
  normaliseHost,
} from "../../lib/net/host_rules.ts";
import { parseHostRules } from "../../lib/config/host_rules.ts";
import { ConfigError } from "../../lib/config/errors.ts";

const rules = (...entries: string[]) => compileHostRules(entries, "/cfg/host_rules.json");

Deno.test("hosts normalise: case, trailing dot, IDNA, IP spellings", () => {
  const table: [string, string | null][] = [
    ["Example.COM", "example.com"],
    ["example.com.", "example.com"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["BÜCHER.example.", "xn--bcher-kva.example"],
    ["xn--bcher-kva.example", "xn--bcher-kva.example"],
    ["[::1]", "::1"],
    ["0:0::1", "::1"],
    ["[0:0:0:0:0:0:0:1]", "::1"],
    ["2001:DB8:0:0::1", "2001:db8::1"],
    ["127.1", "127.0.0.1"],
    ["0x7f.0.0.1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["", null],
    ["a..b", null],
    ["ex ample.com", null],
    ["a/b", null],
    ["host:80", null],
  ];
  for (const [host, expected] of table) assert.equal(normaliseHost(host), expected, host);
});

Deno.test("rules match the whole normalised host, exact or anchored regex", () => {
  const table: [string[], string, boolean][] = [
    [["bücher.example"], "xn--bcher-kva.example", true],
    [["xn--bcher-kva.example"], "bücher.example", true],
    [["example.com."], "EXAMPLE.com", true],
    [["example.com"], "example.com.", true],
    [["example.com"], "www.example.com", false],
    [["example.com"], "example.com.evil.net", false],
    [["[::1]"], "0:0::1", true],
    [["0:0::1"], "[::1]", true],
    [["::1"], "127.0.0.1", false],
    [["127.0.0.1"], "127.1", true],
    [["127.0.0.1"], "localhost", false],
    [["regex:example"], "example", true],
    [["regex:example"], "example.com", false],
    [["regex:example"], "myexample", false],
    [["regex:.*\\.example\\.com"], "api.example.com", true],
    [["regex:.*\\.example\\.com"], "example.com", false],
    [["regex:.*\\.example\\.com"], "api.example.com.evil.net", false],
    [["regex:a|b"], "ab", false],
    [["regex:a|b"], "b", true],
    [["regex:xn--bcher-kva\\.example"], "Bücher.example.", true],
    [["regex:::1"], "[::1]", true],
    [[], "example.com", false],
  ];
  for (const [entries, host, expected] of table) {
    assert.equal(hostAllowed(rules(...entries), host), expected, `${entries} vs ${host}`);
  }
});

Deno.test("entries that are not rules refuse, naming the entry and the fix", () => {
  const table: [string, RegExp][] = [
    ["example.com:443", /"example\.com:443" carries a port.*Fix: write the host alone/],
    ["[::1]:8080", /carries a port/],
    ["10.0.0.0/8", /"10\.0\.0\.0\/8" looks like a CIDR range.*Fix:/],
    ["https://example.com", /looks like a CIDR range or a URL/],
    ["*.example.com", /"\*\.example\.com" is a glob.*Fix: list each host, or write a regex/],
    ["regex:", /is an empty regex\. Fix:/],
    ["regex:(", /"regex:\(" is not a valid regular expression.*Fix: correct the pattern/],
    ["regex:a)|(b", /not a valid regular expression/],
    ["fe80::1%eth0", /scoped IPv6 address/],
    ["", /is not a host name or IP address/],
    ["a b", /is not a host name or IP address/],
  ];
  for (const [entry, message] of table) {
    assert.throws(
      () => compileRule(entry),
      (e) => e instanceof HostRuleError && message.test(e.message),
      entry,
    );
  }
});

Deno.test("the file refuses with its path, the entry's index and the fix", () => {
  const file = "/cfg/host_rules.json";
  assert.throws(
    () => parseHostRules({ allow: ["api.openai.com", "api.openai.com:443"] }, file),
    (e) =>
      e instanceof ConfigError &&
      e.message.startsWith(`${file} entry allow[1] "api.openai.com:443" carries a port`),
  );
  assert.throws(
    () => parseHostRules(["api.openai.com"], file),
    (e) =>
      e instanceof ConfigError &&
      /host_rules\.json is invalid.*Fix: write \{"allow"/.test(e.message),
  );
  assert.throws(
    () => parseHostRules({ allow: [], deny: [] }, file),
    (e) => e instanceof ConfigError && e.message.includes("key 'deny'"),
  );
  assert.throws(
    () => parseHostRules({ allow: [7] }, file),
    (e) => e instanceof ConfigError && e.message.includes("key 'allow[0]'"),
  );
  assert.equal(hostAllowed(parseHostRules({ allow: [] }, file), "example.com"), false);
});

Deno.test("the outer fence's list: exact hosts only, IPv6 bracketed", () => {
  assert.deepEqual(allowNetList(rules("Example.com", "::1", "127.1")), [
    "example.com",
    "[::1]",
    "127.0.0.1",
  ]);
  assert.equal(allowNetList(rules("example.com", "regex:.*\\.example\\.com")), null);
});

/** A local server: `/hop?to=<url>` redirects there with `status`, anything else answers. */
function redirector() {
  const seen: { path: string; method: string; auth: string | null; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    seen.push({
      path: url.pathname,
      method: req.method,
      auth: req.headers.get("authorization"),
      body: await req.text(),
    });
    const to = url.searchParams.get("to");
    if (to) {
      return new Response(null, {
        status: Number(url.searchParams.get("status") ?? 302),
        headers: { location: to },
      });
    }
    return new Response("landed");
  });
  return { seen, server, origin: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("a redirect that leaves the allowlist is refused before it is dialled", async () => {
  const { seen, server, origin } = redirector();
  const port = server.addr.port;
  const refusals: HostNotAllowedError[] = [];
  try {
    const guarded = guardedFetch(rules("127.0.0.1"), fetch, {
      via: "platform",
      onRefused: (r) => refusals.push(r),
    });
    // Same server, by a name the rules do not list: localhost resolves to it, so only the
    // rules can stop the hop.
    const to = encodeURIComponent(`http://localhost:${port}/landed`);
    await assert.rejects(
      guarded(`${origin}/hop?to=${to}`),
      (e) =>
        e instanceof HostNotAllowedError && e.host === "localhost" && e.via === "platform" &&
        e.message === "redirect 1 goes to host 'localhost', which the host rules in " +
            "/cfg/host_rules.json do not allow.",
    );
    assert.deepEqual(seen.map((s) => s.path), ["/hop"], "the refused hop was never sent");
    assert.equal(refusals.length, 1);

    // Within the allowlist the walk follows, checking each hop.
    const inside = encodeURIComponent(`${origin}/landed`);
    const response = await guarded(`${origin}/hop?to=${inside}`);
    assert.equal(await response.text(), "landed");
    assert.equal(response.status, 200);

    // The first hop itself: refused with no request at all.
    const before = seen.length;
    await assert.rejects(guarded(`http://localhost:${port}/`), HostNotAllowedError);
    assert.equal(seen.length, before);
  } finally {
    await server.shutdown();
  }
});

Deno.test("the walk follows fetch's rules: 303 becomes GET, 307 keeps the body, auth stays in origin", async () => {
  const { seen, server, origin } = redirector();
  const port = server.addr.port;
  try {
    const guarded = guardedFetch(rules("127.0.0.1", "localhost"), fetch, { via: "model" });
    const init = { method: "POST", body: "payload", headers: { authorization: "Bearer k" } };
    await (await guarded(`${origin}/hop?status=307&to=${encodeURIComponent(`${origin}/a`)}`, init))
      .text();
    await (await guarded(`${origin}/hop?status=303&to=${encodeURIComponent(`${origin}/b`)}`, init))
      .text();
    const away = encodeURIComponent(`http://localhost:${port}/c`);
    await (await guarded(`${origin}/hop?status=308&to=${away}`, init)).text();
    // A Request object with a body is replayed on a 307 too (the OpenRouter SDK sends these).
    const request = new Request(
      `${origin}/hop?status=307&to=${encodeURIComponent(`${origin}/d`)}`,
      init,
    );
    await (await guarded(request)).text();
    const hops = seen.filter((s) => s.path !== "/hop");
    assert.deepEqual(hops, [
      { path: "/a", method: "POST", auth: "Bearer k", body: "payload" },
      { path: "/b", method: "GET", auth: "Bearer k", body: "" },
      { path: "/c", method: "POST", auth: null, body: "payload" },
      { path: "/d", method: "POST", auth: "Bearer k", body: "payload" },
    ]);

    // manual: the caller sees the 3xx, and nothing further is requested.
    const manual = await guarded(`${origin}/hop?to=${away}`, { redirect: "manual" });
    await manual.body?.cancel();
    assert.equal(manual.status, 302);
  } finally {
    await server.shutdown();
  }
});

Deno.test("no rules: the inner fetch itself, unchanged", () => {
  assert.equal(guardedFetch(null, fetch, { via: "ntfy" }), fetch);
});
