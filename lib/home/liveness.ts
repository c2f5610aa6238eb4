/**
 * Is a process alive? The claim orphan rule asks this of a claim's pid (docs/home-layout.md#claims:
 * `kill(pid, 0)`, ESRCH ⇒ dead, EPERM ⇒ alive). The safe answer is always "alive": a false
 * "alive" only delays a recovery (the 6 h age rule stands behind it), a false "dead" re-drives an
 * item a live wake is still answering.
 *
 * Deno guards `kill` with the run permission, and `/proc` with all permissions, so a process
 * whose run permission is revoked (the locked policy) cannot tell — {@link processAlive} then
 * answers "alive", and {@link livenessSnapshot} exists to ask the question before revoking.
 */
import { join } from "../base/paths.ts";
import { silentJournal } from "../journal/journal.ts";
import { isFinalText, parseClaimRecord } from "./claim_record.ts";
import { CLAIM_KINDS, claimsDir } from "./paths.ts";
import { rememberSettled, settledView } from "./settled_index.ts";
import { rememberTemps, timelineTemps } from "./temps.ts";

/** Linux's hard ceiling on a pid; nothing above it can be running. */
const PID_CEILING = 2 ** 22;

/** Whether `pid` names a live process on this box ("alive" whenever it cannot be told). */
export function processAlive(pid: number): boolean {
  // kill(0|-n, 0) would probe a process group, which says nothing about one wake: keep it.
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  if (pid > PID_CEILING) return false;
  try {
    // Signal 0 checks existence and permission and delivers nothing (what node:process's
    // `kill(pid, 0)` does, without loading it). Deno types signals as names; the number is the
    // kill(2) contract itself.
    Deno.kill(pid, 0 as unknown as Deno.Signal);
    return true;
  } catch (error) {
    // ESRCH (Deno's NotFound): no such process. EPERM (another user's process) and NotCapable
    // (no run permission) both leave it alive.
    return !(error instanceof Deno.errors.NotFound);
  }
}

/**
 * Judges now the liveness of every pid named by a claim or take-over token of `timeline`, or by
 * the name of one of its temp files (lib/home/temps.ts), and returns a lookup for `ClaimStore`'s
 * `isAlive` and `sweepStaleTemps`: call it while the run permission is still held, so a wake that
 * then revokes it still recognises a dead owner. A pid not seen in the snapshot is asked live
 * (which, without the permission, answers "alive").
 *
 * Claims are kept for good, so a long-lived timeline has one file per item it ever answered, and
 * this runs on every wake: a claim the settled-claims index already names is not read at all, a
 * claim found settled is added to it, and the rest are read synchronously (a small file costs a
 * few microseconds that way, against tens through the async API).
 */
export function livenessSnapshot(
  home: string,
  timeline: string,
  probe: (pid: number) => boolean = processAlive,
): (pid: number) => boolean {
  const judged = new Map<number, boolean>();
  const listed = new Map<string, string[]>();
  for (const kind of CLAIM_KINDS) {
    const dir = claimsDir(home, kind, timeline);
    let names: string[];
    try {
      names = Array.from(Deno.readDirSync(dir), (entry) => entry.name);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    listed.set(dir, names);
    const { skip, contested } = settledView(dir, names);
    const settled: string[] = [];
    for (const name of names) {
      if (!name.endsWith(".claim") && !name.includes(".takeover.")) continue;
      if (name.endsWith(".new") || skip.has(name)) continue; // a temp; a claim settled for good
      let text: string;
      try {
        text = Deno.readTextFileSync(join(dir, name));
      } catch {
        continue; // gone meanwhile: nothing to judge
      }
      if (name.endsWith(".claim") && isFinalText(text)) {
        if (!contested.has(name)) settled.push(name);
        continue;
      }
      const { pid } = parseClaimRecord(text, join(dir, name), silentJournal);
      if (pid !== null && !judged.has(pid)) judged.set(pid, probe(pid));
    }
    rememberSettled(dir, settled);
  }
  // The writers named by the timeline's temp files, so a sweep after narrowing still knows
  // which temps a killed writer stranded (sweepStaleTemps, lib/home/temps.ts). The claims
  // folders were just listed: their names are reused, not read again.
  const temps = timelineTemps(home, timeline, listed);
  for (const { pid } of temps) {
    if (pid !== undefined && !judged.has(pid)) judged.set(pid, probe(pid));
  }
  const isAlive = (pid: number) => judged.get(pid) ?? probe(pid);
  rememberTemps(isAlive, temps);
  return isAlive;
}
