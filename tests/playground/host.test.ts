/**
 * The playground's page has no login, so `harness playground` serves it on loopback only unless
 * told otherwise: a non-loopback `--host` without `--allow-remote` is refused (exit 2, nothing
 * started), and with it the page is served after a warning.
 */
import assert from "node:assert/strict";
import { hostRefusal, isLoopback } from "../../lib/playground/mod.ts";
import { runCli } from "../support/run_cli.ts";
import { startPlayground } from "./support.ts";

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
    assert.match(await page.text(), /Harness playground/);
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
    const post = (origin: string) =>
      fetch(`${playground.url}api/post`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ timeline, body: "from elsewhere" }),
      });
    const foreign = await post("http://evil.example");
    assert.equal(foreign.status, 403);
    assert.match((await foreign.json()).error, /own page only/);
    // fetch() sets Host itself, so the rebound request is written by hand.
    assert.match(await rawGet(playground.url, "evil.example"), /^HTTP\/1\.1 403 /);
    assert.match(await rawGet(playground.url, "localhost"), /^HTTP\/1\.1 200 /);
    const own = await post(new URL(playground.url).origin);
    assert.equal(own.status, 201, await own.clone().text());
    await own.body?.cancel();
    const after = await (await fetch(`${playground.url}api/state`)).json();
    const bodies = after.timelines[0].items.map((i: { body?: string }) => i.body);
    assert.equal(bodies.filter((b: string | undefined) => b === "from elsewhere").length, 1);
    assert.equal(await playground.stop(), 0);
  },
});

/** The status line and headers of `GET /` sent to the playground with this `Host` header. */
async function rawGet(url: string, host: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(url).port) });
  await conn.write(
    new TextEncoder().encode(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
  );
  return await new Response(conn.readable).text();
}
