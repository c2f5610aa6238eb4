/**
 * Credentials: `POST/DELETE /session`, the self-scoped session list and revocations, and
 * `PATCH /users/password`.
 */
import { createSession, hashPassword, revokeSessions, verifyPassword } from "../shared/auth.ts";
import { json, noContent, readJson, type RouteTable, validate } from "../shared/http.ts";
import { cursor, FETCH_SIZE, paginate, UPPER_BOUND } from "../shared/pagination.ts";
import { notFound, Problem, validationFailed } from "../shared/problem.ts";
import { PasswordChange, SessionCreate } from "../shared/schemas.ts";
import { sessionJson } from "../shared/shapes.ts";
import { nowIso, row, rows, type SessionRow, type UserRow } from "../shared/state.ts";

/** Registers the credential routes. */
export function sessionRoutes(table: RouteTable): void {
  table.public("POST", "/session", async (ctx) => {
    const body = validate(SessionCreate, await readJson(ctx));
    const user = row<UserRow>(
      ctx.state.db.prepare("SELECT * FROM users WHERE email = ?").get(body.email_address.trim()),
    );
    if (!user || !verifyPassword(body.password, user.password_hash)) {
      throw new Problem(401, "invalid_credentials", "The email address or password is wrong.");
    }
    if (user.suspended) throw new Problem(403, "account_suspended", "This account is suspended.");
    const session = createSession(ctx.state, user.uuid, {
      name: body.name ?? null,
      ipAddress: ctx.remoteAddr,
      userAgent: ctx.req.headers.get("user-agent"),
    });
    return json(201, {
      token: session.token,
      session: sessionJson(session, session.uuid),
      start_here: `${ctx.state.baseUrl}/users/dashboard.md`,
    });
  });

  table.authed("DELETE", "/session", (ctx) => {
    revokeSessions(ctx.state, [ctx.session.uuid]);
    return noContent();
  });

  table.authed("GET", "/users/sessions", (ctx) => {
    const { db } = ctx.state;
    const mine = (uuid: string) =>
      db.prepare("SELECT 1 FROM sessions WHERE uuid = ? AND user_uuid = ?").get(
        uuid,
        ctx.user.uuid,
      ) !== undefined;
    const before = cursor(ctx.url, mine);
    const fetched = rows<SessionRow>(
      db.prepare(
        `SELECT * FROM sessions WHERE user_uuid = ? AND revoked_at IS NULL AND uuid < ?
       ORDER BY uuid DESC LIMIT ${FETCH_SIZE}`,
      ).all(ctx.user.uuid, before ?? UPPER_BOUND),
    );
    const { page, nextCursor } = paginate(fetched);
    return json(200, {
      sessions: page.map((s) => sessionJson(s, ctx.session.uuid)),
      next_cursor: nextCursor,
    });
  });

  table.authed("DELETE", "/users/sessions/:uuid", (ctx) => {
    const target = row<SessionRow>(
      ctx.state.db.prepare(
        "SELECT * FROM sessions WHERE uuid = ? AND user_uuid = ? AND revoked_at IS NULL",
      ).get(ctx.params.uuid.toLowerCase(), ctx.user.uuid),
    );
    // Other people's sessions are invisible, so they are "not found", never "forbidden".
    if (!target) throw notFound("session");
    revokeSessions(ctx.state, [target.uuid]);
    return noContent();
  });

  table.authed("DELETE", "/users/sessions", (ctx) => {
    ctx.state.db.prepare(
      "UPDATE sessions SET revoked_at = ? WHERE user_uuid = ? AND revoked_at IS NULL",
    ).run(nowIso(ctx.state), ctx.user.uuid);
    return noContent();
  });

  table.authed("PATCH", "/users/password", async (ctx) => {
    const body = validate(PasswordChange, await readJson(ctx));
    if (!verifyPassword(body.current_password, ctx.user.password_hash)) {
      throw new Problem(
        422,
        "current_password_incorrect",
        "The current password is incorrect.",
        { current_password: ["is incorrect"] },
      );
    }
    if (body.password !== body.password_confirmation) {
      throw new Problem(
        422,
        "password_confirmation_mismatch",
        "The password confirmation does not match.",
        { password_confirmation: ["doesn't match Password"] },
      );
    }
    const problems = passwordProblems(body.password);
    if (problems.length > 0) throw validationFailed({ password: problems });
    // A password change signs nothing out, as on the platform.
    ctx.state.db.prepare("UPDATE users SET password_hash = ?, updated_at = ? WHERE uuid = ?")
      .run(hashPassword(body.password), nowIso(ctx.state), ctx.user.uuid);
    return noContent();
  });
}

/** The platform's password rules: 10+ characters, mixed case, a number or symbol. */
function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 10) problems.push("is too short (minimum is 10 characters)");
  if (!/[a-z]/.test(password) || !/[A-Z]/.test(password)) {
    problems.push("must include both upper and lower case letters");
  }
  if (!/[^A-Za-z]/.test(password)) problems.push("must include a number or symbol");
  return problems;
}
