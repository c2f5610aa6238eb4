/**
 * The shape of a live MCP connection, apart from the SDK-backed implementation in `client.ts`:
 * the modules a wake imports eagerly (`load.ts`, `tools.ts`, `results.ts`) depend on this file
 * only, so nothing outside the lazily imported `client.ts` pulls the SDK into the start-up graph.
 */
import * as z from "../base/zod.ts";

/** A `tools/call` result, loosely validated (content blocks are judged one by one). */
export const CallResultSchema = z.looseObject({
  content: z.array(z.unknown()).optional(),
  isError: z.boolean().optional(),
  structuredContent: z.unknown().optional(),
});

/** What a `tools/call` returned. */
export type CallResult = z.infer<typeof CallResultSchema>;

/** A live connection. */
export interface McpConnection {
  /** The server's name (its config's). */
  readonly server: string;
  /** The pid of a stdio server (its process group), for tests and diagnostics. */
  readonly pid?: number;
  /** Lists every tool (following pages), exactly as the server sent them. */
  listTools(): Promise<unknown[]>;
  /** Calls one tool by the server's own name for it. */
  callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult>;
  /** Closes the session and ends the server's process group; never throws. */
  close(): Promise<void>;
}
