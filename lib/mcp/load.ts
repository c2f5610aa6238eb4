/**
 * The wake's MCP step: read the drop-ins, refuse what is unapproved, start the rest in parallel,
 * check each tool list against its pin, turn the tools into `McpTool`s named for the model, and
 * report — in the journal and for the brief — that the agent has left the safe zone. Nothing
 * here can fail the wake: every problem becomes a `skipped` entry with its reason.
 */
import { errorMessage } from "../base/error_text.ts";
import { lazyImport } from "../base/lazy_import.ts";
import type { Journal } from "../journal/journal.ts";
import { silentJournal } from "../journal/journal.ts";
import { ImageRing, type ImageStash } from "../tools/shared/image_stash.ts";
import type { McpConnection } from "./connection.ts";
import {
  type McpConfigRead,
  type McpServerConfig,
  type McpSkip,
  readMcpConfigs,
} from "./config.ts";
import { mcpToolDescription, mcpToolName, mcpToolPrefix } from "./names.ts";
import {
  type Approvals,
  digestToolList,
  isApproved,
  pinMismatch,
  readApprovals,
  type ToolListDigest,
  unapprovedReason,
} from "./pinning.ts";
import type { ImageSink } from "./results.ts";
import { McpTool, type McpToolSpec } from "./tools.ts";
import { SECRET_VARIABLES } from "../journal/secret_variables.ts";

/**
 * The harness's own credentials, withheld from a stdio server's inherited environment (the
 * core's secret-variable list). A server that needs a key gets it from its own config's `env`,
 * deliberately.
 */
export const DEFAULT_WITHHELD_ENV: readonly string[] = SECRET_VARIABLES;

/** How to load. */
export interface LoadMcpOptions {
  /** The config home whose `mcp/` holds the drop-ins. */
  readonly configHome: string;
  /** The per-request timeout in seconds (`HARNESS_MCP_TIMEOUT`, default 20). */
  readonly timeoutSeconds: number;
  /** Where the WARNING lines go (default: silent). */
  readonly journal?: Journal;
  /** This wake's image stash, shared with the assets tool (default: a fresh `ImageRing`). */
  readonly images?: ImageSink & ImageStash;
  /** The config read made before the sandbox narrowed, reused instead of read again. */
  readonly configs?: McpConfigRead;
  /** Inherited variables withheld from stdio servers (default {@link DEFAULT_WITHHELD_ENV}). */
  readonly withheldEnv?: readonly string[];
}

/** One server that loaded. */
export interface LoadedServer {
  readonly name: string;
  readonly transport: "stdio" | "http";
  /** How many of its tools joined the tool set. */
  readonly tools: number;
}

/** What the MCP step produced. */
export interface McpLoad {
  /** The proxy tools, sorted by name (so the request prefix is byte-stable across wakes). */
  readonly tools: readonly McpTool[];
  /** Sorted names of every parseable config, loaded or not (`mcp_servers`). */
  readonly servers: readonly string[];
  /** Sorted names of the approved stdio servers (the ones that needed `run`). */
  readonly stdioServers: readonly string[];
  /** The servers that loaded, sorted by name. */
  readonly loaded: readonly LoadedServer[];
  /** Servers, configs and tools that did not load, each with its reason. */
  readonly skipped: readonly McpSkip[];
  /** The brief's safety notices, one per loaded server, worded for the model. */
  readonly notices: readonly string[];
  /** Manifest notes, one per tool (`from MCP server '<s>' — installed and approved …`). */
  readonly notes: readonly { readonly name: string; readonly note: string }[];
  /** The stash image results went to; hand it to the assets tool for `post_image`. */
  readonly images: ImageStash;
  /** Ends every session and server process group; never throws. Call at wake end. */
  close(): Promise<void>;
}

/**
 * The audit line for a loaded server (docs/journal.md#free-text-lines,
 * docs/mcp.md#leaving-the-safe-zone), WARNING.
 */
export function mcpActiveLine(server: string, tools: number): string {
  return `MCP server '${server}' active: ${tools} tool(s) loaded — this agent has extended ` +
    "beyond the safe-by-default tool set.";
}

