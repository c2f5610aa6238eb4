/**
 * The admin inbox: contact messages and their notes. Every route answers `403 not_an_admin` to
 * anyone without the admin role, before looking anything up.
 */
import { type AuthedContext, json, readJson, type RouteTable, validate } from "../shared/http.ts";
import { cursor, enumFilter, FETCH_SIZE, paginate, UPPER_BOUND } from "../shared/pagination.ts";
import { notFound, Problem } from "../shared/problem.ts";
import { findUser, isAdmin } from "../shared/access.ts";
import { ContactStatusChange, NoteCreate } from "../shared/schemas.ts";
import { actor, type JsonObject } from "../shared/shapes.ts";
import { nowIso, row, rows, type SandboxState } from "../shared/state.ts";
import { isUuid, uuid7 } from "../shared/uuid7.ts";

/** A contact message as stored. */
export interface ContactRow {
  uuid: string;
  name: string;
  email_address: string;
  body: string;
  status: string;
  user_uuid: string | null;
  ip_address: string | null;
  user_agent: string | null;
  headers: string;
  data: string;
  created_at: string;
  updated_at: string;
}

/** A note as stored. */
export interface NoteRow {
  uuid: string;
  body: string;
  user_uuid: string;
  contact_message_uuid: string;
  created_at: string;
  updated_at: string;
}

const STATUSES = ["received", "closed", "spam"];

/** Registers the admin-only inbox routes. */
export function contactRoutes(table: RouteTable): void {
  const admin =
    (handler: (ctx: AuthedContext) => Response | Promise<Response>) => (ctx: AuthedContext) => {
      if (!isAdmin(ctx.user)) {
        throw new Problem(403, "not_an_admin", "This action requires an admin account.");
      }
      return handler(ctx);
    };

  table.authed(
    "GET",
    "/contact_messages",
    admin((ctx) => {
      const status = enumFilter(ctx.url, "status", STATUSES);
      const before = cursor(ctx.url, (uuid) => findContact(ctx.state, uuid) !== undefined);
      const fetched = rows<ContactRow>(
        ctx.state.db.prepare(
          `SELECT * FROM contact_messages WHERE uuid < ? AND (? IS NULL OR status = ?)
         ORDER BY uuid DESC LIMIT ${FETCH_SIZE}`,
        ).all(before ?? UPPER_BOUND, status ?? null, status ?? null),
      );
      const { page, nextCursor } = paginate(fetched);
      return json(200, {
        contact_messages: page.map((c) => contactJson(ctx.state, c)),
        next_cursor: nextCursor,
      });
    }),
  );

  table.authed(
    "GET",
    "/contact_messages/:uuid",
    admin((ctx) =>
      json(200, { contact_message: contactJson(ctx.state, requireContact(ctx, ctx.params.uuid)) })
    ),
  );

  table.authed(
    "PATCH",
    "/contact_messages/:uuid/status",
    admin(async (ctx) => {
      const message = requireContact(ctx, ctx.params.uuid);
      const body = validate(ContactStatusChange, await readJson(ctx));
      message.status = body.contact_message.status;
      message.updated_at = nowIso(ctx.state);
      ctx.state.db.prepare("UPDATE contact_messages SET status = ?, updated_at = ? WHERE uuid = ?")
        .run(message.status, message.updated_at, message.uuid);
      return json(200, { contact_message: contactJson(ctx.state, message) });
    }),
  );

  table.authed(
    "POST",
    "/contact_messages/:uuid/notes",
    admin(async (ctx) => {
      const message = requireContact(ctx, ctx.params.uuid);
      const body = validate(NoteCreate, await readJson(ctx));
      const now = nowIso(ctx.state);
      const note: NoteRow = {
        uuid: uuid7(),
        body: body.note.body,
        user_uuid: ctx.user.uuid,
        contact_message_uuid: message.uuid,
        created_at: now,
        updated_at: now,
      };
      ctx.state.db.prepare(
        `INSERT INTO notes (uuid, body, user_uuid, contact_message_uuid, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(note.uuid, note.body, note.user_uuid, note.contact_message_uuid, now, now);
      return json(201, { note: noteJson(ctx.state, note) }, { location: `/notes/${note.uuid}` });
    }),
  );

  table.authed(
    "GET",
    "/notes",
    admin((ctx) => {
      const before = cursor(ctx.url, (uuid) => findNote(ctx.state, uuid) !== undefined);
      const fetched = rows<NoteRow>(
        ctx.state.db.prepare(
          `SELECT * FROM notes WHERE uuid < ? ORDER BY uuid DESC LIMIT ${FETCH_SIZE}`,
        ).all(before ?? UPPER_BOUND),
      );
      const { page, nextCursor } = paginate(fetched);
      return json(200, {
        notes: page.map((n) => noteJson(ctx.state, n)),
        next_cursor: nextCursor,
      });
    }),
  );

  table.authed(
    "GET",
    "/notes/:uuid",
    admin((ctx) => {
      const note = isUuid(ctx.params.uuid) ? findNote(ctx.state, ctx.params.uuid) : undefined;
      if (!note) throw notFound("note");
      return json(200, { note: noteJson(ctx.state, note) });
    }),
  );
}

function findContact(state: SandboxState, uuid: string): ContactRow | undefined {
  return row<ContactRow>(
    state.db.prepare("SELECT * FROM contact_messages WHERE uuid = ?").get(uuid.toLowerCase()),
  );
}

function findNote(state: SandboxState, uuid: string): NoteRow | undefined {
  return row<NoteRow>(
    state.db.prepare("SELECT * FROM notes WHERE uuid = ?").get(uuid.toLowerCase()),
  );
}

function requireContact(ctx: AuthedContext, uuid: string): ContactRow {
  const message = isUuid(uuid) ? findContact(ctx.state, uuid) : undefined;
  if (!message) throw notFound("contact message");
  return message;
}

/** A contact message in its (flat) wire shape, notes included. */
export function contactJson(state: SandboxState, message: ContactRow): JsonObject {
  const author = message.user_uuid ? findUser(state, message.user_uuid) : undefined;
  const notes = rows<NoteRow>(
    state.db.prepare("SELECT * FROM notes WHERE contact_message_uuid = ? ORDER BY uuid")
      .all(message.uuid),
  );
  return {
    uuid: message.uuid,
    name: message.name,
    email_address: message.email_address,
    body: message.body,
    status: message.status,
    user: author ? actor(author) : null,
    ip_address: message.ip_address,
    user_agent: message.user_agent,
    headers: JSON.parse(message.headers),
    honeypot_filled: false,
    fill_seconds: null,
    data: JSON.parse(message.data),
    notes: notes.map((n) => noteJson(state, n)),
    created_at: message.created_at,
    updated_at: message.updated_at,
  };
}

function noteJson(state: SandboxState, note: NoteRow): JsonObject {
  const author = findUser(state, note.user_uuid);
  return {
    uuid: note.uuid,
    body: note.body,
    user: author ? actor(author) : null,
    notable: { type: "contact_message", uuid: note.contact_message_uuid },
    created_at: note.created_at,
    updated_at: note.updated_at,
  };
}
