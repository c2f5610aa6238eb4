/**
 * `web_fetch` end to end against a local HTTPS server. The server is on loopback, so each tool
 * here lets the FIRST hop through with `firstHopPolicy` (and maps test names to 127.0.0.1 with
 * an injected resolver); every later hop is judged by the real policy unless a test says
 * otherwise. The names (`public.example`, …) exist in no DNS: a fetch that succeeds proves the
 * connection went to the address the fence validated, while TLS still verified the name.
 * Nothing here touches a non-loopback address.
 */
import assert from "node:assert/strict";
import { type AddressPolicy, publicAddressPolicy } from "../../lib/net/address_policy.ts";
import type { Resolver } from "../../lib/net/dns.ts";
import {
  MAX_FETCH_BYTES,
  USER_AGENT,
  type WebFetchOptions,
  WebFetchTool,
} from "../../lib/tools/web_fetch.ts";

// A throwaway CA and a leaf for public.example, second.example, inward.example, 127.0.0.1 and
// ::1, valid 2000–2199. Test-only key material; it protects nothing.
const CA = `-----BEGIN CERTIFICATE-----
MIIBbDCCARKgAwIBAgICEAAwCgYIKoZIzj0EAwIwHDEaMBgGA1UEAwwRd2ViX2Zl
dGNoIHRlc3QgQ0EwIBcNMDAwMTAxMDAwMDAwWhgPMjE5OTEyMzEwMDAwMDBaMBwx
GjAYBgNVBAMMEXdlYl9mZXRjaCB0ZXN0IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAEvxwwWMjD2daicejR9gMNF/LIde50lidi1czHuSWdgi+sqZ4KSwraePXo
c4uyP6inzhcjDgH31L7xrlkbHxR1l6NCMEAwDwYDVR0TAQH/BAUwAwEB/zAOBgNV
HQ8BAf8EBAMCAgQwHQYDVR0OBBYEFAI+t7Oyib+AR9spO5h+AJLCBVeoMAoGCCqG
SM49BAMCA0gAMEUCIQCgU0s8AviYv+vjFz/N77i5tnauGjgZ/JP6J9tC4Ec25QIg
ANomvcQRecQrKvbEFjOBbrJluzLRSMtBPLpXjrKWJTI=
-----END CERTIFICATE-----
`;
const CERT = `-----BEGIN CERTIFICATE-----
MIIB6zCCAZGgAwIBAgICEAEwCgYIKoZIzj0EAwIwHDEaMBgGA1UEAwwRd2ViX2Zl
dGNoIHRlc3QgQ0EwIBcNMDAwMTAxMDAwMDAwWhgPMjE5OTEyMzEwMDAwMDBaMBkx
FzAVBgNVBAMMDnB1YmxpYy5leGFtcGxlMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcD
QgAEizjrvSnI8PIbg+mEfkMKglH8hsduf4nj5xSRINuQQFwhI07e8P+5CYKRNTOF
Sokc5dhKKaHsxkdUdZDwIFyU56OBwzCBwDBRBgNVHREESjBIgg5wdWJsaWMuZXhh
bXBsZYIOc2Vjb25kLmV4YW1wbGWCDmlud2FyZC5leGFtcGxlhwR/AAABhxAAAAAA
AAAAAAAAAAAAAAABMAkGA1UdEwQCMAAwEwYDVR0lBAwwCgYIKwYBBQUHAwEwCwYD
VR0PBAQDAgeAMB0GA1UdDgQWBBS0Nk+SvgWztP6pplGnfQ2a1Qp/mDAfBgNVHSME
GDAWgBQCPrezsom/gEfbKTuYfgCSwgVXqDAKBggqhkjOPQQDAgNIADBFAiBOqyWa
DGnYQTLoeXdXW13fQDHCsHvNFtJ5OLfs3Dx1QgIhAOfsoCauavMqh3ncI6M9LJSa
as5o6jKFV+su1SMUxrJh
-----END CERTIFICATE-----
`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgsnvsdoSVfVMRMI8M
xs9F+hLoowBWGOhZjQyTqbYsTqihRANCAASLOOu9Kcjw8huD6YR+QwqCUfyGx25/
iePnFJEg25BAXCEjTt7w/7kJgpE1M4VKiRzl2EopoezGR1R1kPAgXJTn
-----END PRIVATE KEY-----
`;

const PAGE = `<!doctype html><html><head><title>A &amp; B</title>
<style>p { color: red }</style><script>document.write("<p>injected</p>")</script></head>
<body><h1>Heading</h1><p>Hello <b>world</b> &mdash; caf&eacute;.</p><ul><li>one</li><li>two</li></ul></body></html>`;

/** Lets 127.0.0.1 through and judges everything else for real. */
const LOOPBACK_OK: AddressPolicy = (a) => a.text === "127.0.0.1" ? null : publicAddressPolicy(a);

const RESOLVER: Resolver = (host) =>
  Promise.resolve(
    ["public.example", "second.example", "inward.example", "wrong.example"].includes(host)
      ? ["127.0.0.1"]
      : [],
  );

interface Local {
  readonly port: number;
  readonly hits: string[];
  readonly origin: string;
}

const gzipped = new Uint8Array(
  await new Response(
    new Blob(["compressed text ".repeat(100)]).stream().pipeThrough(new CompressionStream("gzip")),
  ).arrayBuffer(),
);

/** Runs `body` against a fresh local HTTPS server, then shuts it down. */
async function withServer(body: (local: Local) => Promise<void>): Promise<void> {
  const hits: string[] = [];
  const stop = new AbortController();
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: CERT, key: KEY, onListen() {} },
    (req): Promise<Response> => route(req, hits, stop.signal, server.addr.port),
  );
  const port = server.addr.port;
  try {
    await body({ port, hits, origin: `https://public.example:${port}` });
  } finally {
    stop.abort();
    await server.shutdown();
  }
}

