/**
 * Every request path of the harness under the host fence: the platform client against the
 * sandbox, the real openai SDK (model and media) and @openrouter/sdk against the wire mock, MCP
 * over HTTP against a local MCP server, ntfy, the xAI Management API and web_fetch's hops. Each
 * local server listens on 127.0.0.1; the rules `["localhost"]` name the same machine by another
 * name, so only the rules can be what stops a request, and `["127.0.0.1"]` lets it through (the
 * control that proves each refusal test can fail). The journal line is the fence's own.
 */
import assert from "node:assert/strict";
import { installFence } from "../../lib/net/host_fence.ts";
import { compileHostRules, hostFence, HostNotAllowedError } from "../../lib/net/host_rules.ts";
import { ProviderConnectionError, ProviderError } from "../../lib/core/types/faults.ts";
import { Message } from "../../lib/core/types/message.ts";
import { hostRefused } from "../../lib/journal/catalogue_wake.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { loadMcp } from "../../lib/mcp/mod.ts";
import { runMcp } from "../../lib/cli/mcp.ts";
import { PlatformClient } from "../../lib/platform/mod.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { OpenRouterProvider } from "../../lib/providers/openrouter.ts";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { DirectMessageTool } from "../../lib/tools/direct_message.ts";
import { Gate } from "../../lib/gate/gate.ts";
import { GenerateImageTool } from "../../lib/tools/media/openai_media.ts";
import type { HttpResponse, Transport } from "../../lib/net/pinned_transport.ts";
import { SimpleContext } from "../../lib/tools/shared/simple_context.ts";
import { WebFetchTool } from "../../lib/tools/web_fetch.ts";
import { XaiBalanceTool } from "../../lib/tools/xai_balance.ts";
import { approveAll, tempConfigHome, writeServer } from "../mcp/support.ts";
import { startTestHttpServer } from "../mcp/http_server.ts";
import { startStub } from "../support/http_stub.ts";
import { chatCompletion, ModelMock, responsesReply } from "../support/model_mock.ts";

const FILE = "/cfg/host_rules.json";
const OTHER_NAME = ["localhost"];
const THIS_ADDRESS = ["127.0.0.1"];

/** Runs `fn` with `entries` as the process fence; returns the journal's lines. */
async function fenced(entries: string[], fn: () => Promise<void>): Promise<string[]> {
  const journal = new MemoryJournal();
  installFence(hostFence(compileHostRules(entries, FILE), (r) => hostRefused(journal, r)));
  try {
    await fn();
  } finally {
    installFence(null);
  }
  return journal.lines;
}

const refused = (via: string) => (e: unknown) =>
  e instanceof HostNotAllowedError && e.host === "127.0.0.1" && e.via === via &&
  e.file === FILE && e.message.includes(`'127.0.0.1', which the host rules in ${FILE}`);

/** The provider's fault for a refusal: typed, permanent, never a connection fault to retry. */
const permanentRefusal = (e: unknown) =>
  e instanceof ProviderError && !(e instanceof ProviderConnectionError) &&
  e.message.includes(`'127.0.0.1', which the host rules in ${FILE}`);

const line = (via: string) => `WARNING host refused host=127.0.0.1 via=${via}`;

function context(client: PlatformClient) {
  const journal = new MemoryJournal();
  return new SimpleContext({
    client,
    timeline: "0190f0a4-0000-7000-8000-000000000001",
    self: { uuid: "0190f0a4-0000-7000-8000-000000000002", handle: "scout" },
    journal,
    // A direct message is screened before it is sent: the real gate clears it.
    gate: new Gate({ client, journal }),
  });
}

Deno.test("platform: the client's request to the sandbox is refused before it is sent", async () => {
  const sandbox = await Sandbox.start();
  try {
    const client = new PlatformClient({ baseUrl: sandbox.baseUrl, token: "bc_uat_x" });
    const before = sandbox.requests.length;
    const lines = await fenced(OTHER_NAME, async () => {
      await assert.rejects(client.users.dashboard(), refused("platform"));
    });
    assert.equal(sandbox.requests.length, before, "nothing reached the sandbox");
    assert.deepEqual(lines, [line("platform")]);
    // Control: allowed, the same call reaches the sandbox (and is answered, 401 or not).
    await fenced(THIS_ADDRESS, async () => {
      await client.users.dashboard().catch(() => {});
    });
    assert.ok(sandbox.requests.length > before);
  } finally {
    await sandbox.close();
  }
});

