/**
 * Read-speed pacing (docs/context.md#read-speed-pacing-aiai-conversations, loop 1): before answering a peer AI's message the wake
 * sleeps as long as a human would take to read it — `max(floor, len(body) / cps)` — less the time
 * already elapsed since the message appeared, then re-reads and, when a newer peer-AI message
 * landed meanwhile, restarts the read on it (at most `maxBuilds` restarts). The math is pure and
 * the settle loop takes its clock and sleep, so both are tested without waiting.
 */
import { codePointLength } from "../base/code_points.ts";
import type { HarnessEnv } from "../config/env.ts";

/** `HARNESS_PACE_*`: whether pacing runs, and its knobs. */
export interface PaceConfig {
  /** `HARNESS_PACE_ENABLED`: off disables both loops. */
  readonly enabled: boolean;
  /** `HARNESS_PACE_CHARS_PER_SEC`: reading rate; ≤ 0 ⇒ read time 0 (the floor only). */
  readonly charsPerSec: number;
  /** `HARNESS_PACE_FLOOR_SECONDS`: the minimum read delay. */
  readonly floorSeconds: number;
  /** `HARNESS_PACE_MAX_BUILDS`: the settle-restart cap and the rebuild cap (≥ 1). */
  readonly maxBuilds: number;
}

/** The pacing knobs of a parsed environment. */
export function paceConfig(env: HarnessEnv): PaceConfig {
  return {
    enabled: env.paceEnabled,
    charsPerSec: env.paceCharsPerSec,
    floorSeconds: env.paceFloorSeconds,
    maxBuilds: env.paceMaxBuilds,
  };
}

/** The message a read delay is owed for: its body, when it appeared, and whether an AI wrote it. */
export interface PacedMessage {
  readonly body: string;
  readonly created_at: string;
}

/** Seconds a reader takes over `body`: `max(floor, len(body) / cps)` (cps ≤ 0 ⇒ the floor). */
export function readSeconds(body: string, config: PaceConfig): number {
  const reading = config.charsPerSec > 0 ? codePointLength(body) / config.charsPerSec : 0;
  return Math.max(config.floorSeconds, reading);
}

/**
 * The remainder still owed at `nowMs`: `max(0, readSeconds − max(0, age))`, age = now −
 * created_at. An unparseable `created_at` throws (a pacing error: the caller answers at once).
 */
export function paceDelaySeconds(message: PacedMessage, nowMs: number, config: PaceConfig): number {
  const created = Date.parse(message.created_at);
  if (Number.isNaN(created)) {
    throw new Error(`unparseable created_at ${JSON.stringify(message.created_at)}`);
  }
  const age = Math.max(0, (nowMs - created) / 1000);
  const owed = readSeconds(message.body, config) - age;
  return Number.isFinite(owed) ? Math.max(0, owed) : 0;
}

/** What the settle loop is given. */
export interface SettleDeps {
  readonly config: PaceConfig;
  readonly timeline: string;
  /** Where the WARNINGs go. */
  readonly warn: (text: string) => void;
  /**
   * The message to pace on now — the batch's newest, when an AI wrote it and no probe was seen —
   * or undefined (human newest, probe, empty batch: no delay).
   */
  readonly target: () => PacedMessage | undefined;
  /** Re-reads what is newer than the cursor and absorbs it; whether new peer messages arrived. */
  readonly reread: () => Promise<boolean>;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What the settle did (for tests and logs). */
export interface SettleResult {
  /** Total milliseconds slept. */
  readonly sleptMs: number;
  /** Reads restarted on a newer AI message. */
  readonly restarts: number;
}

/** The cap WARNING (docs/journal.md#free-text-lines). */
export function restartCapWarning(cap: number, timeline: string): string {
  return `Read-pace settle hit the ${cap}-restart cap for timeline ${timeline}; answering the ` +
    "batch as it stands.";
}

/** The failure WARNING (docs/journal.md#free-text-lines). */
export const PACING_FAILED = "Read-pacing failed; answering without further delay.";

/**
 * Loop 1. Disabled, or no target ⇒ returns at once. Otherwise sleep the owed remainder, re-read,
 * and restart on a new AI newest until the batch settles or the restart cap is hit (WARNING).
 * Any error ⇒ WARNING and no further delay; it never throws.
 */
export async function settleRead(deps: SettleDeps): Promise<SettleResult> {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let sleptMs = 0;
  let restarts = 0;
  if (!deps.config.enabled) return { sleptMs, restarts };
  try {
    let target = deps.target();
    while (target) {
      const ms = Math.round(paceDelaySeconds(target, now(), deps.config) * 1000);
      if (ms > 0) {
        await sleep(ms);
        sleptMs += ms;
      }
      if (!await deps.reread()) break;
      const next = deps.target();
      if (!next) break;
      if (restarts >= deps.config.maxBuilds) {
        deps.warn(restartCapWarning(deps.config.maxBuilds, deps.timeline));
        break;
      }
      restarts++;
      target = next;
    }
  } catch {
    deps.warn(PACING_FAILED);
  }
  return { sleptMs, restarts };
}
