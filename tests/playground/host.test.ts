/**
 * The playground's page has no login, so `harness playground` serves it on loopback only unless
 * told otherwise: a non-loopback `--host` without `--allow-remote` is refused (exit 2, nothing
 * started), and with it the page is served after a warning.
 */
import assert from "node:assert/strict";
import { hostRefusal, isLoopback } from "../../lib/playground/mod.ts";
import { runCli } from "../support/run_cli.ts";
import { pageToken, startPlayground } from "./support.ts";

Deno.test("playground: loopback hosts are recognised, others need --allow-remote", () => {
  for (const host of ["127.0.0.1", "127.8.9.10", "localhost", "::1", "[::1]", "LOCALHOST"]) {
    assert.ok(isLoopback(host), host);
    assert.equal(hostRefusal(host, false), null, host);
  }
  for (const host of ["0.0.0.0", "192.168.1.4", "::", "example.com", "128.0.0.1"]) {
    assert.ok(!isLoopback(host), host);
    assert.match(hostRefusal(host, false) ?? "", /not a loopback address.*--allow-remote/);
    assert.equal(hostRefusal(host, true), null, host);
  }
});

Deno.test("playground: a non-loopback --host without --allow-remote is refused with exit 2", async () => {
  const result = await runCli(["playground", "--host", "0.0.0.0", "--port", "0"]);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /^harness playground: --host 0\.0\.0\.0 is not a loopback address, .*Add --allow-remote .*Run 'harness playground --help' for usage\.\n$/,
  );
});

Deno.test({
  name: "playground: --allow-remote serves beyond loopback, after a warning",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using playground = await startPlayground(["--host", "0.0.0.0", "--allow-remote"], {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    });
    assert.match(playground.url, /^http:\/\/0\.0\.0\.0:\d+\/$/);
    const port = new URL(playground.url).port;
    const page = await fetch(`http://127.0.0.1:${port}/`);
    assert.match(await page.text(), /Harness studio/);
    // Beyond loopback there is still no DNS rebinding: only the --host and loopback names.
    assert.match(await rawGet(`http://127.0.0.1:${port}/`, `0.0.0.0:${port}`), /^HTTP\/1\.1 200 /);
    const rebound = await rawGet(`http://127.0.0.1:${port}/`, `evil.example:${port}`);
    assert.match(rebound, /^HTTP\/1\.1 403 /);
    assert.match(rebound, /answers to .*0\.0\.0\.0:\d+ only, not Host 'evil\.example:\d+'/);
    assert.equal(await playground.stop(), 0);
    assert.match(
      playground.stderr(),
      /^playground warning: serving on 0\.0\.0\.0 beyond loopback/m,
    );
  },
});

Deno.test({
  name: "playground: another site cannot post through the page, nor read it by another host name",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using playground = await startPlayground([], { PATH: Deno.env.get("PATH") ?? "/bin" });
    const state = await (await fetch(`${playground.url}api/state`)).json();
    const timeline = state.timelines[0].uuid;
    const token = await pageToken(playground.url);
    assert.match(token, /^pgt_[0-9a-f]{32}$/);
    const own = new URL(playground.url).origin;
    const post = (headers: Record<string, string>, type = "application/json") =>
      fetch(`${playground.url}api/post`, {
        method: "POST",
        headers: { "content-type": type, ...headers },
        body: JSON.stringify({ timeline, body: "from elsewhere" }),
      });
    const refusals: [Record<string, string>, number, RegExp][] = [
      [{ origin: "http://evil.example", "playground-token": token }, 403, /own page only/],
      [{ origin: `http://127.0.0.1:${Number(new URL(own).port) + 1}` }, 403, /own page only/],
      [{ "sec-fetch-site": "same-site", "playground-token": token }, 403, /own page only/],
      [{ origin: own }, 403, /page's token.*reload the page/],
      [{ origin: own, "playground-token": "pgt_0123456789abcdef0123456789abcdef" }, 403, /token/],
    ];
    for (const [headers, status, error] of refusals) {
      const reply = await post(headers);
      assert.equal(reply.status, status, JSON.stringify(headers));
      assert.match((await reply.json()).error, error);
    }
    // A "simple" body type is refused even with the token (a form or a no-cors fetch sends one).
    const simple = await post({ origin: own, "playground-token": token }, "text/plain");
    assert.equal(simple.status, 415);
    assert.match((await simple.json()).error, /Content-Type: application\/json/);
    // fetch() sets Host itself, so the rebound request is written by hand.
    assert.match(await rawGet(playground.url, "evil.example"), /^HTTP\/1\.1 403 /);
    const port = new URL(playground.url).port;
    assert.match(await rawGet(playground.url, `evil.example:${port}`), /^HTTP\/1\.1 403 /);
    assert.match(await rawGet(playground.url, `localhost:${port}`), /^HTTP\/1\.1 200 /);
    // The studio's reads (the agent's memory, notes, tools, wakes) answer no foreign name either.
    for (
      const path of [`/api/memory?timeline=${timeline}&q=x`, `/api/notes?timeline=${timeline}`]
    ) {
      assert.match(await rawGet(playground.url, `evil.example:${port}`, path), /^HTTP\/1\.1 403 /);
    }
    // The sandbox behind the page checks Host too, and its admin API wants this run's token.
    assert.match(await rawGet(playground.baseUrl, "evil.example"), /^HTTP\/1\.1 403 /);
    const admin = (headers: Record<string, string>) =>
      fetch(`${playground.baseUrl}/_sandbox/events`, { headers });
    const anonymous = await admin({});
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).code, "admin_token_required");
    const keyed = await admin({ "sandbox-admin-token": playground.adminToken });
    assert.equal(keyed.status, 200);
    await keyed.body?.cancel();

    const ownPost = await post({ origin: own, "playground-token": token });
    assert.equal(ownPost.status, 201, await ownPost.clone().text());
    await ownPost.body?.cancel();
    const after = await (await fetch(`${playground.url}api/state`)).json();
    const bodies = after.timelines[0].items.map((i: { body?: string }) => i.body);
    assert.equal(bodies.filter((b: string | undefined) => b === "from elsewhere").length, 1);
    assert.equal(await playground.stop(), 0);
  },
});

/** The whole answer to `GET /` sent to `url`'s port with this `Host` header. */
async function rawGet(url: string, host: string, path = "/"): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(url).port) });
  await conn.write(
    new TextEncoder().encode(
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    ),
  );
  return await new Response(conn.readable).text();
}