function wait(ms: number, ...signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      resolve();
    }
    for (const s of signals) s.addEventListener("abort", done, { once: true });
  });
}

async function route(
  req: Request,
  hits: string[],
  stop: AbortSignal,
  port: number,
): Promise<Response> {
  const url = new URL(req.url);
  hits.push(url.pathname);
  const redirect = (location: string, status = 302) =>
    new Response(null, { status, headers: { location } });
  const text = (body: string, type = "text/plain; charset=utf-8") =>
    new Response(body, { headers: { "content-type": type } });
  const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
  if (hop) {
    return Number(hop[1]) === 0 ? text(PAGE, "text/html") : redirect(`/hop/${Number(hop[1]) - 1}`);
  }
  switch (url.pathname) {
    case "/page":
      return text(PAGE, "text/html; charset=utf-8");
    case "/json":
      return text('{"answer": 42, "list": [1, 2]}', "application/json");
    case "/plain":
      return text("line one\n  indented line two\n");
    case "/echo":
      return text(
        `host=${req.headers.get("host")} ua=${req.headers.get("user-agent")} ` +
          `encoding=${req.headers.get("accept-encoding")}`,
      );
    case "/sized":
      return text("x".repeat(Number(url.searchParams.get("n"))));
    case "/utf8":
      return text("é".repeat(600));
    case "/endless": {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent++;
          controller.enqueue(new TextEncoder().encode("y".repeat(16 * 1024)));
          if (stop.aborted || sent > 10_000) controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    }
    case "/png":
      return new Response(new Uint8Array(2048), { headers: { "content-type": "image/png" } });
    case "/untyped":
      return new Response(new Uint8Array([0, 1, 2, 3, 4]));
    case "/gzip":
      return new Response(gzipped, {
        headers: { "content-type": "text/plain", "content-encoding": "gzip" },
      });
    case "/missing":
      return new Response("no such page", { status: 404 });
    case "/redirect-inward":
      return redirect(`https://127.0.0.1:${port}/secret`);
    case "/redirect-inward-name":
      return redirect(`https://inward.example:${port}/secret`, 307);
    case "/redirect-metadata":
      return redirect("https://169.254.169.254/latest/meta-data/iam/security-credentials/");
    case "/redirect-mapped":
      return redirect(`https://[::ffff:127.0.0.1]:${port}/secret`, 301);
    case "/redirect-http":
      return redirect(`http://public.example:${port}/page`);
    case "/redirect-relative":
      return redirect("/page", 303);
    case "/redirect-second":
      return redirect(`https://second.example:${port}/echo`, 308);
    case "/no-location":
      return new Response(null, { status: 302 });
    case "/loop":
      return redirect("/loop");
    case "/slow-head":
      await wait(60_000, stop); // a minute, unless the server stops first
      return text("too late");
    case "/slow-body": {
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          controller.enqueue(new TextEncoder().encode("start "));
          await wait(60_000, stop); // a minute, unless the server stops first
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    }
    case "/secret":
      return text("the secret");
    default:
      return new Response("unknown route", { status: 404 });
  }
}

