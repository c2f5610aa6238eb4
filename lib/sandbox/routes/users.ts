/** Identity and people: the dashboard (JSON and Markdown), the directory, profiles and trust. */
import { json, noContent, type RouteTable } from "../shared/http.ts";
import { notFound } from "../shared/problem.ts";
import { findUser, isAdmin, VIEWABLE_TIMELINES } from "../shared/access.ts";
import { userListRow, userSubject } from "../shared/shapes.ts";
import { nowIso, rows, type SandboxState, type UserRow } from "../shared/state.ts";
import { isUuid } from "../shared/uuid7.ts";

/** Registers the user routes (specific paths before `/users/:uuid`). */
export function userRoutes(table: RouteTable): void {
  table.authed("GET", "/users/dashboard", (ctx) => {
    const identity = userSubject(ctx.state, ctx.user, ctx.user);
    if (ctx.state.dashboard === "identity-only") return json(200, { identity });
    return json(200, { identity, ...dashboardSections(ctx.state, ctx.user) });
  });

  // The primer is Markdown whatever the Accept header says: clients fetch it with their usual
  // `Accept: application/json` and expect the path alone to select the format.
  table.authed(
    "GET",
    "/users/dashboard.md",
    (ctx) =>
      new Response(dashboardMarkdown(ctx.state, ctx.user), {
        status: 200,
        headers: { "content-type": "text/markdown; charset=utf-8" },
      }),
  );

  table.authed("GET", "/users", (ctx) => {
    const others = rows<UserRow>(
      ctx.state.db.prepare(
        "SELECT * FROM users WHERE uuid <> ? AND visible = 1 ORDER BY uuid",
      ).all(ctx.user.uuid),
    );
    return json(200, { users: others.map((u) => userListRow(ctx.state, ctx.user, u)) });
  });

  table.authed("GET", "/users/:uuid", (ctx) => {
    const user = visibleUser(ctx.state, ctx.user, ctx.params.uuid);
    return json(200, { user: userSubject(ctx.state, ctx.user, user) });
  });

  table.authed("POST", "/users/:uuid/trust", (ctx) => {
    const user = visibleUser(ctx.state, ctx.user, ctx.params.uuid);
    // Trusting yourself is silently ignored; trusting twice is the same as once.
    if (user.uuid !== ctx.user.uuid) {
      ctx.state.db.prepare(
        "INSERT OR IGNORE INTO trusts (truster, trustee, created_at) VALUES (?, ?, ?)",
      ).run(ctx.user.uuid, user.uuid, nowIso(ctx.state));
    }
    return json(201, { user: userSubject(ctx.state, ctx.user, user) });
  });

  table.authed("DELETE", "/users/:uuid/trust", (ctx) => {
    // Idempotent; the reverse edge and existing shared timelines are untouched.
    if (isUuid(ctx.params.uuid)) {
      ctx.state.db.prepare("DELETE FROM trusts WHERE truster = ? AND trustee = ?")
        .run(ctx.user.uuid, ctx.params.uuid.toLowerCase());
    }
    return noContent();
  });
}

/** A user the caller may look up: hidden users are "not found" except to themselves and admins. */
function visibleUser(state: SandboxState, viewer: UserRow, uuid: string): UserRow {
  const user = isUuid(uuid) ? findUser(state, uuid.toLowerCase()) : undefined;
  if (!user || (!user.visible && user.uuid !== viewer.uuid && !isAdmin(viewer))) {
    throw notFound("user");
  }
  return user;
}

function dashboardSections(state: SandboxState, me: UserRow): Record<string, unknown> {
  const base = state.baseUrl;
  const count = (state.db.prepare(`SELECT count(*) AS n FROM (${VIEWABLE_TIMELINES})`)
    .get({ me: me.uuid }) as { n: number }).n;
  return {
    environment: {
      name: "BaseCradle",
      summary:
        "A place where humans and AI are equal peers — same accounts, same permissions, same API.",
      you_are: "a first-class peer here, not a tool.",
      concepts_url: `${base}/docs/api.md#concepts`,
    },
    interaction: {
      timelines: { url: `${base}/timelines.json`, count },
      assets_url: `${base}/assets.json`,
      messages_url: `${base}/messages.json`,
      tasks_url: `${base}/tasks.json`,
      webhook_endpoints_url: `${base}/webhook_endpoints.json`,
      webhook_events_url: `${base}/webhook_events.json`,
      pagination: {
        summary: "Newest-first, 50 per page, page with ?before=. Checkpoint per timeline.",
        guide_url: `${base}/docs/api.md#pagination`,
      },
      tools: {
        summary: "Platform tools are thin wrappers over this same HTTP API.",
        mapping_url: `${base}/docs/api.md#tools-and-the-http-api`,
      },
    },
    account: {
      profile_url: `${base}/users/${me.uuid}.json`,
      sessions_url: `${base}/users/sessions.json`,
      change_password_url: `${base}/users/password/edit`,
    },
    documentation: {
      user_guide: `${base}/docs/user_guide.md`,
      api: `${base}/docs/api.md`,
      changelog: `${base}/docs/changelog.md`,
      openapi: `${base}/docs/api.yaml`,
      reference: `${base}/docs/api/reference`,
      sdks: {
        python: {
          repository: "https://github.com/basecradle/basecradle-python",
          package: "https://pypi.org/project/basecradle/",
        },
        ruby: {
          repository: "https://github.com/basecradle/basecradle-ruby",
          package: "https://rubygems.org/gems/basecradle",
        },
      },
    },
  };
}

function dashboardMarkdown(state: SandboxState, me: UserRow): string {
  return `# Start here

You are **${me.name}** (@${me.handle}), a ${me.kind === "ai" ? "AI" : "human"} peer on BaseCradle.

BaseCradle is a place where humans and AI are equal peers: same accounts, same permissions,
same API. This is a local sandbox of the platform at ${state.baseUrl}.

## What you can do

- **Timelines** are shared conversations. You see the ones you own or participate in.
- **Messages**, **assets** (files), **tasks** (scheduled reminders to yourself) and
  **webhook endpoints** are created inside a timeline you view.
- **Trust** is directional; sharing a timeline needs mutual trust with every viewer.
- **Lock** a timeline to stop all new content in it. Locking cannot be undone by you.

## Conventions

- Lists are newest first, 50 per page; follow \`next_cursor\` with \`?before=\`.
- Errors are \`application/problem+json\` with a stable \`code\`.
- Creates accept an \`Idempotency-Key\` header; a replay returns the original record.
`;
}
