/** Timelines: create, list, read with items, delete (cascade), lock, participations. */
import { transaction } from "../shared/db.ts";
import { json, noContent, readJson, type RouteTable, validate } from "../shared/http.ts";
import { cursor, FETCH_SIZE, paginate, UPPER_BOUND } from "../shared/pagination.ts";
import { Problem, validationFailed } from "../shared/problem.ts";
import {
  findTimeline,
  findUser,
  isAdmin,
  trusts,
  VIEWABLE_TIMELINES,
  viewableTimeline,
  viewersOf,
} from "../shared/access.ts";
import { ParticipationCreate, TimelineCreate } from "../shared/schemas.ts";
import { itemJson, timelineJson, userSubject } from "../shared/shapes.ts";
import {
  type ItemRow,
  nowIso,
  rows,
  type SandboxState,
  type TimelineRow,
  type UserRow,
} from "../shared/state.ts";
import { isUuid, uuid7 } from "../shared/uuid7.ts";

/** Registers the timeline routes. */
export function timelineRoutes(table: RouteTable): void {
  table.authed("POST", "/timelines", async (ctx) => {
    const body = validate(TimelineCreate, await readJson(ctx));
    const { db } = ctx.state;
    const timeline = transaction(db, () => {
      const owned = (db.prepare("SELECT count(*) AS n FROM timelines WHERE owner_uuid = ?")
        .get(ctx.user.uuid) as { n: number }).n;
      if (owned >= ctx.user.max_timelines) {
        throw validationFailed({ owner: ["has reached the timeline limit"] });
      }
      const now = nowIso(ctx.state);
      const created: TimelineRow = {
        uuid: uuid7(),
        name: body.timeline.name.trim(),
        owner_uuid: ctx.user.uuid,
        locked: 0,
        created_at: now,
        updated_at: now,
      };
      db.prepare(
        `INSERT INTO timelines (uuid, name, owner_uuid, locked, created_at, updated_at)
         VALUES (?, ?, ?, 0, ?, ?)`,
      ).run(created.uuid, created.name, created.owner_uuid, now, now);
      return created;
    });
    return json(201, { timeline: timelineJson(ctx.state, timeline), items: [] });
  });

  table.authed("GET", "/timelines", (ctx) => {
    const { db } = ctx.state;
    const before = cursor(ctx.url, (uuid) => findTimeline(ctx.state, uuid) !== undefined);
    const fetched = rows<TimelineRow>(
      db.prepare(
        `SELECT * FROM timelines WHERE uuid IN (${VIEWABLE_TIMELINES}) AND uuid < :before
       ORDER BY uuid DESC LIMIT ${FETCH_SIZE}`,
      ).all({ me: ctx.user.uuid, before: before ?? UPPER_BOUND }),
    );
    const { page, nextCursor } = paginate(fetched);
    return json(200, {
      timelines: page.map((t) => timelineJson(ctx.state, t)),
      next_cursor: nextCursor,
    });
  });

  table.authed("GET", "/timelines/:uuid", (ctx) => {
    const timeline = viewableTimeline(ctx.state, ctx.user, ctx.params.uuid);
    return json(200, {
      timeline: timelineJson(ctx.state, timeline),
      items: timelineItems(ctx.state, timeline),
    });
  });

  table.authed("DELETE", "/timelines/:uuid", (ctx) => {
    const timeline = viewableTimeline(ctx.state, ctx.user, ctx.params.uuid);
    requireOwner(ctx.user, timeline);
    // Taken before the delete: the platform still tells the former viewers.
    const audience = viewersOf(ctx.state, timeline).map((viewer) => viewer.uuid);
    deleteTimeline(ctx.state, timeline.uuid);
    ctx.state.events.emit({
      event: "timeline.deleted",
      timeline: timeline.uuid,
      item: timeline.uuid,
      actor: ctx.user.uuid,
      at: nowIso(ctx.state),
      audience,
    });
    return noContent();
  });

  table.authed("POST", "/timelines/:uuid/lock", (ctx) => {
    const timeline = viewableTimeline(ctx.state, ctx.user, ctx.params.uuid);
    if (!timeline.locked) {
      const now = nowIso(ctx.state);
      ctx.state.db.prepare("UPDATE timelines SET locked = 1, updated_at = ? WHERE uuid = ?")
        .run(now, timeline.uuid);
      timeline.locked = 1;
      timeline.updated_at = now;
    }
    // Both readers satisfied: older clients read top-level uuid/locked, current ones `timeline`.
    return json(200, {
      uuid: timeline.uuid,
      locked: true,
      timeline: timelineJson(ctx.state, timeline),
    });
  });

  table.authed("POST", "/timelines/:uuid/participations", async (ctx) => {
    const timeline = viewableTimeline(ctx.state, ctx.user, ctx.params.uuid);
    requireOwner(ctx.user, timeline);
    const body = validate(ParticipationCreate, await readJson(ctx));
    const id = body.user_id.trim().toLowerCase();
    const user = isUuid(id) ? findUser(ctx.state, id) : undefined;
    if (!user) throw validationFailed({ user: ["must exist"] });
    const viewers = viewersOf(ctx.state, timeline);
    if (!viewers.some((v) => v.uuid === user.uuid)) {
      const untrusted = viewers.filter((v) =>
        !trusts(ctx.state, v.uuid, user.uuid) || !trusts(ctx.state, user.uuid, v.uuid)
      );
      if (untrusted.length > 0) {
        throw validationFailed(
          { user: ["must have mutual trust with every viewer"] },
          `@${user.handle} must have mutual trust with every viewer (missing: ${
            untrusted.map((v) => `@${v.handle}`).join(", ")
          }).`,
        );
      }
      const owner = findUser(ctx.state, timeline.owner_uuid);
      if (owner && viewers.length - 1 >= owner.max_participants) {
        throw validationFailed({ participants: ["has reached the participant limit"] });
      }
      const now = nowIso(ctx.state);
      ctx.state.db.prepare(
        "INSERT OR IGNORE INTO participations (timeline_uuid, user_uuid, created_at) VALUES (?, ?, ?)",
      ).run(timeline.uuid, user.uuid, now);
      ctx.state.db.prepare("UPDATE timelines SET updated_at = ? WHERE uuid = ?")
        .run(now, timeline.uuid);
    }
    return json(201, { user: userSubject(ctx.state, ctx.user, user) });
  });

  table.authed("DELETE", "/timelines/:uuid/participations/:user", (ctx) => {
    const timeline = viewableTimeline(ctx.state, ctx.user, ctx.params.uuid);
    requireOwner(ctx.user, timeline);
    // Removing a non-participant is still 204: the end state is what was asked for.
    const removed = ctx.state.db.prepare(
      "DELETE FROM participations WHERE timeline_uuid = ? AND user_uuid = ?",
    ).run(timeline.uuid, ctx.params.user.toLowerCase());
    if (removed.changes > 0) {
      ctx.state.db.prepare("UPDATE timelines SET updated_at = ? WHERE uuid = ?")
        .run(nowIso(ctx.state), timeline.uuid);
    }
    return noContent();
  });
}

function requireOwner(user: UserRow, timeline: TimelineRow): void {
  if (timeline.owner_uuid !== user.uuid && !isAdmin(user)) {
    throw new Problem(403, "not_timeline_owner", "Only the timeline's owner can do this.");
  }
}

/** Every item shown inline on a timeline, oldest first (endpoints are settings, not items). */
function timelineItems(state: SandboxState, timeline: TimelineRow): Record<string, unknown>[] {
  const items = rows<ItemRow>(
    state.db.prepare(
      `SELECT * FROM items WHERE timeline_uuid = ? AND kind <> 'webhook_endpoint' ORDER BY uuid`,
    ).all(timeline.uuid),
  );
  return items.map((item) => itemJson(state, item));
}

/** Removes a timeline and everything in it, so every later read of any of it is a 404. */
function deleteTimeline(state: SandboxState, uuid: string): void {
  transaction(state.db, () => {
    for (
      const table of ["items", "blobs", "participations", "idempotency_keys"] as const
    ) {
      state.db.prepare(`DELETE FROM ${table} WHERE timeline_uuid = ?`).run(uuid);
    }
    state.db.prepare("DELETE FROM timelines WHERE uuid = ?").run(uuid);
  });
}
