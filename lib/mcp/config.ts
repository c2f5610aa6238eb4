/**
 * MCP server drop-ins (docs/mcp.md): one server per `<config-home>/mcp/<name>.json`, read and
 * validated here without spawning anything — cheap enough for the sandbox decision that has to
 * happen before the process narrows its permissions. A malformed file is a skipped server with
 * its reason, never a failed wake.
 */
import { errorMessage } from "../base/error_text.ts";
import { isRecord } from "../base/json_object.ts";
import * as z from "../base/zod.ts";
import { MCP_RANGES } from "../config/ranges.ts";
import { isApproved, readApprovals } from "./pinning.ts";

/** A local server the harness spawns and talks to over stdin/stdout. */
export interface StdioServerConfig {
  readonly transport: "stdio";
  /** The program; run directly, never through a shell. */
  readonly command: string;
  readonly args: readonly string[];
  /** Variables laid over the inherited environment, passed literally (no `$VAR` expansion). */
  readonly env: Readonly<Record<string, string>>;
}

/** A remote server reached over Streamable HTTP. */
export interface HttpServerConfig {
  readonly transport: "http";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** One parsed server config. */
export interface McpServerConfig {
  /** The server's name: the wrapper key, else the file stem. */
  readonly name: string;
  /** The file it came from, relative to the config home (`mcp/<file>`). */
  readonly file: string;
  readonly server: StdioServerConfig | HttpServerConfig;
  /**
   * `max_result_chars`: the most characters (code points) of one tool result the model reads (the rest is
   * cut with a note); undefined: {@link MAX_RESULT_CHARS}.
   */
  readonly maxResultChars?: number;
}

/** The most characters of one tool result the model reads, unless the server's file says. */
export const MAX_RESULT_CHARS = 100_000;

/** A server that will not load, and why. */
export interface McpSkip {
  /** The server (or, for a duplicate or refused tool, the tool's final name). */
  readonly name: string;
  readonly reason: string;
}

/** What the `mcp/` directory holds. */
export interface McpConfigRead {
  /** Every parseable config, sorted by name. */
  readonly configs: readonly McpServerConfig[];
  /** Sorted names of the parseable configs, loaded or not (`mcp_servers` in resolved-config). */
  readonly servers: readonly string[];
  /**
   * Sorted names of the approved stdio servers: the ones a wake will spawn, so the outer sandbox
   * keeps `run` only for these (an unapproved server is refused before it is ever started).
   */
  readonly stdioServers: readonly string[];
  /** Files that did not parse, each with a WARNING-ready reason. */
  readonly skipped: readonly McpSkip[];
  /** `Skipping MCP server config <file>: <reason>` lines for the journal. */
  readonly warnings: readonly string[];
}

const stringMap = z.record(z.string(), z.string());

/** `max_result_chars` in its range (lib/config/ranges.ts), each refusal naming the key and range. */
function resultCharsSchema(): z.ZodNumber {
  const { min, max } = MCP_RANGES.max_result_chars;
  const outside = `max_result_chars must be from ${min} to ${max}`;
  return z.number().int("max_result_chars must be a whole number of characters")
    .min(min, outside).max(max, outside);
}

/**
 * The standard MCP config entry. Unknown keys are ignored so a published snippet (with a
 * `"type"`, `"disabled"` or `"description"` of its own) drops in unmodified.
 */
const EntrySchema = z.object({
  command: z.string().trim().min(1, "command must be a non-empty string").optional(),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  url: z.string().optional(),
  headers: stringMap.optional(),
  type: z.string().optional(),
  max_result_chars: resultCharsSchema().optional(),
}).superRefine((entry, ctx) => {
  if ((entry.command === undefined) === (entry.url === undefined)) {
    ctx.addIssue({ code: "custom", message: "exactly one of 'command' (stdio) or 'url' (HTTP)" });
  }
  if (entry.type !== undefined && /^sse$/i.test(entry.type.trim())) {
    ctx.addIssue({
      code: "custom",
      message: "the legacy SSE transport is not supported; use the server's Streamable HTTP URL",
    });
  }
  if (entry.url !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(entry.url);
    } catch { /* reported below */ }
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      ctx.addIssue({ code: "custom", message: "url must be an http:// or https:// URL" });
    }
  }
});

/** A usable server name: it becomes a tool-name prefix and a key in `.approved.json`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Parses one config file's text. `stem` is the file name without `.json`.
 * @returns the config, or the reason it is unusable.
 */
export function parseMcpConfig(
  stem: string,
  file: string,
  text: string,
): McpServerConfig | { readonly error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { error: `invalid JSON: ${errorMessage(error)}` };
  }
  let name = stem;
  if (isRecord(raw) && "mcpServers" in raw) {
    const wrapped = raw.mcpServers;
    if (!isRecord(wrapped) || Object.keys(wrapped).length !== 1) {
      return { error: "an 'mcpServers' wrapper must hold exactly one server" };
    }
    [[name, raw]] = Object.entries(wrapped);
  }
  if (!NAME.test(name)) {
    return {
      error: `server name '${name}' must be 1-64 letters, digits, '.', '_' or '-', ` +
        "starting with a letter or digit",
    };
  }
  const parsed = EntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    return { error: `${where}${issue.message}` };
  }
  const entry = parsed.data;
  const server: StdioServerConfig | HttpServerConfig = entry.command !== undefined
    ? { transport: "stdio", command: entry.command, args: entry.args ?? [], env: entry.env ?? {} }
    : { transport: "http", url: entry.url!, headers: entry.headers ?? {} };
  return entry.max_result_chars === undefined
    ? { name, file, server }
    : { name, file, server, maxResultChars: entry.max_result_chars };
}

/**
 * Reads every `mcp/*.json` under `configHome` (sorted; dotfiles such as `.approved.json` are
 * not servers). A missing directory is an empty one. Never spawns, never touches the network.
 */
export async function readMcpConfigs(configHome: string): Promise<McpConfigRead> {
  const dir = `${configHome}/mcp`;
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.endsWith(".json") && !entry.name.startsWith(".") && !entry.isDirectory) {
        files.push(entry.name);
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  files.sort();
  const configs: McpServerConfig[] = [];
  const skipped: McpSkip[] = [];
  const warnings: string[] = [];
  const skip = (name: string, file: string, reason: string) => {
    skipped.push({ name, reason: `Skipping MCP server config ${file}: ${reason}` });
    warnings.push(`Skipping MCP server config ${file}: ${reason}`);
  };
  for (const fileName of files) {
    const file = `mcp/${fileName}`;
    const stem = fileName.slice(0, -".json".length);
    let text: string;
    try {
      text = await Deno.readTextFile(`${dir}/${fileName}`);
    } catch (error) {
      skip(stem, file, errorMessage(error));
      continue;
    }
    const parsed = parseMcpConfig(stem, file, text);
    if ("error" in parsed) skip(stem, file, parsed.error);
    else if (configs.some((c) => c.name === parsed.name)) {
      skip(parsed.name, file, `server name '${parsed.name}' is already configured`);
    } else configs.push(parsed);
  }
  configs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // No server, nothing approved to look up: the wake with no `mcp/` reads no more files.
  const approvals = configs.length ? await readApprovals(configHome) : undefined;
  return {
    configs,
    servers: configs.map((c) => c.name),
    stdioServers: approvals
      ? configs
        .filter((c) => c.server.transport === "stdio" && isApproved(approvals, c.name))
        .map((c) => c.name)
      : [],
    skipped,
    warnings,
  };
}
