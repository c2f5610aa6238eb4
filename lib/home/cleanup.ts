/**
 * Garbage collection of deleted timelines (docs/operating.md#what-is-deleted,
 * docs/operating.md#clean-up-deleted-timelines): a timeline destroyed on the platform leaves its
 * transcript, marks, claims and breaker/billing files on the box, and nothing else ever removes
 * them. The sweep asks the platform about each timeline found on disk and purges only on a clean
 * 404 — an outage must never read as "everything was deleted". Memory is never touched: what a peer
 * told the agent on a deleted timeline is still the agent's to remember.
 */
import { errorMessage } from "../base/error_text.ts";
import type { Journal } from "../journal/journal.ts";
import {
  ForbiddenError,
  NotFoundError,
  oneLine,
  PlatformError,
  TransportError,
  UnauthorizedError,
} from "../platform/errors.ts";
import { enumerateArtifacts } from "./artifacts.ts";

/**
 * The 403 codes that are the platform's answer about one timeline (docs/platform-client.md): the
 * timeline exists and this agent may not see it. Any other 403 (`account_suspended`, or none at
 * all, from a proxy) refuses the credential itself.
 */
const TIMELINE_FORBIDDEN_CODES: ReadonlySet<string> = new Set([
  "not_a_viewer",
  "timeline_locked",
  "not_timeline_owner",
]);

/**
 * The platform refused the sweep's credential (a 401, or a 403 about the account rather than a
 * timeline): the sweep stopped before purging anything, because an answer that says nothing
 * about the timelines must not be read as one.
 */
export class SweepCredentialError extends Error {
  /** Always "SweepCredentialError". */
  override name = "SweepCredentialError";
  /** The HTTP status the platform answered (401 or 403). */
  readonly status: number;
  /** The problem's code (`unauthorized`, `account_suspended`, …), when it sent one. */
  readonly code: string | undefined;
  /** The timeline being asked about when the credential was refused. */
  readonly timeline: string;

  /** `error` is the platform's refusal, answered for `timeline`. */
  constructor(timeline: string, error: PlatformError) {
    const status = error.status ?? (error instanceof UnauthorizedError ? 401 : 403);
    const code = error.code ? ` ${error.code}` : "";
    super(
      `the platform refused the sweep's credential with HTTP ${status}${code} when asked about ` +
        `timeline ${timeline}; nothing was purged. Fix: set a valid BASECRADLE_TOKEN (or ` +
        "BASECRADLE_EMAIL and BASECRADLE_PASSWORD) for this agent and run the sweep again. " +
        `(${oneLine(error.message)})`,
      { cause: error },
    );
    this.status = status;
    this.code = error.code;
    this.timeline = timeline;
  }
}

/** The one platform call the sweep makes; a `PlatformClient` satisfies it. */
export interface TimelineLookup {
  /** Looks a timeline up; a timeline the platform reports gone (404/410) is what the sweep purges. */
  readonly timelines: { get(uuid: string): Promise<unknown> };
}

/** How each checked timeline was classified; the four counts partition `checked`. */
export interface SweepSummary {
  /** Timelines with on-box state that the sweep asked the platform about. */
  checked: number;
  /** Timelines the platform reported deleted, whose on-box state was removed. */
  purged: number;
  /** Timelines the platform still has; their state stays. */
  kept: number;
  /** Timelines the agent can no longer view (403): kept, since the timeline itself may still exist. */
  keptForbidden: number;
  /** Timelines the platform gave no definite answer for (a transient failure); left for the next sweep. */
  skippedTransient: number;
  /**
   * Why the sweep proved nothing, or null when it did: the platform could not be reached (the
   * sweep stopped asking at the first connection failure), or it answered no timeline
   * definitely. A scheduled sweep must then fail rather than report a green run that judged
   * nothing.
   */
  failure: string | null;
}

/** Removes one path (a file, or a claims directory wholesale); replaceable for tests. */
export type RemovePath = (path: string) => Promise<void>;

const removeForReal: RemovePath = (path) => Deno.remove(path, { recursive: true });

/** The timeline uuids referenced by anything under `home`, sorted. */
export async function timelinesOnDisk(home: string): Promise<string[]> {
  return [...(await enumerateArtifacts(home)).keys()].sort();
}

/**
 * Removes every artifact of `uuid` under `home` and returns the paths removed. A path already
 * gone counts as removed (a concurrent or earlier partial purge); a path that cannot be removed
 * is reported (WARNING) and stepped over, so one bad file never strands the rest.
 */
export async function purgeTimeline(
  home: string,
  uuid: string,
  journal: Journal,
  remove: RemovePath = removeForReal,
): Promise<string[]> {
  const paths = (await enumerateArtifacts(home)).get(uuid) ?? [];
  return await removeAll(paths, journal, remove);
}

async function removeAll(paths: string[], journal: Journal, remove: RemovePath) {
  const removed: string[] = [];
  for (const path of paths) {
    try {
      await remove(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        const reason = errorMessage(error);
        journal.text("WARNING", `cleanup: could not remove ${path}: ${reason}`);
        continue;
      }
    }
    removed.push(path);
  }
  return removed;
}