function localTool(options: WebFetchOptions = {}): WebFetchTool {
  return new WebFetchTool({
    caCerts: [CA],
    resolver: RESOLVER,
    firstHopPolicy: LOOPBACK_OK,
    ...options,
  });
}

async function failure(
  tool: WebFetchTool,
  url: string,
  context?: { signal: AbortSignal },
): Promise<string> {
  // Refusals are answers the model reads, not thrown errors, so they arrive as the result text.
  const text = await tool.run({ url }, context ? { callId: "t", ...context } : undefined);
  assert.match(text, /^Couldn't (fetch|reach) '/, `expected a failure, got: ${text}`);
  return text;
}

// --- pinning ------------------------------------------------------------------------------

Deno.test("the connection goes to the validated address while Host, SNI and the certificate keep the name", async () => {
  await withServer(async ({ origin, port }) => {
    const text = await localTool().run({ url: `${origin}/echo` });
    assert.equal(
      text,
      `Fetched ${origin}/echo (text/plain):\n\n` +
        `host=public.example:${port} ua=${USER_AGENT} encoding=identity`,
    );
  });
});

Deno.test("certificate verification is not weakened by pinning", async () => {
  await withServer(async ({ port, hits }) => {
    const mismatch = await failure(localTool(), `https://wrong.example:${port}/echo`);
    assert.match(
      mismatch,
      /^Couldn't reach 'https:\/\/wrong\.example:\d+\/echo': could not connect to /,
    );
    assert.match(mismatch, /not valid for name "wrong\.example"/);
    const untrusted = await failure(
      localTool({ caCerts: [] }),
      `https://public.example:${port}/echo`,
    );
    assert.match(untrusted, /^Couldn't reach .*UnknownIssuer/);
    assert.deepEqual(hits, []);
  });
});

Deno.test("an IP-literal URL is verified against the certificate's IP address", async () => {
  await withServer(async ({ port }) => {
    const text = await localTool().run({ url: `https://127.0.0.1:${port}/plain` });
    assert.equal(
      text,
      `Fetched https://127.0.0.1:${port}/plain (text/plain):\n\nline one\n  indented line two`,
    );
  });
});

Deno.test("without the test seam, the local server itself is refused before any connection", async () => {
  await withServer(async ({ port, origin, hits }) => {
    const tool = new WebFetchTool({ caCerts: [CA], resolver: RESOLVER });
    assert.equal(
      await failure(tool, `https://127.0.0.1:${port}/secret`),
      `Couldn't fetch 'https://127.0.0.1:${port}/secret': refused: 127.0.0.1 is a loopback address.`,
    );
    assert.equal(
      await failure(tool, `${origin}/secret`),
      `Couldn't fetch '${origin}/secret': refused: public.example resolves to 127.0.0.1, which is a loopback address.`,
    );
    assert.deepEqual(hits, []);
  });
});

Deno.test("when one validated address refuses the connection, the next one is tried", async () => {
  await withServer(async ({ origin }) => {
    const loopback8: AddressPolicy = (a) =>
      a.family === 4 && a.bytes[0] === 127 ? null : publicAddressPolicy(a);
    const tool = localTool({
      resolver: () => Promise.resolve(["127.0.0.2", "127.0.0.1"]),
      firstHopPolicy: loopback8,
    });
    assert.match(await tool.run({ url: `${origin}/plain` }), /line one/);
  });
});

Deno.test("nothing listening is a 'Couldn't reach' with the reason", async () => {
  const message = await failure(localTool(), "https://public.example:1/");
  assert.match(
    message,
    /^Couldn't reach 'https:\/\/public\.example:1\/': could not connect to public\.example:1 \(127\.0\.0\.1\): /,
  );
});

// --- redirects: every hop re-validated ----------------------------------------------------

Deno.test("a public URL that redirects to loopback is refused at the hop, and the target is never requested", async () => {
  await withServer(async ({ origin, port, hits }) => {
    assert.equal(
      await failure(localTool(), `${origin}/redirect-inward`),
      `Couldn't fetch '${origin}/redirect-inward': redirect 1 (to https://127.0.0.1:${port}/secret) ` +
        "was refused: 127.0.0.1 is a loopback address.",
    );
    assert.deepEqual(hits, ["/redirect-inward"]);
  });
});

Deno.test("a redirect to a name that resolves inward is refused at the hop", async () => {
  await withServer(async ({ origin, port, hits }) => {
    assert.equal(
      await failure(localTool(), `${origin}/redirect-inward-name`),
      `Couldn't fetch '${origin}/redirect-inward-name': redirect 1 (to https://inward.example:${port}/secret) ` +
        "was refused: inward.example resolves to 127.0.0.1, which is a loopback address.",
    );
    assert.deepEqual(hits, ["/redirect-inward-name"]);
  });
});

Deno.test("redirects to metadata, to an IPv4-mapped loopback and to http are refused at the hop", async () => {
  await withServer(async ({ origin, port, hits }) => {
    const tool = localTool();
    assert.match(
      await failure(tool, `${origin}/redirect-metadata`),
      /redirect 1 \(to https:\/\/169\.254\.169\.254\/latest\/meta-data\/iam\/security-credentials\/\) was refused: 169\.254\.169\.254 is a cloud metadata address\.$/,
    );
    assert.match(
      await failure(tool, `${origin}/redirect-mapped`),
      /was refused: ::ffff:7f00:1 is an IPv4-mapped address embedding 127\.0\.0\.1, a loopback address\.$/,
    );
    assert.equal(
      await failure(tool, `${origin}/redirect-http`),
      `Couldn't fetch '${origin}/redirect-http': redirect 1 (to http://public.example:${port}/page) ` +
        "was refused: only https URLs are allowed (this one is http:).",
    );
    assert.deepEqual(hits, ["/redirect-metadata", "/redirect-mapped", "/redirect-http"]);
  });
});

Deno.test("allowed redirects are followed (relative and cross-host) and the final URL is reported", async () => {
  await withServer(async ({ origin, port, hits }) => {
    const tool = localTool({ policy: LOOPBACK_OK });
    const page = await tool.run({ url: `${origin}/redirect-relative` });
    assert.match(
      page,
      new RegExp(`^Fetched ${origin.replaceAll(".", "\\.")}/page \\(text/html\\):`),
    );
    const echo = await tool.run({ url: `${origin}/redirect-second` });
    assert.match(
      echo,
      new RegExp(
        `^Fetched https://second\\.example:${port}/echo .*\\n\\nhost=second\\.example:${port} `,
      ),
    );
    assert.deepEqual(hits, ["/redirect-relative", "/page", "/redirect-second", "/echo"]);
  });
});

Deno.test("five redirects are followed; a sixth is too many", async () => {
  await withServer(async ({ origin, hits }) => {
    const tool = localTool({ policy: LOOPBACK_OK });
    assert.match(await tool.run({ url: `${origin}/hop/5` }), /# Heading/);
    assert.equal(hits.length, 6);
    hits.length = 0;
    assert.equal(
      await failure(tool, `${origin}/hop/6`),
      `Couldn't fetch '${origin}/hop/6': too many redirects (more than 5).`,
    );
    assert.deepEqual(hits, ["/hop/6", "/hop/5", "/hop/4", "/hop/3", "/hop/2", "/hop/1"]);
    hits.length = 0;
    assert.equal(
      await failure(tool, `${origin}/loop`),
      `Couldn't fetch '${origin}/loop': too many redirects (more than 5).`,
    );
    assert.equal(hits.length, 6);
  });
});

Deno.test("a redirect without a Location is reported", async () => {
  await withServer(async ({ origin }) => {
    assert.equal(
      await failure(localTool(), `${origin}/no-location`),
      `Couldn't fetch '${origin}/no-location': the server sent a redirect with no location.`,
    );
  });
});

// --- deadline -----------------------------------------------------------------------------

Deno.test("a server that never answers hits the deadline", async () => {
  await withServer(async ({ origin }) => {
    const started = Date.now();
    assert.equal(
      await failure(localTool({ timeoutMs: 300 }), `${origin}/slow-head`),
      `Couldn't reach '${origin}/slow-head': timed out after 0.3 s.`,
    );
    assert.ok(Date.now() - started < 30_000, "the deadline must cut the wait short");
  });
});

Deno.test("a body that stalls mid-stream hits the same deadline", async () => {
  await withServer(async ({ origin }) => {
    const started = Date.now();
    assert.equal(
      await failure(localTool({ timeoutMs: 400 }), `${origin}/slow-body`),
      `Couldn't reach '${origin}/slow-body': timed out after 0.4 s.`,
    );
    assert.ok(Date.now() - started < 30_000, "the deadline must cut the wait short");
  });
});

Deno.test("the turn's own abort cancels the fetch", async () => {
  await withServer(async ({ origin }) => {
    const message = await failure(localTool(), `${origin}/slow-head`, {
      signal: AbortSignal.timeout(200),
    });
    assert.equal(message, `Couldn't reach '${origin}/slow-head': the fetch was cancelled.`);
  });
});

// --- body cap -----------------------------------------------------------------------------

Deno.test("a body over the cap is cut at the cap with the reference's note", async () => {
  await withServer(async ({ origin }) => {
    const text = await localTool().run({ url: `${origin}/sized?n=${MAX_FETCH_BYTES + 5000}` });
    const [header, body] = text.split("\n\n");
    assert.equal(
      header,
      `Fetched ${origin}/sized?n=${
        MAX_FETCH_BYTES + 5000
      } (text/plain):\n(truncated at 262144 bytes)`,
    );
    assert.equal(body.length, MAX_FETCH_BYTES);
  });
});

Deno.test("exactly the cap is not truncated; one byte more is", async () => {
  await withServer(async ({ origin }) => {
    const tool = localTool({ maxBytes: 1000 });
    const exact = await tool.run({ url: `${origin}/sized?n=1000` });
    assert.ok(!exact.includes("truncated"));
    assert.equal(exact.split("\n\n")[1].length, 1000);
    const over = await tool.run({ url: `${origin}/sized?n=1001` });
    assert.match(over, /^Fetched .* \(text\/plain\):\n\(truncated at 1000 bytes\)\n\nx{1000}$/);
  });
});

Deno.test("an endless body is read only up to the cap", async () => {
  await withServer(async ({ origin }) => {
    const text = await localTool({ maxBytes: 100_000 }).run({ url: `${origin}/endless` });
    assert.match(text, /\n\(truncated at 100000 bytes\)\n\n/);
    assert.equal(text.split("\n\n")[1].length, 100_000);
  });
});

Deno.test("a cap that splits a multi-byte character leaves no replacement mark", async () => {
  await withServer(async ({ origin }) => {
    const text = await localTool({ maxBytes: 1001 }).run({ url: `${origin}/utf8` });
    const body = text.split("\n\n")[1];
    assert.equal(body, "é".repeat(500));
  });
});

// --- content types ------------------------------------------------------------------------

Deno.test("HTML is reduced to readable text with its title", async () => {
  await withServer(async ({ origin }) => {
    assert.equal(
      await localTool().run({ url: `${origin}/page` }),
      `Fetched ${origin}/page (text/html):\n\nTitle: A & B\n\n# Heading\n\nHello world — café.\n\n- one\n- two`,
    );
  });
});

Deno.test("JSON and plain text pass through unchanged", async () => {
  await withServer(async ({ origin }) => {
    assert.equal(
      await localTool().run({ url: `${origin}/json` }),
      `Fetched ${origin}/json (application/json):\n\n{"answer": 42, "list": [1, 2]}`,
    );
  });
});

Deno.test("a gzip body sent despite identity is decoded", async () => {
  await withServer(async ({ origin }) => {
    const text = await localTool().run({ url: `${origin}/gzip` });
    assert.equal(
      text,
      `Fetched ${origin}/gzip (text/plain):\n\n${"compressed text ".repeat(100).trim()}`,
    );
  });
});

Deno.test("binary content is described by type and size, never dumped", async () => {
  await withServer(async ({ origin }) => {
    const tool = localTool();
    assert.equal(
      await tool.run({ url: `${origin}/png` }),
      `${origin}/png is image/png (not text; 2048 bytes) — described, not fetched into context. ` +
        "Use a tool suited to that file type if you need its contents.",
    );
    assert.match(
      await tool.run({ url: `${origin}/untyped` }),
      /\/untyped is an unknown type \(not text; 5 bytes\)/,
    );
  });
});

Deno.test("an HTTP error status is an answer, not a failure", async () => {
  await withServer(async ({ origin }) => {
    assert.equal(
      await localTool().run({ url: `${origin}/missing` }),
      `The server returned HTTP 404 for ${origin}/missing. Nothing to read.`,
    );
  });
});

Deno.test("IPv6: a name resolving to ::1 is pinned there when the test policy allows it", async () => {
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve(
      { hostname: "::1", port: 0, cert: CERT, key: KEY, onListen() {} },
      (req) => new Response(`v6 host=${req.headers.get("host")}`),
    );
  } catch {
    return; // no IPv6 loopback on this machine: nothing to prove here
  }
  try {
    const port = server.addr.port;
    const tool = localTool({
      resolver: () => Promise.resolve(["::1"]),
      firstHopPolicy: (a) => a.text === "::1" ? null : publicAddressPolicy(a),
    });
    assert.equal(
      await tool.run({ url: `https://public.example:${port}/` }),
      `Fetched https://public.example:${port}/ (text/plain):\n\nv6 host=public.example:${port}`,
    );
  } finally {
    await server.shutdown();
  }
});
