/**
 * The sandbox's own control surface under `/_sandbox` (each request carries the run's admin
 * token, checked before routing: lib/sandbox/guard.ts): seed users, activate a task now, inject
 * faults, read the event log, seed the admin inbox.
 */
import { createSession, hashPassword } from "../shared/auth.ts";
import type { FaultTable } from "../shared/faults.ts";
import { json, readJson, type RouteTable, validate } from "../shared/http.ts";
import { notFound, Problem, validationFailed } from "../shared/problem.ts";
import { findUser } from "../shared/access.ts";
import { contactJson, type ContactRow } from "./contact.ts";
import {
  AdminContactCreate,
  AdminFaultCreate,
  AdminIntegrationChange,
  AdminUserCreate,
} from "../shared/schemas.ts";
import {
  adminView,
  changeIntegration,
  type Integration,
  type IntegrationChange,
  integrationRow,
} from "../shared/integrations.ts";
import { type Actor, actor, itemJson } from "../shared/shapes.ts";
import { nowIso, row, type SandboxState, type UserRow } from "../shared/state.ts";
import { activateTaskNow } from "../shared/tasks.ts";
import { isUuid, uuid7 } from "../shared/uuid7.ts";
import type * as z from "../../base/zod.ts";

/** What a new user may be given (only `handle`, `name` and `kind` are required). */
export type NewUser = z.input<typeof AdminUserCreate>;

/** A created user, its first token and, when one was asked for, its integration. */
export interface CreatedUser {
  /** The new user. */
  readonly user: Actor;
  /** Its first API token. */
  readonly token: string;
  /** Its integration, when one was asked for. */
  readonly integration?: Integration;
}

/** Platform-like defaults for a new account's limits. */
export const DEFAULT_USER_LIMITS = {
  max_timelines: 15,
  max_participants: 10,
  max_pending_tasks: 3,
} as const;

/**
 * Creates a user and an API session for it.
 * @throws {Problem} 422 for invalid input or a taken handle/email.
 */
