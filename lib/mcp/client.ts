/**
 * One connection to one MCP server through `@modelcontextprotocol/sdk`'s `Client`: connect
 * (spawn + initialize), list the tools, call them, close. Every request carries the per-request
 * timeout, so a stalled server costs at most that long, and the whole tool list (every page
 * together) has that same time: a server that pages slowly cannot hold the wake for pages × the
 * timeout. This module imports the SDK, so it is
 * itself only ever imported dynamically (`mod.ts`), and only when `mcp/` holds a server.
 *
 * Results are requested with our own zod schemas rather than the SDK's `listTools`/`callTool`
 * helpers: those reject a whole list for one malformed tool and a whole result for an output
 * that misses its declared `outputSchema`; we want to skip the one tool, and show the model
 * whatever content did arrive.
 */
import { outboundFetch } from "../net/outbound.ts";
import { errorMessage } from "../base/error_text.ts";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as z from "../base/zod.ts";
import { VERSION } from "../base/version.ts";
import type { McpServerConfig } from "./config.ts";
import { CallResultSchema, type McpConnection } from "./connection.ts";
import { SupervisedStdioTransport } from "./supervisor/stdio_transport.ts";

/** The most `tools/list` pages followed (a server that pages forever is cut off). */
const MAX_PAGES = 32;

/** How to connect. */
export interface ConnectOptions {
  /** The per-request timeout, in milliseconds. */
  readonly timeoutMs: number;
  /** Inherited variables withheld from a stdio server's environment. */
  readonly withheld: readonly string[];
}

const ListResultSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/**
 * Connects to `config`'s server (spawning a stdio one under the orphan guard) and completes the
 * initialize handshake.
 * @throws {Error} with a one-line reason when the server cannot start or handshake in time.
 */
export async function connectMcpServer(
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<McpConnection> {
  const spec = config.server;
  const stdio = spec.transport === "stdio"
    ? new SupervisedStdioTransport({ ...spec, withheld: options.withheld })
    : undefined;
  const transport = stdio ??
    new StreamableHTTPClientTransport(new URL(spec.transport === "http" ? spec.url : ""), {
      requestInit: { headers: spec.transport === "http" ? { ...spec.headers } : {} },
      fetch: outboundFetch("mcp"),
    });
  const client = new Client({ name: "basecradle-harness", version: VERSION }, {
    capabilities: {},
  });
  // Errors the SDK reports out of band (a garbled line) must not become unhandled rejections.
  client.onerror = () => {};
  const timeout = options.timeoutMs;
  const explain = async (error: unknown): Promise<Error> => {
    // Give a dying process a moment so its exit code and stderr can join the reason.
    if (stdio) await stdio.exited(250);
    return new Error(describeError(error, timeout, stdio?.exitReport()));
  };
  try {
    await client.connect(transport, { timeout });
  } catch (error) {
    const reason = await explain(error);
    await closeQuietly(client, stdio);
    throw reason;
  }
  let closing: Promise<void> | undefined;
  return {
    server: config.name,
    pid: stdio?.pid,
    async listTools() {
      const tools: unknown[] = [];
      let cursor: string | undefined;
      // One time limit for the whole list: each page gets what is left of it.
      const until = performance.now() + timeout;
      for (let page = 0; page < MAX_PAGES; page++) {
        const left = until - performance.now();
        if (left <= 0) throw new Error(listTooSlow(timeout, page));
        try {
          const result = await client.request(
            { method: "tools/list", params: cursor ? { cursor } : {} },
            ListResultSchema,
            { timeout: Math.min(timeout, left) },
          );
          tools.push(...result.tools);
          cursor = result.nextCursor;
        } catch (error) {
          // A later page cut short by what was left of the limit: the list as a whole was slow.
          const code = (error as { code?: unknown })?.code;
          if (page > 0 && code === REQUEST_TIMEOUT) throw new Error(listTooSlow(timeout, page));
          throw await explain(error);
        }
        if (!cursor) break;
      }
      return tools;
    },
    async callTool(tool, args, signal) {
      try {
        return await client.request(
          { method: "tools/call", params: { name: tool, arguments: args } },
          CallResultSchema,
          { timeout, signal },
        );
      } catch (error) {
        throw await explain(error);
      }
    },
    close() {
      closing ??= closeQuietly(client, stdio);
      return closing;
    },
  };
}

async function closeQuietly(client: Client, stdio?: SupervisedStdioTransport): Promise<void> {
  // Bounded: an HTTP server that never answers the session DELETE must not hold the wake open.
  await Promise.race([
    client.close().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 2000)),
  ]);
  await stdio?.close();
}

/** Why a tool list that took too long as a whole was given up, after `pages` full pages. */
function listTooSlow(timeoutMs: number, pages: number): string {
  const seconds = Number((timeoutMs / 1000).toFixed(3));
  return `its tool list did not arrive within ${seconds} s (HARNESS_MCP_TIMEOUT bounds the ` +
    `whole list, every page together; ${pages} page(s) had come)`;
}

/** The SDK's error codes this module words specially. */
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;

/**
 * One line for an SDK failure: a JSON-RPC error as `<message> (code <code>)` (docs/mcp.md), a
 * timeout naming the limit, a closed connection with the process's exit report when known.
 */
export function describeError(error: unknown, timeoutMs: number, exit?: string): string {
  const line = describe(error, timeoutMs, exit);
  // A server's validation dump can run to kilobytes; the model and the journal need the gist.
  return line.length > MAX_ERROR ? `${line.slice(0, MAX_ERROR - 1)}…` : line;
}

/** The longest error line kept. */
const MAX_ERROR = 600;

function describe(error: unknown, timeoutMs: number, exit?: string): string {
  const code = (error as { code?: unknown })?.code;
  const raw = errorMessage(error);
  const message = raw.replace(/^MCP error -?\d+:\s*/, "").replace(/\s+/g, " ").trim();
  if (code === REQUEST_TIMEOUT) {
    const seconds = Number((timeoutMs / 1000).toFixed(3));
    return `no answer within ${seconds} s (HARNESS_MCP_TIMEOUT)` + (exit ? `; ${exit}` : "");
  }
  if (code === CONNECTION_CLOSED || (exit && /not connected|closed/i.test(message))) {
    return exit ? `connection closed; ${exit}` : "connection closed";
  }
  if (typeof code === "number") return `${message} (code ${code})`;
  return exit ? `${message}; ${exit}` : message;
}