/**
 * The brief's notice for a loaded server. Worded for the model, not the auditor (seed, issue
 * #322): a model told its tools were unsanctioned refused to call them and invented results.
 */
export function mcpBriefNotice(server: string, tools: number): string {
  return `MCP server '${server}' active with ${tools} tool(s), named ${mcpToolPrefix(server)}__… ` +
    "— deliberately installed and approved for your use by your operator. They are " +
    "first-class tools: call them whenever they fit the task, and never report a result from " +
    "one that you did not actually obtain. (An operator opt-out beyond the safe-by-default " +
    "tool set, recorded for audit.)";
}

/** The per-tool manifest note. */
export function mcpToolNote(server: string): string {
  return `from MCP server '${server}' — installed and approved for your use`;
}

/**
 * Loads every approved MCP server under `configHome`. The SDK is imported only when `mcp/`
 * holds at least one approved server.
 */
export async function loadMcp(options: LoadMcpOptions): Promise<McpLoad> {
  const journal = options.journal ?? silentJournal;
  const read = options.configs ?? await readMcpConfigs(options.configHome);
  for (const line of read.warnings) journal.text("WARNING", line);
  const images = options.images ?? new ImageRing();
  const skipped: McpSkip[] = [...read.skipped];
  const fail = (name: string, reason: string) => {
    const line = `MCP server '${name}' did not load: ${reason}`;
    skipped.push({ name, reason: line });
    journal.text("WARNING", line);
  };
  const approvals = read.configs.length ? await readApprovals(options.configHome) : undefined;
  const wanted = read.configs.filter((config) => {
    if (approvals && isApproved(approvals, config.name)) return true;
    fail(config.name, unapprovedReason(config.name, approvals ?? { servers: {} }));
    return false;
  });
  const started = wanted.length ? await startAll(wanted, options, approvals!) : [];
  const connections: McpConnection[] = [];
  const tools: McpTool[] = [];
  const loaded: LoadedServer[] = [];
  const claimed = new Set<string>();
  for (const outcome of started) {
    if ("error" in outcome) {
      fail(outcome.config.name, outcome.error);
      continue;
    }
    const { config, connection, specs, refused } = outcome;
    connections.push(connection);
    for (const refusal of refused) {
      skipped.push(refusal);
      journal.text("WARNING", refusal.reason);
    }
    let count = 0;
    for (const spec of specs) {
      if (claimed.has(spec.name)) {
        skipped.push({
          name: spec.name,
          reason: `duplicate tool name from MCP server '${config.name}'; skipped`,
        });
        journal.text(
          "WARNING",
          `MCP tool name '${spec.name}' already claimed; skipping the duplicate.`,
        );
        continue;
      }
      claimed.add(spec.name);
      tools.push(
        new McpTool({ ...spec, maxResultChars: config.maxResultChars }, connection, images),
      );
      count++;
    }
    loaded.push({ name: config.name, transport: config.server.transport, tools: count });
    journal.text("WARNING", mcpActiveLine(config.name, count));
  }
  tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let closing: Promise<void> | undefined;
  return {
    tools,
    servers: read.servers,
    stdioServers: read.stdioServers,
    loaded,
    skipped,
    notices: loaded.map((s) => mcpBriefNotice(s.name, s.tools)),
    notes: tools.map((t) => ({ name: t.name, note: mcpToolNote(t.server) })),
    images,
    close() {
      closing ??= Promise.all(connections.map((c) => c.close())).then(() => {});
      return closing;
    },
  };
}

type Started =
  | {
    readonly config: McpServerConfig;
    readonly connection: McpConnection;
    readonly specs: McpToolSpec[];
    readonly refused: McpSkip[];
  }
  | { readonly config: McpServerConfig; readonly error: string };

/**
 * The SDK-backed client, imported only now. Through `lazyImport`, because Deno parses every
 * literal dynamic import reachable from the entry point at start-up: a literal here would make
 * every wake pay for the SDK's module graph, MCP or not.
 */
function loadClient(): Promise<typeof import("./client.ts")> {
  return lazyImport<typeof import("./client.ts")>("lib/mcp/client.ts");
}

