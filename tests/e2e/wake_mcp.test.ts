/**
 * MCP in a real wake (docs/mcp.md): an approved stdio server-everything in the config home's
 * `mcp/` joins the agent's tools as `everything__…` — the scripted model calls one and reads its
 * result, an image result can be posted with `assets post_image`, and `resolved-config` lists
 * the tools. Removing the drop-in removes them.
 */
import assert from "node:assert/strict";
import { chatCompletion } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { approveAll, npmServers, writeServer } from "../mcp/support.ts";
import { agentPosts, chatMessages, say, scriptReply, world } from "./wake_support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "an approved MCP server's tools join the wake: echo, an image posted, resolved-config",
  ...loose,
  async fn() {
    const { everything } = await npmServers();
    await using w = await world();
    const configHome = `${w.home}/config`;
    await Deno.mkdir(`${configHome}/mcp`, { recursive: true });
    await writeServer(configHome, "everything", { command: "node", args: [everything, "stdio"] });
    await approveAll(configHome);

    // resolved-config connects and lists the proxies.
    const resolved = await runCli(["resolved-config"], { env: w.env });
    assert.equal(resolved.code, 0, resolved.stderr);
    const document = JSON.parse(resolved.stdout);
    assert.deepEqual(document.mcp_servers, ["everything"]);
    assert.ok(document.tools.includes("everything__echo"), resolved.stdout);

    await say(w, "@ada echo ping, then show me a tiny picture");
    w.model.reply(
      "chat",
      {
        json: chatCompletion({
          toolCalls: [{
            id: "call_echo",
            name: "everything__echo",
            arguments: { message: "ping" },
          }],
        }),
      },
      {
        json: chatCompletion({
          toolCalls: [{ id: "call_img", name: "everything__get-tiny-image", arguments: {} }],
        }),
      },
      {
        json: chatCompletion({
          toolCalls: [{
            id: "call_post",
            name: "assets",
            arguments: { action: "post_image", image: "latest", filename: "tiny.png" },
          }],
        }),
      },
      {
        json: chatCompletion({
          toolCalls: [{
            id: "call_say",
            name: "messages",
            arguments: { action: "create", body: "Echoed and posted." },
          }],
        }),
      },
      { json: chatCompletion({ content: "Done." }) },
    );
    const result = await w.wake();
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /MCP server 'everything' active: \d+ tool\(s\) loaded/);

    // The first request offered the proxies; the second carried the echo back.
    const offered =
      (w.model.requestsTo("chat")[0].body as { tools: { function: { name: string } }[] })
        .tools.map((t) => t.function.name);
    assert.ok(offered.includes("everything__echo"), offered.join());
    const echoed = chatMessages(w.model, 1).find((m) => m.tool_call_id === "call_echo");
    assert.equal(echoed?.content, "Echo: ping");
    // The brief named the server as deliberately installed.
    const system = chatMessages(w.model, 0).filter((m) => m.role === "system")
      .map((m) => m.content).join("\n");
    assert.match(system, /MCP server 'everything' active with \d+ tool\(s\)/);

    // The image the server returned was posted as a PNG asset.
    const posted = chatMessages(w.model, 3).find((m) => m.tool_call_id === "call_post");
    assert.match(String(posted?.content), /^Posted 'tiny\.png'/);
    const assets = await w.peer.client.assets.list({ timeline: w.timeline }).toArray();
    const png = assets.find((a) => a.content.file?.filename === "tiny.png");
    assert.ok(png, JSON.stringify(assets.map((a) => a.content)));
    assert.equal(png.content.file?.content_type, "image/png");
    assert.deepEqual(await agentPosts(w), ["Echoed and posted."]);

    // Removing the drop-in removes the tools.
    await Deno.remove(`${configHome}/mcp/everything.json`);
    const after = JSON.parse((await runCli(["resolved-config"], { env: w.env })).stdout);
    assert.deepEqual(after.mcp_servers, []);
    assert.ok(!after.tools.some((t: string) => t.startsWith("everything__")));
    await say(w, "@ada again");
    scriptReply(w.model, "Back to the basics.");
    const again = await w.wake();
    assert.equal(again.code, 0, again.stderr);
    const last = w.model.requestsTo("chat").at(-1)!.body as {
      tools: { function: { name: string } }[];
    };
    assert.ok(!last.tools.some((t) => t.function.name.startsWith("everything__")));
    assert.doesNotMatch(again.stderr, /MCP server/);
  },
});
