import assert from "node:assert/strict";
import { json, problem, routes, startStub } from "../support/http_stub.ts";
import {
  BlobTooLargeError,
  DOWNLOAD_MAX_BYTES,
  ForbiddenError,
  NotFoundError,
  PlatformError,
} from "../../lib/platform/mod.ts";
import { USER_AGENT } from "../../lib/base/version.ts";
import { asset, clientFor, TIMELINE, TOKEN, u } from "./fixtures.ts";
import { asUser } from "../support/cleared.ts";

const CSV = new TextEncoder().encode("a,b\n1");

Deno.test("assets.create uploads asset[file] with its filename and asset[description]", async () => {
  await using stub = await startStub(() => json({ asset: asset(1) }, 201));
  const created = await clientFor(stub.url).assets.create(
    TIMELINE,
    asUser("asset", {
      file: CSV,
      filename: "q2.csv",
      contentType: "text/csv",
      description: "Quarterly numbers",
    }),
  );
  assert.equal(created.content.file?.filename, "q2.csv");
  const rec = stub.requests[0];
  assert.equal(`${rec.method} ${rec.path}`, `POST /timelines/${TIMELINE}/assets`);
  assert.match(rec.headers.get("content-type") ?? "", /^multipart\/form-data; boundary=/);
  assert.equal(rec.headers.get("authorization"), `Bearer ${TOKEN}`);
  const form = await rec.formData();
  assert.deepEqual([...form.keys()], ["asset[file]", "asset[description]"]);
  const file = form.get("asset[file]");
  assert.ok(file instanceof File);
  assert.equal(file.name, "q2.csv");
  assert.equal(file.type, "text/csv");
  assert.deepEqual(new Uint8Array(await file.arrayBuffer()), CSV);
  assert.equal(form.get("asset[description]"), "Quarterly numbers");
});

Deno.test("assets.create omits the description part when none is given", async () => {
  await using stub = await startStub(() => json({ asset: asset(1) }, 201));
  await clientFor(stub.url).assets.create(
    TIMELINE,
    asUser("asset", { file: CSV, filename: "q2.csv" }),
  );
  const form = await stub.requests[0].formData();
  assert.deepEqual([...form.keys()], ["asset[file]"]);
});

Deno.test("assets.create sends the cleared bytes under the filename", async () => {
  await using stub = await startStub(() => json({ asset: asset(1) }, 201));
  await clientFor(stub.url).assets.create(
    TIMELINE,
    asUser("asset", {
      file: new TextEncoder().encode("hello"),
      contentType: "text/plain",
      filename: "hi.txt",
    }),
  );
  const file = (await stub.requests[0].formData()).get("asset[file]") as File;
  assert.equal(file.name, "hi.txt");
  assert.equal(await file.text(), "hello");
});

Deno.test("an asset with file: null parses", async () => {
  const bare = asset(1);
  (bare.content as Record<string, unknown>).file = null;
  await using stub = await startStub(() => json({ assets: [bare], next_cursor: null }));
  const rows = await clientFor(stub.url).assets.list({ timeline: TIMELINE }).toArray();
  assert.equal(rows[0].content.file, null);
  assert.equal(stub.requests[0].query.get("timeline"), TIMELINE);
});

Deno.test("download follows a redirect and sends no Authorization header", async () => {
  let base = "";
  await using stub = await startStub(routes({
    [`GET /assets/${u(1)}`]: () =>
      json({ asset: asset(1, `${base}/rails/active_storage/blobs/redirect/signed/q2.csv`) }),
    "GET /rails/active_storage/blobs/redirect/signed/q2.csv": () =>
      new Response(null, { status: 302, headers: { location: "/blob-store/q2.csv?sig=abc" } }),
    "GET /blob-store/q2.csv": () => new Response(CSV, { headers: { "content-type": "text/csv" } }),
  }));
  base = stub.url;
  const client = clientFor(stub.url);
  const blob = await client.assets.download(await client.assets.get(u(1)));
  assert.deepEqual(blob.bytes, CSV);
  assert.equal(blob.contentType, "text/csv");
  const [api, hop, bytes] = stub.requests;
  assert.equal(api.headers.get("authorization"), `Bearer ${TOKEN}`);
  for (const rec of [hop, bytes]) {
    assert.equal(rec.headers.get("authorization"), null);
    assert.equal(rec.headers.get("user-agent"), USER_AGENT);
  }
  assert.equal(stub.requests.length, 3);
});

Deno.test("download resolves a relative file.url against the base URL", async () => {
  await using stub = await startStub(() => new Response("bytes"));
  const blob = await clientFor(stub.url).assets.download("/blobs/x.txt");
  assert.equal(new TextDecoder().decode(blob.bytes), "bytes");
  assert.equal(stub.requests[0].path, "/blobs/x.txt");
});

Deno.test("a failed download is typed and does not leak the signed URL", async () => {
  await using stub = await startStub(() =>
    new Response("<Error>AccessDenied</Error>", { status: 403 })
  );
  const err = await clientFor(stub.url).assets.download(`${stub.url}/blob?signature=SECRET`)
    .catch((e) => e);
  assert.ok(err instanceof ForbiddenError);
  assert.equal(err.endpoint, "GET {file.url}");
  assert.ok(!err.message.includes("SECRET"));
});

Deno.test("downloading an asset without a file is a PlatformError, not a crash", async () => {
  const bare = asset(1);
  (bare.content as Record<string, unknown>).file = null;
  await using stub = await startStub(() => json({ asset: bare }));
  const client = clientFor(stub.url);
  const item = await client.assets.get(u(1));
  const err = await client.assets.download(item).catch((e) => e);
  assert.ok(err instanceof PlatformError);
  assert.match(err.message, /no attached file/);
});

Deno.test("assets.get 404 is a NotFoundError", async () => {
  await using stub = await startStub(() => problem(404, "not_found", "Not found."));
  await assert.rejects(clientFor(stub.url).assets.get(u(1)), NotFoundError);
});

Deno.test("download streams up to its cap: a stated length over it is refused, a longer body is cut off", async () => {
  const TOTAL = 100_000_000;
  let made = 0;
  await using stub = await startStub((req) => {
    if (req.path === "/blobs/stated") return new Response(new Uint8Array(2048));
    if (req.path === "/blobs/small") return new Response(new Uint8Array(1_000));
    // No stated length: a body made 64 KiB at a time, as the client reads it, 100 MB in all.
    const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
      pull(controller) {
        if (made >= TOTAL) return controller.close();
        const n = Math.min(65_536, TOTAL - made);
        made += n;
        controller.enqueue(new Uint8Array(n));
      },
    });
    return new Response(stream);
  });
  const client = clientFor(stub.url);
  await assert.rejects(
    () => client.assets.download("/blobs/stated", { maxBytes: 1024 }),
    (error: unknown) => {
      assert.ok(error instanceof BlobTooLargeError);
      assert.equal(error.maxBytes, 1024);
      assert.match(error.message, /states 2048 bytes, over its 1024-byte limit; it was not read/);
      return true;
    },
  );
  await assert.rejects(
    () => client.assets.download("/blobs/endless", { maxBytes: 4096 }),
    /ran past its 4096-byte limit and was stopped there/,
  );
  // The read stopped: what the server made is the cap and what sat in the socket's buffers.
  assert.ok(made < 32_000_000, `the server made ${made} bytes`);
  // Within the cap, the whole blob.
  const blob = await client.assets.download("/blobs/small", { maxBytes: 4096 });
  assert.equal(blob.bytes.length, 1_000);
  assert.equal(DOWNLOAD_MAX_BYTES, 256 * 1024 * 1024);
});
