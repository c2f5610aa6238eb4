/**
 * A Deno-native Streamable HTTP MCP server (the SDK's low-level `Server` over
 * `WebStandardStreamableHTTPServerTransport`, stateless) whose behaviour is chosen per URL:
 * `/<mode>/mcp`. Modes: `ok` (add, images, an output-schema liar), `slow` (a tool that takes
 * `slowMs`, 2 s by default), `slowlist` (tools/list takes as long), `lying` (a tool list with broken entries), `down`
 * (HTTP 500), `pages` (a tool list of {@link PAGES} pages, one tool each), `slowpages` (the same
 * list, each page taking 1 s), `huge` (a tool whose result is {@link HUGE_CHARS} characters).
 */
import { Server } from "@modelcontextprotocol/sdk/server";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** A 1×1 PNG. */
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const OBJECT = { type: "object", properties: {} } as const;

/** How many pages the paging modes' tool list has. */
export const PAGES = 40;
/** The `huge` mode's result: 30 MiB of text. */
export const HUGE_CHARS = 30 * 1024 * 1024;

const TOOLS: Record<string, unknown[]> = {
  ok: [
    {
      name: "add",
      description: "Add two numbers.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    },
    { name: "images", description: "Return pictures.", inputSchema: OBJECT },
    {
      name: "liar",
      description: "Declares an output schema it does not honour.",
      inputSchema: OBJECT,
      outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    },
    { name: "fail", description: "Always reports an error.", inputSchema: OBJECT },
  ],
  slow: [{ name: "slow", description: "Takes two seconds.", inputSchema: OBJECT }],
  slowlist: [{ name: "never", inputSchema: OBJECT }],
  huge: [{ name: "dump", description: "Returns 30 MiB of text.", inputSchema: OBJECT }],
  lying: [
    { name: "good", inputSchema: OBJECT },
    { name: "stringly", description: "Schema is not an object.", inputSchema: { type: "string" } },
    { description: "I have no name", inputSchema: OBJECT },
    { name: `long name ${"x".repeat(80)} ✓`, description: "d".repeat(5000), inputSchema: OBJECT },
    { name: "bare" },
  ],
};

async function call(name: string, args: Record<string, unknown>, slowMs: number) {
  switch (name) {
    case "add":
      return { content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }] };
    case "images":
      return {
        content: [
          { type: "text", text: "pictures:" },
          { type: "image", mimeType: "image/png", data: TINY_PNG },
          { type: "image", mimeType: "image/tiff", data: TINY_PNG },
          { type: "audio", mimeType: "audio/wav", data: "AAAA" },
        ],
      };
    case "liar":
      return { content: [{ type: "text", text: "n is a string" }], structuredContent: { n: "x" } };
    case "fail":
      return { content: [{ type: "text", text: "it broke" }], isError: true };
    case "slow":
      await new Promise((r) => setTimeout(r, slowMs));
      return { content: [{ type: "text", text: "finally" }] };
    case "dump":
      return { content: [{ type: "text", text: "0123456789".repeat(HUGE_CHARS / 10) }] };
    default:
      return { content: [{ type: "text", text: `unknown tool ${name}` }], isError: true };
  }
}

/** A running test server. */
export interface TestHttpServer {
  /** The MCP endpoint for `mode`. */
  url(mode: string): string;
  /** How many `tools/list` requests each mode has answered (or started to). */
  readonly listed: Record<string, number>;
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 (an ephemeral port). `slowMs` is how long the `slow` tool and
 * the `slowlist` listing take (default 2 s); a timeout test sets it far past its deadline, so the
 * outcome cannot depend on how loaded the machine is.
 */
export function startTestHttpServer(options: { slowMs?: number } = {}): TestHttpServer {
  const slowMs = options.slowMs ?? 2000;
  const listed: Record<string, number> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const mode = new URL(req.url).pathname.split("/")[1];
    if (mode === "down") return new Response("nope", { status: 500 });
    const mcp = new Server({ name: `test-${mode}`, version: "0.0.1" }, {
      capabilities: { tools: {} },
    });
    mcp.setRequestHandler(ListToolsRequestSchema, async (request) => {
      listed[mode] = (listed[mode] ?? 0) + 1;
      if (mode === "slowlist") await new Promise((r) => setTimeout(r, slowMs));
      if (mode === "pages" || mode === "slowpages") {
        if (mode === "slowpages") await new Promise((r) => setTimeout(r, 1000));
        const page = Number(request.params?.cursor ?? "0");
        const next = page + 1 < PAGES ? { nextCursor: String(page + 1) } : {};
        return { tools: [{ name: `tool_${page}`, inputSchema: OBJECT }], ...next } as never;
      }
      return { tools: TOOLS[mode] ?? [] } as never;
    });
    mcp.setRequestHandler(
      CallToolRequestSchema,
      (request) => call(request.params.name, request.params.arguments ?? {}, slowMs) as never,
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await mcp.connect(transport);
    return await transport.handleRequest(req);
  });
  const port = server.addr.port;
  return {
    url: (mode) => `http://127.0.0.1:${port}/${mode}/mcp`,
    listed,
    // Bounded: a keep-alive connection a failed test left open must not hang the suite.
    close: () => Promise.race([server.shutdown(), new Promise<void>((r) => setTimeout(r, 500))]),
  };
}
