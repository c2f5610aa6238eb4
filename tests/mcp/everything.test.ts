/**
 * Against the real npm servers, started as an operator would: server-everything over stdio and
 * over Streamable HTTP, server-filesystem over stdio.
 */
import assert from "node:assert/strict";
import { loadMcp } from "../../lib/mcp/mod.ts";
import { ImageRing } from "../../lib/tools/shared/image_stash.ts";
import {
  approveAll,
  captureJournal,
  freePort,
  marker,
  npmServers,
  pgrep,
  tempConfigHome,
  waitGone,
  writeServer,
} from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

Deno.test({
  name: "server-everything over stdio: tools, text, images, errors, env, close",
  ...loose,
  async fn() {
    const { everything } = await npmServers();
    const home = await tempConfigHome();
    const tag = marker();
    // A variable no other test reads (env is process-wide under --parallel), withheld like a key.
    Deno.env.set("MCP_TEST_SECRET", "sk-must-not-leak");
    try {
      await writeServer(home, "everything", {
        command: "node",
        args: [everything, "stdio", tag],
        env: { LITERAL: "$HOME", AI_API_KEY_FOR_SERVER: "given" },
      });
      await approveAll(home);
      const journal = captureJournal();
      const images = new ImageRing();
      const mcp = await loadMcp({
        configHome: home,
        timeoutSeconds: 20,
        journal,
        images,
        withheldEnv: ["MCP_TEST_SECRET"],
      });
      try {
        const names = mcp.tools.map((t) => t.name);
        assert.ok(names.length >= 10, names.join());
        assert.deepEqual(names, [...names].sort());
        for (const name of names) assert.match(name, VALID);
        assert.ok(names.includes("everything__echo"));
        assert.deepEqual(mcp.stdioServers, ["everything"]);
        assert.deepEqual(mcp.loaded, [{
          name: "everything",
          transport: "stdio",
          tools: names.length,
        }]);
        assert.ok(journal.lines.includes(
          `WARNING MCP server 'everything' active: ${names.length} tool(s) loaded — this agent ` +
            "has extended beyond the safe-by-default tool set.",
        ));
        assert.match(mcp.notices[0], /named everything__… — deliberately installed and approved/);
        assert.match(
          mcp.notices[0],
          /never report a result from one that you did not actually obtain/,
        );
        assert.equal(
          mcp.notes[0].note,
          "from MCP server 'everything' — installed and approved for your use",
        );
        const tool = (n: string) => mcp.tools.find((t) => t.name === `everything__${n}`)!;

        assert.deepEqual(await tool("echo").run({ message: "hi" }), { text: "Echo: hi" });
        const bad = await tool("echo").run({});
        assert.match(typeof bad === "string" ? bad : bad.text, /^Error: .*message/);

        const pic = await tool("get-tiny-image").run({});
        assert.ok(typeof pic !== "string");
        assert.match(
          pic.text,
          /\[image mcp-image-1: image\/png, 3\.9 KB — .*image='mcp-image-1'\]/,
        );
        assert.equal(pic.images?.[0].alt, "mcp-image-1");
        assert.equal(mcp.images.get("latest")?.handle, "mcp-image-1");
        assert.deepEqual([...images.get("mcp-image-1")!.data.subarray(1, 4)], [80, 78, 71]); // PNG

        const env = await tool("get-env").run({});
        const envText = typeof env === "string" ? env : env.text;
        assert.match(envText, /"LITERAL": "\$HOME"/);
        assert.match(envText, /"AI_API_KEY_FOR_SERVER": "given"/);
        assert.doesNotMatch(envText, /sk-must-not-leak/);
        assert.ok((await pgrep(tag)).length >= 1); // the server, and its watchdog (a forked sh)
      } finally {
        await mcp.close();
      }
      assert.deepEqual(await waitGone(tag, 2000), []);
    } finally {
      Deno.env.delete("MCP_TEST_SECRET");
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "server-everything over Streamable HTTP, and a changed tool list is refused",
  ...loose,
  async fn() {
    const { everything } = await npmServers();
    const port = freePort();
    const server = new Deno.Command("node", {
      args: [everything, "streamableHttp"],
      env: { PORT: String(port) },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const home = await tempConfigHome();
    try {
      // Wait for "listening" on stderr rather than guessing a sleep.
      const reader = server.stderr.pipeThrough(new TextDecoderStream()).getReader();
      for (let seen = ""; !seen.includes("listening");) seen += (await reader.read()).value ?? "";
      reader.releaseLock();
      await writeServer(home, "remote", {
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { "X-T": "1" },
      });
      await approveAll(home);
      const mcp = await loadMcp({ configHome: home, timeoutSeconds: 20 });
      try {
        assert.deepEqual(mcp.stdioServers, []);
        const pic = await mcp.tools.find((t) => t.name === "remote__get-tiny-image")!.run({});
        assert.ok(typeof pic !== "string" && pic.images?.length === 1);
      } finally {
        await mcp.close();
      }
      // Tamper with the approval: the server's list no longer matches its pin.
      const file = `${home}/mcp/.approved.json`;
      const approvals = JSON.parse(await Deno.readTextFile(file));
      const tools = approvals.servers.remote.tools;
      tools["echo"] = "0".repeat(64);
      delete tools["get-sum"];
      approvals.servers.remote.sha256 = "f".repeat(64);
      await Deno.writeTextFile(file, JSON.stringify(approvals));
      const journal = captureJournal();
      const refused = await loadMcp({ configHome: home, timeoutSeconds: 20, journal });
      assert.deepEqual(refused.tools, []);
      assert.deepEqual(refused.skipped.map((s) => s.name), ["remote"]);
      assert.match(
        refused.skipped[0].reason,
        /^MCP server 'remote' did not load: its tool list changed since it was approved \(added: get-sum; changed: echo\) — review it, then run 'harness mcp approve remote'$/,
      );
      assert.ok(journal.lines.includes(`WARNING ${refused.skipped[0].reason}`));
      await refused.close();
    } finally {
      server.kill("SIGTERM");
      await server.stderr.cancel().catch(() => {});
      await server.status;
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "server-filesystem over stdio: reads inside its root, isError outside it",
  ...loose,
  async fn() {
    const { filesystem } = await npmServers();
    const home = await tempConfigHome();
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcp-fs-" }));
    try {
      await Deno.writeTextFile(`${root}/hello.txt`, "hello from disk");
      await writeServer(home, "files", {
        mcpServers: { fs: { command: "node", args: [filesystem, root] } },
      });
      await approveAll(home);
      const mcp = await loadMcp({ configHome: home, timeoutSeconds: 20 });
      try {
        const read = mcp.tools.find((t) => t.name === "fs__read_text_file")!;
        assert.deepEqual(await read.run({ path: `${root}/hello.txt` }), {
          text: "hello from disk",
        });
        const denied = await read.run({ path: "/etc/hostname" });
        assert.match(typeof denied === "string" ? denied : denied.text, /^Error: .*Access denied/);
      } finally {
        await mcp.close();
      }
    } finally {
      await Deno.remove(home, { recursive: true });
      await Deno.remove(root, { recursive: true });
    }
  },
});