/** Starts every server at once: a wake waits for the slowest, not for their sum. */
async function startAll(
  configs: readonly McpServerConfig[],
  options: LoadMcpOptions,
  approvals: Approvals,
): Promise<Started[]> {
  const { connectMcpServer } = await loadClient();
  const connect = {
    timeoutMs: options.timeoutSeconds * 1000,
    withheld: options.withheldEnv ?? DEFAULT_WITHHELD_ENV,
  };
  return await Promise.all(configs.map(async (config): Promise<Started> => {
    let connection: McpConnection;
    try {
      connection = await connectMcpServer(config, connect);
    } catch (error) {
      return { config, error: errorText(error) };
    }
    try {
      const raw = await connection.listTools();
      const mismatch = pinMismatch(
        config.name,
        approvals.servers[config.name],
        await digestToolList(raw),
      );
      if (mismatch) {
        await connection.close();
        return { config, error: mismatch };
      }
      return { config, connection, ...toolSpecs(config.name, raw) };
    } catch (error) {
      await connection.close();
      return { config, error: errorText(error) };
    }
  }));
}

/**
 * The usable tools of one server's list, in list order, and the refusals. A tool whose input
 * schema is not an object schema is refused on its own: providers reject any other shape, and
 * one bad tool must not cost the server its good ones.
 */
export function toolSpecs(server: string, raw: readonly unknown[]): {
  specs: McpToolSpec[];
  refused: McpSkip[];
} {
  const specs: McpToolSpec[] = [];
  const refused: McpSkip[] = [];
  for (const [index, entry] of raw.entries()) {
    const tool = entry !== null && typeof entry === "object"
      ? entry as Record<string, unknown>
      : {};
    const remote = typeof tool.name === "string" && tool.name.trim() ? tool.name : undefined;
    if (!remote) {
      refused.push({
        name: server,
        reason: `MCP server '${server}' listed a tool with no name (entry ${index}); skipped`,
      });
      continue;
    }
    const name = mcpToolName(server, remote);
    const schema = tool.inputSchema ?? { type: "object", properties: {} };
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      refused.push({ name, reason: badSchema(server, remote) });
      continue;
    }
    const record = schema as Record<string, unknown>;
    if (record.type !== undefined && record.type !== "object") {
      refused.push({ name, reason: badSchema(server, remote) });
      continue;
    }
    const description = typeof tool.description === "string" ? tool.description : undefined;
    specs.push({
      name,
      remoteName: remote,
      description: mcpToolDescription(server, remote, description),
      parameters: { ...record, type: "object" },
    });
  }
  return { specs, refused };
}

function badSchema(server: string, tool: string): string {
  return `MCP tool '${tool}' from server '${server}' skipped: its input schema is not a JSON ` +
    "object schema";
}

/** The digest of one server's live tool list, for `harness mcp approve` and `list`. */
export interface ServerInspection {
  readonly config: McpServerConfig;
  /** The tools as the server listed them (undefined when it could not be reached). */
  readonly rawTools?: readonly unknown[];
  readonly digest?: ToolListDigest;
  readonly error?: string;
}

/** Connects to each server, lists and fingerprints its tools, and closes it again. */
export async function inspectServers(
  configs: readonly McpServerConfig[],
  options: { readonly timeoutSeconds: number; readonly withheldEnv?: readonly string[] },
): Promise<ServerInspection[]> {
  if (configs.length === 0) return [];
  const { connectMcpServer } = await loadClient();
  const connect = {
    timeoutMs: options.timeoutSeconds * 1000,
    withheld: options.withheldEnv ?? DEFAULT_WITHHELD_ENV,
  };
  return await Promise.all(configs.map(async (config): Promise<ServerInspection> => {
    let connection: McpConnection | undefined;
    try {
      connection = await connectMcpServer(config, connect);
      const rawTools = await connection.listTools();
      return { config, rawTools, digest: await digestToolList(rawTools) };
    } catch (error) {
      return { config, error: errorText(error) };
    } finally {
      await connection?.close();
    }
  }));
}

function errorText(error: unknown): string {
  return errorMessage(error).replace(/\s+/g, " ").trim();
}
