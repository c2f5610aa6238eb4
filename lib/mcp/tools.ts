/**
 * `McpTool`: one discovered MCP tool as an ordinary harness `Tool`. It proxies each call to its
 * server and turns every failure — a timeout, a dead server, a JSON-RPC error — into a tool
 * error the model can read, so a misbehaving server never stalls or crashes the wake.
 */
import { errorMessage } from "../base/error_text.ts";
import { type JsonSchema, Tool, type ToolContext, type ToolOutput } from "../core/types/tool.ts";
import type { McpConnection } from "./connection.ts";
import { type ImageSink, renderCallResult } from "./results.ts";

/** What an `McpTool` is built from. */
export interface McpToolSpec {
  /** The name the model calls (`<server>__<tool>`, sanitised, ≤ 64). */
  readonly name: string;
  /** The server's own name for the tool (what `tools/call` is sent). */
  readonly remoteName: string;
  /** The bounded description. */
  readonly description: string;
  /** The tool's input schema (always a JSON object schema). */
  readonly parameters: JsonSchema;
  /** The most characters of a result the model reads (default: `MAX_RESULT_CHARS`). */
  readonly maxResultChars?: number;
}

/** A proxy to one tool on one MCP server. */
export class McpTool extends Tool {
  readonly name: string;
  readonly description: string;
  override readonly parameters: JsonSchema;
  /** The server's own name for the tool. */
  readonly remoteName: string;
  readonly #connection: McpConnection;
  readonly #images: ImageSink;
  readonly #maxResultChars?: number;

  /** A proxy for `spec`, calling through `connection`, stashing images in `images`. */
  constructor(spec: McpToolSpec, connection: McpConnection, images: ImageSink) {
    super();
    this.name = spec.name;
    this.remoteName = spec.remoteName;
    this.description = spec.description;
    this.parameters = spec.parameters;
    this.#connection = connection;
    this.#images = images;
    this.#maxResultChars = spec.maxResultChars;
  }

  /** The server this tool belongs to. */
  get server(): string {
    return this.#connection.server;
  }

  /** Calls the tool; failures come back as `Error: …` text, never as a throw. */
  async run(args: unknown, context?: ToolContext): Promise<string | ToolOutput> {
    const payload = args ?? {};
    if (typeof payload !== "object" || Array.isArray(payload)) {
      return "Error: the arguments must be a JSON object.";
    }
    try {
      const result = await this.#connection.callTool(
        this.remoteName,
        payload as Record<string, unknown>,
        context?.signal,
      );
      return renderCallResult(result, this.#images, this.#maxResultChars);
    } catch (error) {
      const reason = errorMessage(error);
      return `Error: MCP server '${this.server}' failed on '${this.remoteName}': ${reason}`;
    }
  }
}
