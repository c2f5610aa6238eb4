/**
 * Credentials: bearer tokens (`bc_uat_` + 32 alphanumerics, never expiring, dying only when
 * revoked), sessions, and password hashes.
 */
import { Buffer } from "node:buffer";
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { Problem } from "./problem.ts";
import { nowIso, row, type SandboxState, type SessionRow, type UserRow } from "./state.ts";
import { uuid7 } from "./uuid7.ts";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A fresh API token. */
export function mintToken(): string {
  return mintCredential("bc_uat_");
}

/** `prefix` + 32 alphanumerics. Rejection sampling keeps every character equally likely. */
export function mintCredential(prefix: string): string {
  let out = prefix;
  while (out.length < prefix.length + 32) {
    for (const byte of crypto.getRandomValues(new Uint8Array(48))) {
      if (byte < 248 && out.length < prefix.length + 32) out += ALPHANUMERIC[byte % 62];
    }
  }
  return out;
}

/** Hashes a password with scrypt and a random salt, as `scrypt$<salt>$<hash>` (hex). */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString("hex")}$${scryptSync(password, salt, 32).toString("hex")}`;
}

/** Whether `password` matches a stored hash (always false when no password was set). */
export function verifyPassword(password: string, stored: string | null): boolean {
  if (!stored) return false;
  const [scheme, saltHex, hashHex] = stored.split("$");
  if (scheme !== "scrypt" || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, "hex");
  const actual = scryptSync(password, Buffer.from(saltHex, "hex"), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Who a session is for and where it came from. */
export interface SessionInput {
  readonly name?: string | null;
  readonly ipAddress?: string | null;
  readonly userAgent?: string | null;
  readonly kind?: "api" | "web";
}

/** Creates a session (and its token) for a user. */
export function createSession(
  state: SandboxState,
  userUuid: string,
  input: SessionInput = {},
): SessionRow {
  const session: SessionRow = {
    uuid: uuid7(),
    user_uuid: userUuid,
    token: mintToken(),
    name: input.name ?? null,
    ip_address: input.ipAddress ?? null,
    user_agent: input.userAgent ?? null,
    kind: input.kind ?? "api",
    created_at: nowIso(state),
    last_used_at: null,
    revoked_at: null,
  };
  state.db.prepare(
    `INSERT INTO sessions (uuid, user_uuid, token, name, ip_address, user_agent, kind, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    session.uuid,
    session.user_uuid,
    session.token,
    session.name,
    session.ip_address,
    session.user_agent,
    session.kind,
    session.created_at,
  );
  return session;
}

const UNAUTHORIZED = () =>
  new Problem(401, "unauthorized", "A valid bearer token is required for this request.");

/**
 * Resolves `Authorization: Bearer <token>` to the caller.
 * @throws {Problem} `401 unauthorized` for a missing, unknown or revoked token (the code the
 *   harness's re-mint path keys on); `403 account_suspended` for a suspended account.
 */
export function authenticate(
  state: SandboxState,
  req: Request,
): { user: UserRow; session: SessionRow } {
  const header = req.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw UNAUTHORIZED();
  const session = row<SessionRow>(
    state.db.prepare("SELECT * FROM sessions WHERE token = ? AND revoked_at IS NULL").get(match[1]),
  );
  if (!session) throw UNAUTHORIZED();
  const user = row<UserRow>(
    state.db.prepare("SELECT * FROM users WHERE uuid = ?").get(session.user_uuid),
  );
  if (!user) throw UNAUTHORIZED();
  if (user.suspended) {
    throw new Problem(403, "account_suspended", "This account is suspended.");
  }
  touch(state, session);
  return { user, session };
}

/** Tracks `last_used_at` at hour granularity, as the platform does, to keep writes rare. */
function touch(state: SandboxState, session: SessionRow): void {
  const now = state.now();
  const last = session.last_used_at ? Date.parse(session.last_used_at) : -Infinity;
  if (now - last < 3_600_000) return;
  const hour = new Date(Math.floor(now / 3_600_000) * 3_600_000).toISOString();
  state.db.prepare("UPDATE sessions SET last_used_at = ? WHERE uuid = ?").run(hour, session.uuid);
  session.last_used_at = hour;
}

/** Revokes sessions by uuid (already revoked ones are left as they were). */
export function revokeSessions(state: SandboxState, uuids: string[]): void {
  const stmt = state.db.prepare(
    "UPDATE sessions SET revoked_at = ? WHERE uuid = ? AND revoked_at IS NULL",
  );
  for (const uuid of uuids) stmt.run(nowIso(state), uuid);
}
