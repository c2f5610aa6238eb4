/**
 * The wake breaker's counter (docs/operating.md#the-wake-breaker): a per-timeline rolling-window
 * cap on the wakes it is asked about, so a cross-wake loop (the agent's act fires an event that
 * wakes it again) burns at most `max` of them per window before the timeline self-declines. Which
 * wakes are asked about is the wake's policy (lib/wake/breaker_gate.ts: those about to engage an
 * item with no human's word in it). It only logs; it never posts.
 */
import { dirname } from "../base/paths.ts";
import { readTextIfPresent } from "../base/read_files.ts";
import { pythonFloatRepr } from "../pycompat/json.ts";
import type { Journal } from "../journal/journal.ts";
import { breakerPaths } from "./paths.ts";
import { parsePythonFloat } from "../pycompat/float.ts";

/** The breaker's knobs and seams for one check. */
export interface BreakerOptions {
  /** Cap on wakes inside the window (`HARNESS_WAKE_BREAKER_MAX`); ≤ 0 disables the breaker. */
  readonly max: number;
  /** Rolling window, seconds (`HARNESS_WAKE_BREAKER_WINDOW`). */
  readonly windowSeconds: number;
  /** How long a trip holds at least, seconds (`HARNESS_WAKE_BREAKER_COOLDOWN`). */
  readonly cooldownSeconds: number;
  /** The clock: epoch seconds, or a function returning them; default the wall clock. */
  readonly now?: number | (() => number);
  /** Where the TRIPPED / RESET warnings go. */
  readonly journal: Journal;
}

/** Whether the wake may go on. */
export type BreakerVerdict = "proceed" | "declined";

/**
 * Records this wake on `timeline` and decides. Disabled (`max ≤ 0`) ⇒ proceed, touching nothing.
 * Otherwise the window keeps the stamps newer than `now − window` plus `now`. A tripped timeline
 * resets (and proceeds) once the count is back within the cap and the cooldown has passed, else
 * declines; an untripped one trips (and declines) when the count exceeds the cap.
 */
export async function recordAndCheck(
  home: string,
  timeline: string,
  options: BreakerOptions,
): Promise<BreakerVerdict> {
  const { max, windowSeconds, cooldownSeconds, journal } = options;
  if (max <= 0) return "proceed";
  const now = typeof options.now === "function" ? options.now() : options.now ?? Date.now() / 1000;
  const paths = breakerPaths(home, timeline);
  await Deno.mkdir(dirname(paths.wakes), { recursive: true });

  const window = (await readWindow(paths.wakes, journal)).filter((stamp) =>
    stamp > now - windowSeconds
  );
  window.push(now);
  await writeWindow(paths.wakes, window);
  const count = window.length;

  const trippedAt = await readTrip(paths.tripped, journal);
  if (trippedAt !== undefined) {
    if (count <= max && now - trippedAt >= cooldownSeconds) {
      await Deno.remove(paths.tripped).catch(ignoreNotFound);
      await writeWindow(paths.wakes, [now]);
      journal.text(
        "WARNING",
        `Wake breaker RESET for timeline ${timeline}: the wake burst cleared; resuming normal ` +
          "operation.",
      );
      return "proceed";
    }
    return "declined";
  }
  if (count > max) {
    await Deno.writeTextFile(paths.tripped, pythonFloatRepr(now));
    journal.text(
      "WARNING",
      `Wake breaker TRIPPED for timeline ${timeline}: ${count} wakes within ` +
        `${pythonFloatRepr(windowSeconds)}s exceeds the cap of ${max}. Self-declining (no ` +
        "provider call) until the burst clears; an operator can reset by clearing the trip " +
        "marker under HARNESS_HOME.",
    );
    return "declined";
  }
  return "proceed";
}

function ignoreNotFound(error: unknown): void {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
}

/**
 * The window's stamps. A line that does not parse is skipped, never fatal to the wake, and said
 * once on `journal`: the rewrite that follows drops it, and the window counts fewer wakes than
 * ran, so a burst may take longer to trip the breaker.
 */
async function readWindow(path: string, journal: Journal): Promise<number[]> {
  const text = await readTextIfPresent(path);
  if (text === undefined) return [];
  const stamps: number[] = [];
  let corrupt = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trim() === "") continue;
    const value = parsePythonFloat(line);
    if (value !== undefined) stamps.push(value);
    else corrupt++;
  }
  if (corrupt > 0) {
    journal.text(
      "WARNING",
      `Wake breaker window ${path} has ${corrupt} line(s) that are not timestamps; they are ` +
        `skipped and dropped from the file, and the window counts the ${stamps.length} ` +
        "readable one(s).",
    );
  }
  return stamps;
}

/** One float repr per line, each `\n`-terminated, as the reference writes it. */
async function writeWindow(path: string, stamps: number[]): Promise<void> {
  await Deno.writeTextFile(path, stamps.map((stamp) => `${pythonFloatRepr(stamp)}\n`).join(""));
}

/**
 * The trip time, or undefined when not tripped. A marker that does not parse (a write torn by a
 * kill leaves it empty) counts as not tripped, as the reference reads it; it is said on
 * `journal` and removed, so the next wakes judge the window afresh instead of warning forever.
 */
async function readTrip(path: string, journal: Journal): Promise<number | undefined> {
  const text = await readTextIfPresent(path);
  if (text === undefined) return undefined;
  const trippedAt = parsePythonFloat(text);
  if (trippedAt !== undefined) return trippedAt;
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  journal.text(
    "WARNING",
    `Wake breaker trip marker ${path} does not hold a timestamp (${JSON.stringify(shown)}); ` +
      "the timeline counts as not tripped, the marker is removed, and the breaker trips " +
      "again if the burst goes on.",
  );
  // Best effort: a marker that cannot be removed is only warned about again next wake.
  await Deno.remove(path).catch(() => {});
  return undefined;
}
