/**
 * What every page route answers with: a refusal the page shows as one line, text and JSON
 * responses carrying the page's security headers and scrubbed of secrets, and the JSON body a
 * write must send.
 */
import { scrubSecrets } from "../journal/scrub.ts";
import { BodyTooLargeError } from "../sandbox/mod.ts";

/** A browser-facing refusal: a status and one line the page shows. */
export class Refusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The headers of every response the page server builds (docs/playground.md#safety). */
export const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

/** A text response, scrubbed of secrets, with the security headers. */
export function text(body: string, type: string, status = 200): Response {
  return new Response(scrubSecrets(body), {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": type },
  });
}

/** A JSON response, scrubbed of secrets, with the security headers. */
export function json(value: unknown, status = 200): Response {
  return text(JSON.stringify(value), "application/json; charset=utf-8", status);
}

/** The body as JSON, or null when it does not parse; a body not declared JSON is refused. */
export async function jsonBody(req: Request): Promise<unknown> {
  if (mediaType(req) !== "application/json") {
    throw new Refusal(415, "Send the body as JSON, with Content-Type: application/json.");
  }
  try {
    return await req.json();
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    return null;
  }
}

/** The request's media type, lower-cased, without parameters. */
export function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}
