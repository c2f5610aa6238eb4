/**
 * The MCP client (docs/mcp.md): drop a server config into `<config-home>/mcp/` and its tools
 * join the agent's tool set as `<server>__<tool>`. Two entry points:
 *
 * - {@link readMcpConfigs} — cheap, no spawn, no network: which servers are configured and
 *   which approved stdio servers need `run` (the sandbox decides before it narrows).
 * - {@link loadMcp} — the wake's step: starts the approved servers (the SDK is imported only
 *   now), returns the proxy tools, what was skipped and why, the brief's notices, the image
 *   stash, and `close()` for wake end.
 */
export {
  type HttpServerConfig,
  type McpConfigRead,
  type McpServerConfig,
  type McpSkip,
  parseMcpConfig,
  readMcpConfigs,
  type StdioServerConfig,
} from "./config.ts";
export {
  DEFAULT_WITHHELD_ENV,
  inspectServers,
  type LoadedServer,
  loadMcp,
  type LoadMcpOptions,
  mcpActiveLine,
  mcpBriefNotice,
  type McpLoad,
  mcpToolNote,
  type ServerInspection,
} from "./load.ts";
export { MAX_DESCRIPTION, MAX_TOOL_NAME, mcpToolName, sanitizeNamePart } from "./names.ts";
export {
  APPROVALS_FILE,
  approveCommand,
  canonicalJson,
  digestToolList,
  pinMismatch,
  readApprovals,
  recordApproval,
  revokeApproval,
} from "./pinning.ts";
export { type ImageSink, MAX_IMAGE_BYTES, renderCallResult } from "./results.ts";
export { McpTool } from "./tools.ts";
