/**
 * Task activation: a pending task whose `activate_at` has passed becomes `activated` (and fires
 * `task.activated`), or `blocked_timeline_locked` if its timeline is locked by then. Checked on
 * a short timer and lazily before every request, so a due task is never observed as pending.
 */
import { transaction } from "./db.ts";
import { findTimeline } from "./access.ts";
import { type ItemRow, nowIso, row, rows, type SandboxState } from "./state.ts";

/** Activates every due pending task; returns how many changed state. */
export function activateDueTasks(state: SandboxState): number {
  const due = rows<ItemRow>(
    state.db.prepare(
      `SELECT * FROM items WHERE kind = 'task' AND status = 'pending' AND activate_at <= ?
     ORDER BY activate_at, uuid`,
    ).all(nowIso(state)),
  );
  let changed = 0;
  for (const task of due) if (activate(state, task)) changed++;
  return changed;
}

/**
 * Activates one task now, whatever its `activate_at` (the admin hook). Returns the task as it
 * is afterwards, or undefined if it does not exist. Only pending tasks change.
 */
export function activateTaskNow(state: SandboxState, uuid: string): ItemRow | undefined {
  const task = row<ItemRow>(
    state.db.prepare("SELECT * FROM items WHERE uuid = ? AND kind = 'task'").get(uuid),
  );
  if (!task) return undefined;
  if (task.status === "pending") activate(state, task);
  return task;
}

/** Activates `task` if it is still pending; whether this call changed it (a racer may have). */
function activate(state: SandboxState, task: ItemRow): boolean {
  const now = nowIso(state);
  const changed = transaction(state.db, () => {
    const timeline = findTimeline(state, task.timeline_uuid);
    const status = timeline?.locked ? "blocked_timeline_locked" : "activated";
    // The status guard makes a racing second activation a no-op: one event per task, ever.
    const result = state.db.prepare(
      "UPDATE items SET status = ?, updated_at = ? WHERE uuid = ? AND status = 'pending'",
    ).run(status, now, task.uuid);
    if (result.changes === 0) return undefined;
    task.status = status;
    task.updated_at = now;
    return status;
  });
  if (changed === "activated") {
    state.events.emit({
      event: "task.activated",
      timeline: task.timeline_uuid,
      item: task.uuid,
      actor: task.user_uuid,
      at: now,
    });
  }
  return changed !== undefined;
}
