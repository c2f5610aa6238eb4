/**
 * How an MCP tool is named to the model (docs/mcp.md): `<server>__<tool>`, each part with every
 * character outside `[A-Za-z0-9_-]` replaced by `_` (an empty part becomes `_`), the whole cut to
 * 64 characters — the intersection of what every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`).
 */

/** The longest function name every provider accepts. */
export const MAX_TOOL_NAME = 64;

/** The longest tool description passed to the model; a server's text beyond it is cut. */
export const MAX_DESCRIPTION = 1024;

/** `text` with every character outside `[A-Za-z0-9_-]` replaced by `_`; `_` when empty. */
export function sanitizeNamePart(text: string): string {
  // Per code point, as the reference does: an emoji is one `_`, not two.
  const clean = Array.from(text, (ch) => (/^[A-Za-z0-9_-]$/.test(ch) ? ch : "_")).join("");
  return clean === "" ? "_" : clean;
}

/** The name the model calls: `sanitize(server)__sanitize(tool)`, at most 64 characters. */
export function mcpToolName(server: string, tool: string): string {
  return `${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`.slice(0, MAX_TOOL_NAME);
}

/** The prefix every tool of `server` shares, as the brief names it (`<prefix>__…`). */
export function mcpToolPrefix(server: string): string {
  return sanitizeNamePart(server);
}

/** The description the model reads: the server's (trimmed, bounded), or a plain default. */
export function mcpToolDescription(server: string, tool: string, description?: string | null) {
  const text = description?.trim();
  if (!text) return `The '${tool}' tool from MCP server '${server}'.`;
  const chars = Array.from(text);
  return chars.length <= MAX_DESCRIPTION
    ? text
    : `${chars.slice(0, MAX_DESCRIPTION - 1).join("")}…`;
}
