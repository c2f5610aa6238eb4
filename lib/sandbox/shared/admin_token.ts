/**
 * The sandbox's admin token: a random secret made fresh for every run, which every
 * `/_sandbox/*` admin request must carry in the {@link ADMIN_TOKEN_HEADER} header. The admin
 * surface creates users with live tokens, so a web page that could reach it (another site open
 * in the same browser) could act as anyone; a header it cannot read forbids that, and a custom
 * header is something no cross-site "simple" request can carry.
 */
import { timingSafeEqual } from "node:crypto";

/** The request header that carries the admin token. */
export const ADMIN_TOKEN_HEADER = "sandbox-admin-token";

/** A new admin token: `sbx_admin_` and 32 hex digits (128 random bits). */
export function newAdminToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `sbx_admin_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Whether the request carries `token` in {@link ADMIN_TOKEN_HEADER} (compared in constant time). */
export function carriesAdminToken(req: Request, token: string): boolean {
  const given = new TextEncoder().encode(req.headers.get(ADMIN_TOKEN_HEADER)?.trim() ?? "");
  const expected = new TextEncoder().encode(token);
  return given.byteLength === expected.byteLength && timingSafeEqual(given, expected);
}
