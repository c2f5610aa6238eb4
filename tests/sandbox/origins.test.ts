/**
 * Who may talk to the sandbox: a request must name it by a host it was started for (DNS
 * rebinding defence), a state-changing request from a browser must come from its own origin,
 * the `/_sandbox/*` admin API needs this run's admin token, and a JSON body must say it is
 * JSON — so a cross-site "simple" POST (a form, a `no-cors` fetch) changes nothing. Programs
 * that send no `Origin` (the harness, curl) are unaffected. Uploaded files are served as
 * downloads unless they are raster images.
 */
import { strict as assert } from "node:assert";
import { ADMIN_TOKEN_HEADER, Sandbox } from "../../lib/sandbox/mod.ts";
import { expectProblem, withSandbox } from "./helpers.ts";

/** The raw answer to `GET path` with this `Host` header (fetch would set Host itself). */
async function withHost(base: string, host: string | null, path: string): Promise<string> {
  const { hostname, port } = new URL(base);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const hostLine = host === null ? "" : `Host: ${host}\r\n`;
  await conn.write(
    new TextEncoder().encode(`GET ${path} HTTP/1.1\r\n${hostLine}Connection: close\r\n\r\n`),
  );
  return await new Response(conn.readable).text();
}

Deno.test("sandbox origins: a Host the sandbox was not started for is refused (DNS rebinding)", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const port = new URL(h.base).port;
    for (const host of [`evil.example:${port}`, "evil.example", `127.0.0.1:${Number(port) + 1}`]) {
      const answer = await withHost(h.base, host, "/_sandbox/model/v1/models");
      assert.match(answer, /^HTTP\/1\.1 403 /, host);
      assert.match(answer, /"code":"host_not_allowed"/, host);
    }
    assert.match(
      await withHost(h.base, null, "/_sandbox/model/v1/models"),
      /^HTTP\/1\.1 (400|403) /,
    );
    for (
      const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]
    ) {
      assert.match(
        await withHost(h.base, host, "/_sandbox/model/v1/models"),
        /^HTTP\/1\.1 200 /,
        host,
      );
    }
    // The platform API is behind the same check, token or not.
    const r = await ada.api.get("/users/dashboard");
    assert.equal(r.status, 200);
  }));

Deno.test("sandbox origins: the admin API needs this run's token; the demo model does not", () =>
  withSandbox(async (h) => {
    const task = await (async () => {
      const ada = await h.user("ada");
      const tl = await h.timeline(ada);
      const r = await ada.api.post(`/timelines/${tl}/tasks`, {
        task: {
          instructions: "later",
          activate_at: new Date(Date.now() + 3_600_000).toISOString(),
        },
      });
      return r.body.task.content.uuid as string;
    })();
    const calls: [string, string, unknown][] = [
      ["POST", "/_sandbox/users", { handle: "eve", name: "Eve", kind: "human" }],
      ["POST", "/_sandbox/faults", { path: "^/users", status: 500 }],
      ["GET", "/_sandbox/events", undefined],
      ["POST", `/_sandbox/tasks/${task}/activate`, undefined],
      ["POST", "/_sandbox/contact_messages", {
        name: "E",
        email_address: "e@example.com",
        body: "x",
      }],
      ["GET", "/_sandbox/nothing-here", undefined],
    ];
    for (const token of [undefined, "sbx_admin_00000000000000000000000000000000", ""]) {
      for (const [method, path, body] of calls) {
        const headers: Record<string, string> = token === undefined
          ? {}
          : { [ADMIN_TOKEN_HEADER]: token };
        const r = await h.anon.request(method, path, body, headers);
        expectProblem(r, 401, "admin_token_required");
        assert.match(r.body.detail, /sandbox-admin-token header/);
      }
    }
    // Nothing happened: no user, no fault, the task still pending.
    assert.equal(
      (await h.admin.post("/_sandbox/users", { handle: "eve", name: "E", kind: "human" })).status,
      201,
    );
    assert.equal((await h.anon.get("/users/dashboard")).status, 401, "no fault was planted");
    assert.equal((await h.admin.post(`/_sandbox/tasks/${task}/activate`)).status, 200);
    // Each run has its own token.
    const other = await Sandbox.start();
    try {
      assert.notEqual(other.adminToken, h.sandbox.adminToken);
      assert.match(other.adminToken, /^sbx_admin_[0-9a-f]{32}$/);
      const r = await fetch(`${other.adminUrl}/events`, {
        headers: { [ADMIN_TOKEN_HEADER]: h.sandbox.adminToken },
      });
      assert.equal(r.status, 401);
      await r.body?.cancel();
    } finally {
      await other.close();
    }
    // The demo model stands in for a vendor: no admin token.
    const model = await h.anon.request("POST", "/_sandbox/model/v1/chat/completions", {
      model: "sandbox-demo",
      messages: [{ role: "user", content: "hi" }],
    }, { authorization: "Bearer anything" });
    assert.equal(model.status, 200, model.text);
  }));

