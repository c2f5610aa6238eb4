/**
 * The one fetch path's two doors against real local servers: `outboundFetch` refuses what is
 * not http(s) and passes the rest through the host fence; `handedFetch` reads a URL a vendor or
 * a peer handed over, trusting only the configured origins and putting every other hop through
 * the address fence (resolve, judge, dial the judged address). Every refusal is typed, heard by
 * the process listener, and made before any request reaches the refused server, which the
 * stubs' request logs prove.
 */
import assert from "node:assert/strict";
import { installFence } from "../../lib/net/host_fence.ts";
import { compileHostRules, hostFence, HostNotAllowedError } from "../../lib/net/host_rules.ts";
import { handedFetch, outboundFetch } from "../../lib/net/outbound.ts";
import { onUrlRefused, UrlRefusedError } from "../../lib/net/refusal.ts";
import { routes, startStub } from "../support/http_stub.ts";

/** Runs `fn` with a listener installed; returns every refusal it heard. */
async function heard(fn: () => Promise<void>): Promise<UrlRefusedError[]> {
  const refusals: UrlRefusedError[] = [];
  onUrlRefused((refusal) => refusals.push(refusal));
  try {
    await fn();
  } finally {
    onUrlRefused(null);
  }
  return refusals;
}

const refusedFor = (reason: RegExp, hop = 0) => (error: unknown) =>
  error instanceof UrlRefusedError && reason.test(error.reason) && error.hop === hop;

/** A file with a secret in it: a `file:` URL must never read it. */
async function secretFile(): Promise<string> {
  const path = await Deno.makeTempFile({ prefix: "fetch-policy-" });
  await Deno.writeTextFile(path, "BASECRADLE_TOKEN=bc_uat_secret\n");
  return path;
}

