/**
 * The operator's wake-lock, as the fleet router honours it: while `<dir>/<handle>.lock` exists
 * and its `expires_at` is in the future, the agent is not woken (an operator is upgrading its
 * install). A lock that has expired is stale and wakes; one whose time cannot be read refuses
 * (present means locked); one that cannot be read at all wakes (a setup fault must not stop
 * every wake).
 */
import { join } from "node:path";

/** What the lock says for one agent. */
export type WakeLockState = "absent" | "held" | "stale" | "unparseable" | "unreadable";

/** The lock's state and, for the log, why. */
export interface WakeLockDecision {
  readonly state: WakeLockState;
  readonly wake: boolean;
  readonly detail: string;
}

const decide = (state: WakeLockState, detail = ""): WakeLockDecision => ({
  state,
  wake: state === "absent" || state === "stale" || state === "unreadable",
  detail,
});

/** Reads `<dir>/<handle>.lock` and decides, at wall-clock time `now` (ms since the epoch). */
export function checkWakeLock(dir: string, handle: string, now: number): WakeLockDecision {
  let raw: string;
  try {
    raw = Deno.readTextFileSync(join(dir, `${handle}.lock`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return decide("absent");
    return decide("unreadable", String(error));
  }
  let expires = Number.NaN;
  try {
    const data: unknown = JSON.parse(raw);
    const value = typeof data === "object" && data !== null
      ? (data as Record<string, unknown>).expires_at
      : undefined;
    if (typeof value === "string") {
      // A time without an offset is read as UTC, as the fleet router reads it.
      const zoned = /[zZ]|[+-]\d\d:?\d\d$/.test(value.trim()) ? value : `${value.trim()}Z`;
      expires = Date.parse(zoned);
    }
  } catch {
    return decide("unparseable", "invalid JSON");
  }
  if (Number.isNaN(expires)) return decide("unparseable", "missing or invalid expires_at");
  const until = new Date(expires).toISOString();
  return now < expires ? decide("held", `until ${until}`) : decide("stale", `expired ${until}`);
}