export function createUser(state: SandboxState, input: unknown): CreatedUser {
  const spec = validate(AdminUserCreate, input);
  const taken = (column: "handle" | "email", value: string) =>
    state.db.prepare(`SELECT 1 FROM users WHERE ${column} = ?`).get(value) !== undefined;
  if (taken("handle", spec.handle)) throw validationFailed({ handle: ["has already been taken"] });
  if (spec.email && taken("email", spec.email)) {
    throw validationFailed({ email: ["has already been taken"] });
  }
  const integration: IntegrationChange = {
    integration_url: spec.integration_url,
    integration_enabled: spec.integration_enabled,
    integration_secret: spec.integration_secret,
  };
  const wantsIntegration = Object.values(integration).some((value) => value !== undefined);
  if (wantsIntegration && spec.kind !== "ai") throw onlyAi();
  const now = nowIso(state);
  const user: UserRow = {
    uuid: uuid7(),
    handle: spec.handle,
    name: spec.name.trim(),
    kind: spec.kind,
    email: spec.email ?? null,
    password_hash: spec.password ? hashPassword(spec.password) : null,
    roles: JSON.stringify(spec.roles ?? []),
    suspended: spec.suspended ? 1 : 0,
    visible: spec.visible === false ? 0 : 1,
    max_timelines: spec.max_timelines ?? DEFAULT_USER_LIMITS.max_timelines,
    max_participants: spec.max_participants ?? DEFAULT_USER_LIMITS.max_participants,
    max_pending_tasks: spec.max_pending_tasks ?? DEFAULT_USER_LIMITS.max_pending_tasks,
    about: spec.about ?? null,
    time_zone: spec.time_zone ?? "UTC",
    created_at: now,
    updated_at: now,
  };
  state.db.prepare(
    `INSERT INTO users (uuid, handle, name, kind, email, password_hash, roles, suspended, visible,
       max_timelines, max_participants, max_pending_tasks, about, time_zone, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    user.uuid,
    user.handle,
    user.name,
    user.kind,
    user.email,
    user.password_hash,
    user.roles,
    user.suspended,
    user.visible,
    user.max_timelines,
    user.max_participants,
    user.max_pending_tasks,
    user.about,
    user.time_zone,
    now,
    now,
  );
  const session = createSession(state, user.uuid, { name: "sandbox" });
  if (!wantsIntegration) return { user: actor(user), token: session.token };
  const set = changeIntegration(state, user.uuid, integration);
  return { user: actor(user), token: session.token, integration: set };
}

/** `422`: integrations belong to AI users. */
function onlyAi(): Problem {
  return validationFailed({ integration_url: ["is only available to AI users"] });
}

/** The AI user an integration route names (404 for anyone else). */
function aiUser(state: SandboxState, uuid: string): UserRow {
  const user = isUuid(uuid) ? findUser(state, uuid.toLowerCase()) : undefined;
  if (!user) throw notFound("user");
  if (user.kind !== "ai") throw onlyAi();
  return user;
}

/**
 * Activates a pending task now (a `task.activated` event fires) and returns it as the API
 * shows it.
 * @throws {Problem} 404 for an unknown task, 409 `task_not_pending` for one that is not pending.
 */
export function activateTask(state: SandboxState, uuid: string): Record<string, unknown> {
  const id = uuid.toLowerCase();
  const task = isUuid(id) ? activateTaskNow(state, id) : undefined;
  if (!task) throw notFound("task");
  if (task.status !== "activated" && task.status !== "blocked_timeline_locked") {
    throw new Problem(409, "task_not_pending", `The task is ${task.status}, not pending.`);
  }
  return itemJson(state, task);
}

/** Registers the `/_sandbox` routes. */
export function adminRoutes(table: RouteTable, faults: FaultTable): void {
  table.public(
    "POST",
    "/_sandbox/users",
    async (ctx) => json(201, createUser(ctx.state, await readJson(ctx))),
  );

  table.public("GET", "/_sandbox/users/:uuid/integration", (ctx) => {
    const user = aiUser(ctx.state, ctx.params.uuid);
    // A user who never had one gets an empty integration with its secret minted now.
    const found = integrationRow(ctx.state, user.uuid);
    const integration = found ? adminView(found) : changeIntegration(ctx.state, user.uuid, {});
    return json(200, { integration });
  });

  table.public("PATCH", "/_sandbox/users/:uuid/integration", async (ctx) => {
    const user = aiUser(ctx.state, ctx.params.uuid);
    const change = validate(AdminIntegrationChange, await readJson(ctx));
    return json(200, { integration: changeIntegration(ctx.state, user.uuid, change) });
  });

  table.public(
    "POST",
    "/_sandbox/tasks/:uuid/activate",
    (ctx) => json(200, { task: activateTask(ctx.state, ctx.params.uuid) }),
  );

  table.public("POST", "/_sandbox/faults", async (ctx) => {
    const spec = validate(AdminFaultCreate, await readJson(ctx));
    return json(201, { fault: faults.add(spec) });
  });

  table.public("GET", "/_sandbox/events", (ctx) => json(200, { events: ctx.state.events.list() }));

  table.public("POST", "/_sandbox/contact_messages", async (ctx) => {
    const spec = validate(AdminContactCreate, await readJson(ctx));
    const author = spec.user_id && isUuid(spec.user_id) ? findUser(ctx.state, spec.user_id) : null;
    if (spec.user_id && !author) throw validationFailed({ user: ["must exist"] });
    const now = nowIso(ctx.state);
    const uuid = uuid7();
    ctx.state.db.prepare(
      `INSERT INTO contact_messages (uuid, name, email_address, body, status, user_uuid,
         ip_address, user_agent, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'received', ?, ?, ?, ?, ?)`,
    ).run(
      uuid,
      spec.name,
      spec.email_address,
      spec.body,
      author?.uuid ?? null,
      ctx.remoteAddr,
      ctx.req.headers.get("user-agent"),
      now,
      now,
    );
    const message = row<ContactRow>(
      ctx.state.db.prepare("SELECT * FROM contact_messages WHERE uuid = ?").get(uuid),
    )!;
    return json(201, { contact_message: contactJson(ctx.state, message) });
  });
}