Deno.test("outboundFetch: file:, data: and ftp: URLs are refused, typed and heard, never read", async () => {
  const path = await secretFile();
  try {
    // The control: the runtime's own fetch reads the file, so only the path can be what stops it.
    assert.match(await (await fetch(`file://${path}`)).text(), /bc_uat_secret/);
    const send = outboundFetch("platform");
    const refusals = await heard(async () => {
      for (const url of [`file://${path}`, "data:text/plain,hello", "ftp://example.com/x"]) {
        await assert.rejects(send(url), refusedFor(/only http and https URLs are fetched/));
      }
    });
    assert.deepEqual(refusals.map((r) => [r.via, r.target]), [
      ["platform", "file:"],
      ["platform", "data:"],
      ["platform", "ftp:"],
    ]);
    // The message names the scheme, never the path (which may be a credential).
    assert.equal(
      refusals[0].message,
      "the URL file:… was refused: only http and https URLs are fetched.",
    );
    assert.ok(!refusals.some((r) => r.message.includes(path)));
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("outboundFetch: an http request reaches its server; the host rules still apply", async () => {
  await using stub = await startStub(() => new Response("hi"));
  const send = outboundFetch("ntfy");
  assert.equal(await (await send(`${stub.url}/x`)).text(), "hi");
  installFence(hostFence(compileHostRules(["localhost"], "/cfg/host_rules.json")));
  try {
    await assert.rejects(
      send(`${stub.url}/x`),
      (e) => e instanceof HostNotAllowedError && e.via === "ntfy",
    );
  } finally {
    installFence(null);
  }
  assert.equal(stub.requests.length, 1, "the refused request never reached the server");
});

Deno.test("handedFetch: a URL on the trusted origin is read like any request to it", async () => {
  await using stub = await startStub(routes({ "GET /blob": () => new Response("bytes") }));
  const read = handedFetch("platform", { trusted: [`${stub.url}/api/v1`] });
  const response = await read(`${stub.url}/blob`);
  assert.equal(response.status, 200);
  assert.equal(await response.text(), "bytes");
});

Deno.test("handedFetch: file:, data:, credentials and an unparsable URL are refused before anything", async () => {
  const path = await secretFile();
  try {
    const read = handedFetch("media", { trusted: ["https://api.x.ai/v1"] });
    const refusals = await heard(async () => {
      await assert.rejects(read(`file://${path}`), refusedFor(/only http and https/));
      await assert.rejects(read("data:video/mp4;base64,AAAA"), refusedFor(/only http and https/));
      await assert.rejects(
        read("https://user:pw@api.x.ai/v1/x"),
        refusedFor(/carries credentials/),
      );
      await assert.rejects(read("not a url"), refusedFor(/not a valid absolute URL/));
    });
    assert.deepEqual(refusals.map((r) => r.via), ["media", "media", "media", "media"]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("handedFetch: an inward address off the trusted origin is refused without a request", async () => {
  // The 'internal' server: loopback, on another port than the trusted origin.
  await using internal = await startStub(() => new Response("internal secret"));
  await using vendor = await startStub(() => new Response("vendor"));
  const read = handedFetch("media", { trusted: [vendor.url] });
  const refusals = await heard(async () => {
    await assert.rejects(read(`${internal.url}/admin`), refusedFor(/loopback address/));
    await assert.rejects(
      read("http://169.254.169.254/latest/meta-data/iam/security-credentials/"),
      refusedFor(/169\.254\.169\.254 is a cloud metadata address/),
    );
    await assert.rejects(read("http://[::1]:9/"), refusedFor(/loopback address/));
    await assert.rejects(read("http://10.0.0.7/"), refusedFor(/private address/));
    await assert.rejects(
      read("http://metadata.google.internal/computeMetadata/v1/"),
      refusedFor(/cloud metadata host name/),
    );
  });
  assert.equal(internal.requests.length, 0, "nothing reached the internal server");
  assert.equal(vendor.requests.length, 0);
  assert.equal(refusals[0].target, internal.url, "the target is the origin only");
  assert.equal(
    refusals[1].message,
    "the URL http://169.254.169.254… was refused: 169.254.169.254 is a cloud metadata address.",
  );
});

Deno.test("handedFetch: a name that resolves inward is refused (the harness resolves it itself)", async () => {
  await using internal = await startStub(() => new Response("internal"));
  const port = new URL(internal.url).port;
  const read = handedFetch("platform", {
    trusted: ["https://basecradle.com"],
    hops: { resolver: () => Promise.resolve(["127.0.0.1"]) },
  });
  await assert.rejects(
    read(`http://blobs.example.com:${port}/x`),
    refusedFor(/blobs\.example\.com resolves to 127\.0\.0\.1, which is a loopback address/),
  );
  assert.equal(internal.requests.length, 0);
});

Deno.test("handedFetch: a trusted origin's redirect inward or to file: is refused at that hop", async () => {
  const path = await secretFile();
  await using internal = await startStub(() => new Response("internal"));
  await using platform = await startStub(routes({
    "GET /inward": () =>
      new Response(null, { status: 302, headers: { location: `${internal.url}/x` } }),
    "GET /file": () => new Response(null, { status: 302, headers: { location: `file://${path}` } }),
  }));
  try {
    const read = handedFetch("platform", { trusted: [platform.url] });
    const refusals = await heard(async () => {
      await assert.rejects(read(`${platform.url}/inward`), refusedFor(/loopback address/, 1));
      await assert.rejects(read(`${platform.url}/file`), refusedFor(/only http and https/, 1));
    });
    assert.equal(internal.requests.length, 0);
    assert.equal(platform.requests.length, 2);
    assert.match(refusals[0].message, /^redirect 1 \(to http:\/\/127\.0\.0\.1:\d+…\) was refused/);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("handedFetch: off the trusted origin, a public address is dialled pinned and read", async () => {
  // A test stands in for a public host: the policy seam lets the loopback stub pass as public,
  // so what is proven is the hop itself: resolved once, dialled at that address, plain http,
  // redirects followed, Authorization dropped when the origin changes.
  await using storage = await startStub(routes({
    "GET /blob": (rec) =>
      new Response(`auth=${rec.headers.get("authorization") ?? "none"}`, {
        headers: { "content-type": "video/mp4" },
      }),
  }));
  await using platform = await startStub(routes({
    "GET /signed": () =>
      new Response(null, { status: 302, headers: { location: `${storage.url}/blob` } }),
  }));
  const storagePort = new URL(storage.url).port;
  const resolved: string[] = [];
  const read = handedFetch("platform", {
    trusted: [platform.url],
    hops: {
      policy: () => null,
      resolver: (host) => {
        resolved.push(host);
        return Promise.resolve(["127.0.0.1"]);
      },
    },
  });
  const response = await read(`${platform.url}/signed`, {
    headers: { authorization: "Bearer for-the-platform-only" },
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "video/mp4");
  assert.equal(await response.text(), "auth=none");
  // And by name: the harness resolved it, and the stub (on 127.0.0.1) answered.
  const byName = await read(`http://storage.example.com:${storagePort}/blob`);
  assert.equal(await byName.text(), "auth=none");
  assert.deepEqual(resolved, ["storage.example.com"]);
});

Deno.test("handedFetch: only reads; the host rules refuse a hop before it is dialled", async () => {
  await using platform = await startStub(routes({
    "GET /signed": () =>
      new Response(null, { status: 302, headers: { location: "http://localhost:9/blob" } }),
  }));
  const read = handedFetch("platform", { trusted: [platform.url] });
  await assert.rejects(read(`${platform.url}/signed`, { method: "POST" }), TypeError);
  installFence(hostFence(compileHostRules(["127.0.0.1"], "/cfg/host_rules.json")));
  try {
    await assert.rejects(
      read(`${platform.url}/signed`),
      (e) => e instanceof HostNotAllowedError && e.host === "localhost" && e.hop === 1,
    );
  } finally {
    installFence(null);
  }
  assert.equal(platform.requests.length, 1, "the POST was refused before it was sent");
});
