/**
 * How a local server hands out bytes someone uploaded (an asset's file): never as something the
 * browser runs in the server's origin. A participant or the agent chooses both the bytes and the
 * declared type, so an HTML or SVG file served inline would run its script with the page's
 * rights (read every wake, post as the human, drive the admin API).
 *
 * The rule is made of allowlists, decided by the declared type alone:
 *
 * - **Raster images** (PNG, JPEG, GIF, WebP) are served inline with their own type, so the page
 *   can show them. A raster image cannot run script, and `nosniff` keeps the browser from
 *   reading the bytes as anything else even when they are not really an image.
 * - **Everything else** is served with `Content-Disposition: attachment`: the browser saves it
 *   instead of rendering it. It keeps its declared type only when that type is one no browser
 *   runs (plain text, CSV, Markdown, Python source, JSON, PDF, ZIP, audio, video); any other
 *   type — HTML, SVG, XML, JavaScript, CSS, an unknown one — becomes
 *   `application/octet-stream`, which a browser also refuses to load as a script or a style.
 *
 * Every such response also gets `X-Content-Type-Options: nosniff`,
 * `Content-Security-Policy: sandbox` (a document rendered from it gets a unique origin and no
 * script) and `Cross-Origin-Resource-Policy: same-origin` (no other site embeds it).
 */

/** The declared types served inline: raster images, which run nothing. */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The declared types a download keeps: types no browser runs. */
const KEPT_TYPES = new Set([
  "text/plain",
  "text/csv",
  "text/markdown",
  "text/x-python",
  "application/json",
  "application/pdf",
  "application/zip",
]);

/** The media type of a `Content-Type` value, lowercased, without parameters. */
function mediaType(contentType: string): string {
  return contentType.split(";")[0].trim().toLowerCase();
}

/** Whether a file of this declared type is shown inline (a raster image); see the module doc. */
export function servedInline(contentType: string): boolean {
  return INLINE_TYPES.has(mediaType(contentType));
}

/** The response headers for an uploaded file's bytes; see the module doc. */
export function userContentHeaders(contentType: string, filename: string): Headers {
  const type = mediaType(contentType);
  const inline = INLINE_TYPES.has(type);
  const kept = inline || KEPT_TYPES.has(type) || /^(audio|video)\/[a-z0-9.+-]+$/.test(type);
  const name = `filename*=UTF-8''${encodeURIComponent(filename)}`;
  return new Headers({
    "content-type": kept ? type : "application/octet-stream",
    "content-disposition": `${inline ? "inline" : "attachment"}; ${name}`,
    "content-security-policy": "sandbox; default-src 'none'; img-src 'self'",
    "x-content-type-options": "nosniff",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-store",
  });
}
