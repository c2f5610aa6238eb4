/** MCP drop-in configs (docs/mcp.md): shapes, the wrapper, malformed files, approval-gated run. */
import assert from "node:assert/strict";
import { SECRET_VARIABLES } from "../../lib/config/env.ts";
import { parseMcpConfig, readMcpConfigs } from "../../lib/mcp/config.ts";
import { DEFAULT_WITHHELD_ENV } from "../../lib/mcp/load.ts";
import { recordApproval } from "../../lib/mcp/pinning.ts";
import { tempConfigHome, writeServer } from "./support.ts";

const parse = (text: string, stem = "srv") => parseMcpConfig(stem, `mcp/${stem}.json`, text);

Deno.test("a stdio config keeps env values literally", () => {
  const parsed = parse('{"command":"uvx","args":["a","$HOME"],"env":{"K":"$HOME ${X} `id`"}}');
  assert.ok(!("error" in parsed));
  assert.deepEqual(parsed.server, {
    transport: "stdio",
    command: "uvx",
    args: ["a", "$HOME"],
    env: { K: "$HOME ${X} `id`" },
  });
  assert.equal(parsed.name, "srv");
});

Deno.test("an HTTP config and a published snippet with extra keys drop in", () => {
  const parsed = parse('{"type":"http","url":"https://h/mcp","headers":{"A":"b"},"x":1}');
  assert.ok(!("error" in parsed));
  assert.deepEqual(parsed.server, { transport: "http", url: "https://h/mcp", headers: { A: "b" } });
});

Deno.test("a single-entry mcpServers wrapper is unwrapped and its key names the server", () => {
  const parsed = parse('{"mcpServers":{"x_mcp":{"command":"xurl","args":["mcp"]}}}', "other");
  assert.ok(!("error" in parsed));
  assert.equal(parsed.name, "x_mcp");
});

Deno.test("malformed configs carry a reason", () => {
  const cases: [string, RegExp][] = [
    ["{", /invalid JSON/],
    ["[]", /expected object/i],
    ['{"command":"a","url":"http://h"}', /exactly one of/],
    ["{}", /exactly one of/],
    ['{"command":""}', /command/],
    ['{"command":"a","args":"b"}', /args/],
    ['{"command":"a","env":{"K":1}}', /env/],
    ['{"url":"ftp://h"}', /http/],
    ['{"url":"http://h","type":"sse"}', /SSE/],
    ['{"mcpServers":{"a":{"command":"x"},"b":{"command":"y"}}}', /exactly one server/],
    ['{"mcpServers":{"bad name!":{"command":"x"}}}', /server name/],
  ];
  for (const [text, reason] of cases) {
    const parsed = parse(text);
    assert.ok("error" in parsed, text);
    assert.match(parsed.error, reason, text);
  }
});

Deno.test("readMcpConfigs: sorted, dotfiles ignored, bad files skipped, stdio run only if approved", async () => {
  const home = await tempConfigHome();
  try {
    await writeServer(home, "zeta", { url: "http://127.0.0.1:1/mcp" });
    await writeServer(home, "alpha", { command: "node", args: [] });
    await writeServer(home, "beta", { command: "node" });
    await Deno.writeTextFile(`${home}/mcp/broken.json`, "{nope");
    await Deno.writeTextFile(`${home}/mcp/notes.txt`, "ignored");
    await writeServer(home, "dup", { mcpServers: { alpha: { command: "x" } } });
    await recordApproval(home, "beta", { sha256: "0", tools: {} });
    const read = await readMcpConfigs(home);
    assert.deepEqual(read.servers, ["alpha", "beta", "zeta"]);
    assert.deepEqual(read.stdioServers, ["beta"]);
    assert.deepEqual(read.skipped.map((s) => s.name), ["broken", "alpha"]);
    assert.match(read.warnings[0], /^Skipping MCP server config mcp\/broken\.json: invalid JSON/);
    assert.match(read.warnings[1], /mcp\/dup\.json: server name 'alpha' is already configured/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("readMcpConfigs: a missing mcp/ dir is empty", async () => {
  const read = await readMcpConfigs("/nonexistent/config/home");
  assert.deepEqual(read.servers, []);
  assert.deepEqual(read.stdioServers, []);
});

Deno.test("stdio servers never inherit the harness's own credentials by default", () => {
  // One list for every layer: a copy would drift.
  assert.equal(DEFAULT_WITHHELD_ENV, SECRET_VARIABLES);
  assert.deepEqual([...DEFAULT_WITHHELD_ENV].sort(), [...SECRET_VARIABLES].sort());
});
