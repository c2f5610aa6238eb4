/**
 * Reading content across timelines: `GET /messages|assets|tasks` (newest first, filtered,
 * paginated) and `GET /<kind>/{uuid}`, plus task cancellation.
 */
import { type AuthedContext, json, type RouteTable } from "../shared/http.ts";
import {
  cursor,
  enumFilter,
  FETCH_SIZE,
  paginate,
  UPPER_BOUND,
  uuidFilter,
} from "../shared/pagination.ts";
import { Problem } from "../shared/problem.ts";
import { isAdmin, VIEWABLE_TIMELINES, viewableItem } from "../shared/access.ts";
import { itemJson } from "../shared/shapes.ts";
import { type ItemKind, type ItemRow, nowIso, rows } from "../shared/state.ts";

/** Every task status there is. */
export const TASK_STATUSES = ["pending", "activated", "blocked_timeline_locked", "cancelled"];

/** Filters a list may apply (already validated). */
export interface ItemFilters {
  timeline?: string;
  status?: string;
  endpoint?: string;
}

/**
 * One page of `kind` across every timeline the caller views, newest first.
 * Filters compose (AND); a timeline the caller cannot view simply contributes nothing.
 */
export function listItems(
  ctx: AuthedContext,
  kind: ItemKind,
  plural: string,
  filters: ItemFilters,
): Response {
  const { db } = ctx.state;
  const before = cursor(
    ctx.url,
    (uuid) =>
      db.prepare("SELECT 1 FROM items WHERE uuid = ? AND kind = ?").get(uuid, kind) !== undefined,
  );
  const where = [`kind = :kind`, `timeline_uuid IN (${VIEWABLE_TIMELINES})`, `uuid < :before`];
  const params: Record<string, string> = {
    kind,
    me: ctx.user.uuid,
    before: before ?? UPPER_BOUND,
  };
  if (filters.timeline) {
    where.push("timeline_uuid = :timeline");
    params.timeline = filters.timeline;
  }
  if (filters.status) {
    where.push("status = :status");
    params.status = filters.status;
  }
  if (filters.endpoint) {
    where.push("endpoint_uuid = :endpoint");
    params.endpoint = filters.endpoint;
  }
  const fetched = rows<ItemRow>(
    db.prepare(
      `SELECT * FROM items WHERE ${where.join(" AND ")} ORDER BY uuid DESC LIMIT ${FETCH_SIZE}`,
    ).all(params),
  );
  const { page, nextCursor } = paginate(fetched);
  return json(200, {
    [plural]: page.map((item) => itemJson(ctx.state, item)),
    next_cursor: nextCursor,
  });
}

/** Registers the message, asset and task reads and task cancellation. */
export function itemRoutes(table: RouteTable): void {
  for (const [kind, plural] of [["message", "messages"], ["asset", "assets"]] as const) {
    table.authed(
      "GET",
      `/${plural}`,
      (ctx) => listItems(ctx, kind, plural, { timeline: uuidFilter(ctx.url, "timeline") }),
    );
    table.authed("GET", `/${plural}/:uuid`, (ctx) => {
      const { item } = viewableItem(ctx.state, ctx.user, kind, ctx.params.uuid);
      return json(200, { [kind]: itemJson(ctx.state, item) });
    });
  }

  table.authed("GET", "/tasks", (ctx) =>
    listItems(ctx, "task", "tasks", {
      timeline: uuidFilter(ctx.url, "timeline"),
      status: enumFilter(ctx.url, "status", TASK_STATUSES),
    }));

  table.authed("GET", "/tasks/:uuid", (ctx) => {
    const { item } = viewableItem(ctx.state, ctx.user, "task", ctx.params.uuid);
    return json(200, { task: itemJson(ctx.state, item) });
  });

  // A locked timeline does not block cancellation: withdrawing a plan is governance, not content.
  table.authed("POST", "/tasks/:uuid/cancellation", (ctx) => {
    const { item } = viewableItem(ctx.state, ctx.user, "task", ctx.params.uuid);
    if (item.user_uuid !== ctx.user.uuid && !isAdmin(ctx.user)) {
      throw new Problem(403, "not_task_author", "Only the task's author can cancel it.");
    }
    const now = nowIso(ctx.state);
    const result = ctx.state.db.prepare(
      "UPDATE items SET status = 'cancelled', updated_at = ? WHERE uuid = ? AND status = 'pending'",
    ).run(now, item.uuid);
    if (result.changes === 0) {
      throw new Problem(409, "task_not_pending", `The task is ${item.status}, not pending.`);
    }
    item.status = "cancelled";
    item.updated_at = now;
    return json(200, { task: itemJson(ctx.state, item) });
  });
}
