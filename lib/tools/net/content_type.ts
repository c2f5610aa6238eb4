/**
 * Content-Type handling for `web_fetch`: which responses are text the model can read, which
 * are HTML to reduce, and how the bytes are encoded. Anything not recognised as text is
 * described rather than decoded, so an image or archive never floods the context.
 */

/** The lowercase media type without parameters (`text/html; charset=x` → `text/html`). */
export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

// Textual types outside text/*: the data formats a model reads as well as prose.
const TEXTUAL = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/ndjson",
  "application/x-ndjson",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/csv",
  "application/sql",
  "application/x-sh",
  "application/x-www-form-urlencoded",
]);

/** Whether a media type is text the model can read. */
export function isTextType(type: string): boolean {
  return type.startsWith("text/") || type.endsWith("+json") || type.endsWith("+xml") ||
    TEXTUAL.has(type);
}

/** Whether a media type is HTML to be reduced to readable text. */
export function isHtmlType(type: string): boolean {
  return type === "text/html" || type === "application/xhtml+xml";
}

/**
 * The charset to decode with: the header's `charset` parameter, else (for HTML) a `<meta>`
 * declaration near the top of the document, else UTF-8. An unknown label falls back to UTF-8.
 */
export function charsetOf(contentType: string | null, head: Uint8Array, html: boolean): string {
  const fromHeader = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "")?.[1];
  let label = fromHeader;
  if (!label && html) {
    const start = new TextDecoder("latin1").decode(head.subarray(0, 2048));
    label = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(start)?.[1];
  }
  if (!label) return "utf-8";
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return "utf-8";
  }
}