Deno.test("model: the real openai SDK is refused before it reaches the wire mock", async () => {
  await using mock = await ModelMock.start();
  mock.always("responses", { json: responsesReply({ text: "hello" }) });
  const provider = new OpenAIProvider({
    model: "gpt-test",
    apiKey: "sk-test",
    baseURL: mock.baseURL,
  });
  const lines = await fenced(OTHER_NAME, async () => {
    await assert.rejects(provider.chat([Message.user("hi")], []), permanentRefusal);
  });
  assert.equal(mock.hits(), 0);
  assert.deepEqual(lines, [line("model")]);
  await fenced(THIS_ADDRESS, async () => {
    assert.equal((await provider.chat([Message.user("hi")], [])).content, "hello");
  });
  assert.equal(mock.hits(), 1);
});

Deno.test("model: @openrouter/sdk is refused before it reaches the wire mock", async () => {
  await using mock = await ModelMock.start();
  mock.always("chat", { json: chatCompletion({ content: "hello" }) });
  const provider = new OpenRouterProvider({
    model: "acme/model",
    apiKey: "sk-or-test",
    baseURL: mock.baseURL,
  });
  const lines = await fenced(OTHER_NAME, async () => {
    await assert.rejects(provider.chat([Message.user("hi")], []), permanentRefusal);
  });
  assert.equal(mock.hits(), 0);
  assert.ok(lines.includes(line("model")));
  // Allowed, the SDK's Request (body and all) goes through the guard's redirect walk.
  await fenced(THIS_ADDRESS, async () => {
    assert.equal((await provider.chat([Message.user("hi")], [])).content, "hello");
  });
  assert.equal(mock.hits("chat"), 1);
  assert.equal(mock.lastBody("chat").model, "acme/model");
});

