/**
 * Lookups shared by several route groups, and the access rules they imply: who views a
 * timeline, who may act on a record, and the 404-before-403 order the platform answers in.
 */
import { notFound, Problem } from "./problem.ts";
import {
  type ItemKind,
  type ItemRow,
  row,
  rows,
  type SandboxState,
  type TimelineRow,
  type UserRow,
} from "./state.ts";
import { isUuid } from "./uuid7.ts";

/** A user by uuid, or undefined. */
export function findUser(state: SandboxState, uuid: string): UserRow | undefined {
  return row<UserRow>(state.db.prepare("SELECT * FROM users WHERE uuid = ?").get(uuid));
}

/** Whether a user carries the `admin` role. */
export function isAdmin(user: UserRow): boolean {
  return parseRoles(user).includes("admin");
}

/** A user's roles as a list. */
export function parseRoles(user: UserRow): string[] {
  try {
    const roles: unknown = JSON.parse(user.roles);
    return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === "string") : [];
  } catch {
    return [];
  }
}

/** A timeline by uuid, or undefined (deleted timelines are gone). */
export function findTimeline(state: SandboxState, uuid: string): TimelineRow | undefined {
  return row<TimelineRow>(state.db.prepare("SELECT * FROM timelines WHERE uuid = ?").get(uuid));
}

/** The owner followed by the participants, oldest participation first. */
export function viewersOf(state: SandboxState, timeline: TimelineRow): UserRow[] {
  const owner = findUser(state, timeline.owner_uuid);
  const participants = rows<UserRow>(
    state.db.prepare(
      `SELECT u.* FROM participations p JOIN users u ON u.uuid = p.user_uuid
       WHERE p.timeline_uuid = ? ORDER BY p.created_at, p.user_uuid`,
    ).all(timeline.uuid),
  );
  return owner ? [owner, ...participants] : participants;
}

/** Whether `user` is the owner or a participant of `timeline`. */
function isViewer(state: SandboxState, user: UserRow, timeline: TimelineRow): boolean {
  if (timeline.owner_uuid === user.uuid) return true;
  return state.db.prepare(
    "SELECT 1 FROM participations WHERE timeline_uuid = ? AND user_uuid = ?",
  ).get(timeline.uuid, user.uuid) !== undefined;
}

/** SQL selecting the uuids of the timelines `:me` views (owner or participant). */
export const VIEWABLE_TIMELINES = `SELECT uuid FROM timelines WHERE owner_uuid = :me
  UNION SELECT timeline_uuid FROM participations WHERE user_uuid = :me`;

/**
 * The timeline `uuid` if `user` may see it: 404 when unknown or deleted, 403 `not_a_viewer`
 * when it exists but the caller is neither owner, participant nor admin.
 */
export function viewableTimeline(state: SandboxState, user: UserRow, uuid: string): TimelineRow {
  const timeline = isUuid(uuid) ? findTimeline(state, uuid.toLowerCase()) : undefined;
  if (!timeline) throw notFound("timeline");
  if (!isViewer(state, user, timeline) && !isAdmin(user)) throw notAViewer();
  return timeline;
}

/** An item of `kind` the caller may see (404 unknown/deleted, 403 not a viewer). */
export function viewableItem(
  state: SandboxState,
  user: UserRow,
  kind: ItemKind,
  uuid: string,
): { item: ItemRow; timeline: TimelineRow } {
  const item = isUuid(uuid)
    ? row<ItemRow>(
      state.db.prepare("SELECT * FROM items WHERE uuid = ? AND kind = ?").get(
        uuid.toLowerCase(),
        kind,
      ),
    )
    : undefined;
  const timeline = item ? findTimeline(state, item.timeline_uuid) : undefined;
  if (!item || !timeline) throw notFound(kind.replace("_", " "));
  if (!isViewer(state, user, timeline) && !isAdmin(user)) throw notAViewer();
  return { item, timeline };
}

/** `403 not_a_viewer`. */
function notAViewer(): Problem {
  return new Problem(403, "not_a_viewer", "You are not a viewer of this timeline.");
}

/** `403 timeline_locked`. */
export function timelineLocked(): Problem {
  return new Problem(
    403,
    "timeline_locked",
    "The timeline is locked and is not accepting new content.",
  );
}

/** Whether `from` trusts `to`. */
export function trusts(state: SandboxState, from: string, to: string): boolean {
  return state.db.prepare("SELECT 1 FROM trusts WHERE truster = ? AND trustee = ?")
    .get(from, to) !== undefined;
}