/** What one timeline's answer means for it. */
type Verdict = "keep" | "purge" | "keep-forbidden" | "skip-transient";

/** One timeline's verdict; a skipped one carries why, and whether the platform was reached. */
interface Judgement {
  readonly verdict: Verdict;
  /** The failure a skip-transient verdict came from, as one line. */
  readonly reason?: string;
  /** The request never got an answer: a connection failure, or no HTTP answer at all. */
  readonly unreachable?: boolean;
}

/**
 * One `timelines.get`: 404 purges, a timeline's 403 keeps (logged), success keeps, a refused
 * credential throws {@link SweepCredentialError}, anything else skips.
 */
async function classify(client: TimelineLookup, uuid: string): Promise<Judgement> {
  try {
    return { verdict: await verdictOf(client, uuid) };
  } catch (error) {
    if (error instanceof SweepCredentialError) throw error;
    // Connection, rate limit, 5xx, a malformed answer, a bug: never purge on doubt.
    return {
      verdict: "skip-transient",
      reason: oneLine(errorMessage(error)),
      unreachable: error instanceof TransportError || !(error instanceof PlatformError),
    };
  }
}

async function verdictOf(client: TimelineLookup, uuid: string): Promise<Verdict> {
  try {
    await client.timelines.get(uuid);
    return "keep";
  } catch (error) {
    if (error instanceof NotFoundError) return "purge";
    if (error instanceof UnauthorizedError) throw new SweepCredentialError(uuid, error);
    if (error instanceof ForbiddenError) {
      if (error.code !== undefined && TIMELINE_FORBIDDEN_CODES.has(error.code)) {
        return "keep-forbidden";
      }
      throw new SweepCredentialError(uuid, error);
    }
    throw error;
  }
}

/**
 * Checks every timeline on disk (sorted) with one `timelines.get` and purges the confirmed
 * deleted; ends with the summary INFO line. Idempotent: a re-run re-derives everything from disk.
 * Every timeline is asked before anything is removed, so a credential the platform refuses
 * (a 401, or a 403 about the account) stops the sweep with {@link SweepCredentialError} having
 * purged nothing, and without asking about the timelines after it. A platform that cannot be
 * reached stops the asking too: the timelines not yet asked are skipped, and the summary's
 * `failure` says why (as it does when no timeline got a definite answer).
 */
export async function sweep(
  home: string,
  client: TimelineLookup,
  journal: Journal,
  remove: RemovePath = removeForReal,
): Promise<SweepSummary> {
  const artifacts = await enumerateArtifacts(home);
  const summary: SweepSummary = {
    checked: 0,
    purged: 0,
    kept: 0,
    keptForbidden: 0,
    skippedTransient: 0,
    failure: null,
  };
  const verdicts: [string, Verdict][] = [];
  let unreachable: string | undefined;
  let lastReason: string | undefined;
  for (const uuid of [...artifacts.keys()].sort()) {
    if (unreachable !== undefined) {
      verdicts.push([uuid, "skip-transient"]);
      continue;
    }
    const judged = await classify(client, uuid);
    verdicts.push([uuid, judged.verdict]);
    if (judged.reason !== undefined) lastReason = judged.reason;
    if (judged.unreachable) unreachable = judged.reason;
  }
  for (const [uuid, verdict] of verdicts) {
    summary.checked++;
    if (verdict === "purge") {
      await removeAll(artifacts.get(uuid) ?? [], journal, remove);
      summary.purged++;
      journal.text("INFO", `cleanup: purged artifacts for deleted timeline ${uuid}`);
    } else if (verdict === "keep-forbidden") {
      summary.keptForbidden++;
      journal.text("INFO", `cleanup: kept timeline ${uuid} (403 — exists, agent not a viewer)`);
    } else if (verdict === "skip-transient") {
      summary.skippedTransient++;
      journal.text("WARNING", `cleanup: skipped timeline ${uuid} this run (transient error)`);
    } else {
      summary.kept++;
    }
  }
  journal.text("INFO", sweepSummaryLine(summary));
  if (unreachable !== undefined) {
    summary.failure = `the platform could not be reached (${unreachable}); ` +
      `${summary.skippedTransient} timeline(s) were left for the next sweep`;
  } else if (summary.checked > 0 && summary.skippedTransient === summary.checked) {
    summary.failure = `the platform answered no timeline definitely (last: ${lastReason}); ` +
      `${summary.skippedTransient} timeline(s) were left for the next sweep`;
  }
  return summary;
}

/** The sweep's closing line, as fleet monitors read it. */
export function sweepSummaryLine(s: SweepSummary): string {
  return `cleanup sweep: checked ${s.checked} timeline(s) — purged ${s.purged}, kept ${s.kept}, ` +
    `kept-forbidden ${s.keptForbidden}, skipped-transient ${s.skippedTransient}`;
}

/** The manual purge's line (`harness cleanup --timeline`). */
export function manualPurgeLine(count: number, uuid: string): string {
  return `cleanup: manually purged ${count} artifact path(s) for timeline ${uuid}`;
}