Deno.test({
  name: "mcp: an HTTP server the rules do not allow is skipped, never contacted",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const home = await tempConfigHome();
    const http = startTestHttpServer();
    try {
      await writeServer(home, "ok", { url: http.url("ok") });
      await approveAll(home);
      const lines = await fenced(OTHER_NAME, async () => {
        const mcp = await loadMcp({ configHome: home, timeoutSeconds: 5 });
        try {
          assert.deepEqual(mcp.tools, []);
          assert.equal(mcp.skipped.length, 1);
          assert.match(mcp.skipped[0].reason, /'127\.0\.0\.1', which the host rules in/);
        } finally {
          await mcp.close();
        }
      });
      assert.ok(lines.includes(line("mcp")));
      await fenced(THIS_ADDRESS, async () => {
        // Loads at once; the deadline is only there for a machine under load.
        const mcp = await loadMcp({ configHome: home, timeoutSeconds: 30 });
        try {
          assert.ok(mcp.tools.length > 0, "allowed, the same server loads");
        } finally {
          await mcp.close();
        }
      });
    } finally {
      await http.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "harness mcp list: the host rules guard its connections too",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const home = await tempConfigHome();
    const http = startTestHttpServer();
    const out: string[] = [];
    try {
      await writeServer(home, "calc", { url: http.url("ok") });
      await Deno.writeTextFile(`${home}/host_rules.json`, '{"allow": ["localhost"]}');
      const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) };
      await runMcp({ action: "list", servers: [], configHome: home, timeoutSeconds: 5, io });
      assert.match(out.join(""), /calc .*'127\.0\.0\.1', which the host rules in/);
    } finally {
      installFence(null);
      await http.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test("ntfy: the direct message is refused and nothing reaches the server", async () => {
  await using stub = await startStub(() => new Response("ok"));
  const client = new PlatformClient({ baseUrl: "http://127.0.0.1:9", token: "unused" });
  const tool = new DirectMessageTool({ url: `${stub.url}/dm`, token: "tk" }, context(client), {
    sleep: () => Promise.resolve(),
  });
  const lines = await fenced(OTHER_NAME, async () => {
    const out = await tool.run({ body: "hello" });
    assert.match(String(out), /'127\.0\.0\.1', which the host rules in/);
  });
  assert.equal(stub.requests.length, 0);
  // A refused host is not a transport fault worth the one retry: the refusal is logged once.
  assert.equal(lines.filter((l) => l === line("ntfy")).length, 1);
});

Deno.test("xai management: the balance call is refused and nothing reaches the API", async () => {
  await using stub = await startStub(() => Response.json({ teamId: "t" }));
  const tool = new XaiBalanceTool({ url: stub.url, key: "xai-key", teamId: "t" }, {
    cache: new Map(),
  });
  const lines = await fenced(OTHER_NAME, async () => {
    assert.match(await tool.run({}), /unavailable.*'127\.0\.0\.1', which the host rules in/);
  });
  assert.equal(stub.requests.length, 0);
  // Each of its two endpoints is tried, and each is refused.
  assert.ok(lines.length > 0 && lines.every((l) => l === line("xai_management")));
});

Deno.test("media: the Images API call through the openai SDK is refused", async () => {
  await using mock = await ModelMock.start();
  const client = new PlatformClient({ baseUrl: "http://127.0.0.1:9", token: "unused" });
  const tool = new GenerateImageTool(
    { provider: "openai", apiKey: "sk-media", baseURL: mock.baseURL },
    context(client),
  );
  const lines = await fenced(OTHER_NAME, async () => {
    const out = await tool.run({ prompt: "a fox" });
    assert.match(
      typeof out === "string" ? out : out.text,
      /'127\.0\.0\.1', which the host rules in/,
    );
  });
  assert.equal(mock.hits(), 0);
  assert.deepEqual(lines, [line("media")]);
});

/** A transport that records each hop and answers the first with a redirect to `location`. */
function redirecting(location: string) {
  const hops: string[] = [];
  const transport: Transport = (request) => {
    hops.push(request.target.url.href);
    const first = hops.length === 1;
    const response: HttpResponse = {
      status: first ? 302 : 200,
      headers: new Headers(first ? { location } : { "content-type": "text/plain" }),
      body: ReadableStream.from([new TextEncoder().encode("landed")]),
      close: () => {},
    };
    return Promise.resolve(response);
  };
  return { hops, transport };
}

Deno.test("web_fetch: a host or a redirect hop outside the rules is refused, on top of the address fence", async () => {
  const resolver = () => Promise.resolve(["93.184.215.14"]);
  const { hops, transport } = redirecting("https://elsewhere.example/next");
  const tool = new WebFetchTool({ resolver, transport });
  const lines = await fenced(["public.example"], async () => {
    assert.equal(
      await tool.run({ url: "https://other.example/" }),
      "Couldn't fetch 'https://other.example/': refused: 'other.example' is not among the hosts " +
        "this agent may reach (its operator's host rules).",
    );
    assert.deepEqual(hops, []);
    assert.equal(
      await tool.run({ url: "https://public.example/start" }),
      "Couldn't fetch 'https://public.example/start': redirect 1 (to " +
        "https://elsewhere.example/next) was refused: 'elsewhere.example' is not among the " +
        "hosts this agent may reach (its operator's host rules).",
    );
    assert.deepEqual(hops, ["https://public.example/start"], "the refused hop was not dialled");
  });
  assert.deepEqual(lines, [
    "WARNING host refused host=other.example via=web_fetch",
    "WARNING host refused host=elsewhere.example via=web_fetch",
  ]);
  // Control: both hosts allowed, the redirect is followed.
  await fenced(["public.example", "elsewhere.example"], async () => {
    const { hops, transport } = redirecting("https://elsewhere.example/next");
    const out = await new WebFetchTool({ resolver, transport }).run({
      url: "https://public.example/start",
    });
    assert.match(out, /^Fetched https:\/\/elsewhere\.example\/next/);
    assert.equal(hops.length, 2);
  });
});
