/** `harness mcp list | approve | revoke`, in process, against a Deno-native HTTP server. */
import assert from "node:assert/strict";
import { runMcp } from "../../lib/cli/mcp.ts";
import { loadMcp } from "../../lib/mcp/mod.ts";
import { startTestHttpServer } from "./http_server.ts";
import { tempConfigHome, writeServer } from "./support.ts";

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
  };
}

Deno.test({
  name: "harness mcp: list shows unapproved, approve pins and loads, revoke unpins",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const http = startTestHttpServer();
    const home = await tempConfigHome();
    const base = { servers: [], configHome: home, timeoutSeconds: 5 };
    try {
      await writeServer(home, "calc", { url: http.url("ok") });
      await Deno.writeTextFile(`${home}/mcp/broken.json`, "{");
      let c = io();
      assert.equal(await runMcp({ ...base, action: "list", io: c.io }), 0);
      assert.equal(
        c.out.join(""),
        "calc  http  unapproved  4 tool(s) — run 'harness mcp approve calc'\n" +
          "broken  invalid  Skipping MCP server config mcp/broken.json: invalid JSON: " +
          c.out[1].split("invalid JSON: ")[1],
      );
      c = io();
      assert.equal(await runMcp({ ...base, action: "approve", servers: ["nope"], io: c.io }), 1);
      assert.match(c.err.join(""), /no MCP server 'nope'/);
      c = io();
      assert.equal(await runMcp({ ...base, action: "approve", servers: ["calc"], io: c.io }), 0);
      assert.match(c.out.join(""), /^calc: 4 tool\(s\)\n {2}- add — Add two numbers\.\n/);
      assert.match(c.out.join(""), /approved calc \(sha256 [0-9a-f]{16}…\)\n$/);
      assert.equal((await loadMcp({ configHome: home, timeoutSeconds: 5 })).tools.length, 4);
      c = io();
      await runMcp({ ...base, action: "list", offline: true, json: true, io: c.io });
      const listed = JSON.parse(c.out.join(""));
      assert.deepEqual(listed.servers[0], {
        name: "calc",
        transport: "http",
        approval: "approved",
        tools: null,
        error: null,
        action: null,
      });
      c = io();
      assert.equal(await runMcp({ ...base, action: "revoke", all: true, io: c.io }), 0);
      assert.equal(c.out.join(""), "revoked: calc\n");
      assert.equal((await loadMcp({ configHome: home, timeoutSeconds: 5 })).tools.length, 0);
    } finally {
      await http.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});