Deno.test("sandbox origins: a cross-site write is refused on every route; same-origin and program calls pass", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const endpoint = await ada.api.post(`/timelines/${tl}/webhook_endpoints`, {
      webhook_endpoint: { description: "hook" },
    });
    const ingest = new URL(endpoint.body.webhook_endpoint.content.ingest_url).pathname;
    const own = new URL(h.base).origin;
    const foreign: Record<string, string>[] = [
      { origin: "http://127.0.0.1:1" }, // another port on the same machine
      { origin: "https://evil.example" },
      { origin: "null" }, // a sandboxed frame or a file:// page
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    const writes: [string, Record<string, string>, string][] = [
      [
        "/_sandbox/users",
        h.admin.extra,
        JSON.stringify({ handle: "mallory", name: "M", kind: "human" }),
      ],
      [
        `/timelines/${tl}/messages`,
        { authorization: `Bearer ${ada.token}` },
        JSON.stringify({ message: { body: "csrf" } }),
      ],
      [ingest, {}, "csrf"],
      ["/session", {}, JSON.stringify({ email: "a@example.com", password: "x" })],
    ];
    for (const headers of foreign) {
      for (const [path, auth, body] of writes) {
        const r = await h.anon.post(path, body, {
          ...auth,
          ...headers,
          "content-type": "text/plain",
        });
        expectProblem(r, 403, "cross_site_request");
      }
    }
    const messages = await ada.api.get(`/messages?timeline=${tl}`);
    assert.deepEqual(messages.body.messages, [], "no message was posted");
    assert.equal(
      h.sandbox.events().filter((e) => e.event === "webhook_event.received").length,
      0,
      "no webhook was delivered",
    );
    // Reads are not writes: another site may not read them anyway (no CORS), but they pass.
    const read = await ada.api.request("GET", "/users/dashboard", undefined, {
      origin: "https://evil.example",
    });
    assert.equal(read.status, 200);
    // The sandbox's own origin, and a program that sends no Origin at all, may write.
    const same = await ada.api.post(`/timelines/${tl}/messages`, { message: { body: "mine" } }, {
      origin: own,
      "sec-fetch-site": "same-origin",
    });
    assert.equal(same.status, 201, same.text);
    assert.equal((await h.anon.post(ingest, "from a program")).status, 201);
  }));

Deno.test("sandbox origins: a JSON route refuses a body that is not declared JSON (415)", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const body = JSON.stringify({ message: { body: "typed as text" } });
    for (
      const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]
    ) {
      const r = await ada.api.post(`/timelines/${tl}/messages`, body, { "content-type": type });
      expectProblem(r, 415, "unsupported_media_type");
    }
    const r = await h.anon.post(
      "/_sandbox/users",
      JSON.stringify({ handle: "x", name: "x", kind: "ai" }),
      {
        ...h.admin.extra,
        "content-type": "text/plain",
      },
    );
    expectProblem(r, 415, "unsupported_media_type");
    for (
      const type of [
        "application/json",
        "application/json; charset=utf-8",
        "application/merge-patch+json",
      ]
    ) {
      const ok = await ada.api.post(`/timelines/${tl}/messages`, body, { "content-type": type });
      assert.equal(ok.status, 201, `${type}: ${ok.text}`);
    }
    // A verb without a body needs no type.
    assert.equal((await ada.api.post(`/timelines/${tl}/lock`)).status, 200);
  }));

Deno.test("sandbox origins: uploaded files are raster images inline or downloads, never a page", () =>
  withSandbox(async (h) => {
    const ada = await h.user("ada");
    const tl = await h.timeline(ada);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    const cases: [string, Uint8Array<ArrayBuffer>, string, string, string][] = [
      // filename, bytes, declared, served content type, disposition
      ["pic.png", png, "image/png", "image/png", "inline"],
      ["page.html", html, "text/html", "application/octet-stream", "attachment"],
      ["draw.svg", html, "image/svg+xml", "application/octet-stream", "attachment"],
      ["code.js", html, "text/javascript", "application/octet-stream", "attachment"],
      ["data.xml", html, "application/xml", "application/octet-stream", "attachment"],
      ["notes.txt", html, "text/plain", "text/plain", "attachment"],
      ["fake.png", html, "image/png", "image/png", "inline"], // not a PNG: nosniff keeps it one
    ];
    for (const [filename, bytes, declared, served, disposition] of cases) {
      const form = new FormData();
      form.set("asset[file]", new File([bytes], filename, { type: declared }));
      const created = await ada.api.post(`/timelines/${tl}/assets`, form);
      assert.equal(created.status, 201, created.text);
      const res = await fetch(created.body.asset.content.file.url);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes);
      assert.equal(res.headers.get("content-type"), served, filename);
      assert.equal(
        res.headers.get("content-disposition"),
        `${disposition}; filename*=UTF-8''${filename}`,
        filename,
      );
      assert.equal(res.headers.get("x-content-type-options"), "nosniff", filename);
      assert.match(res.headers.get("content-security-policy") ?? "", /^sandbox;/, filename);
      assert.equal(res.headers.get("cross-origin-resource-policy"), "same-origin", filename);
    }
  }));
