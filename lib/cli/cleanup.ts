/**
 * `harness cleanup`: removes the on-box state of deleted timelines
 * (docs/operating.md#clean-up-deleted-timelines). `--sweep` is the scheduled path (a systemd
 * timer): one `timelines.get` per timeline found on disk, purging only the ones the platform
 * answers 404. `--timeline <uuid>` purges one timeline outright, with no platform call and no
 * credentials. Memory (memory.db, the palace) is never touched.
 */
import { errorMessage } from "../base/error_text.ts";
import { type Command, commandLabel, processIo, UsageError } from "./command.ts";
import { cleanupFailed, journalFromEnv, type StreamJournal } from "../journal/mod.ts";
import { optionsFromEnv, PlatformClient } from "../platform/mod.ts";
import { manualPurgeLine, purgeTimeline, sweep } from "../home/cleanup.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { loadRecordsConfig } from "../config/records.ts";
import { pruneRecords } from "../home/records/prune.ts";
import type { Journal } from "../journal/journal.ts";

/**
 * Applies `records.json`'s `retention_days` (docs/records.md#retention): nothing without it.
 * A malformed `records.json` throws its ConfigError, which names the file, the key and the fix.
 */
async function pruneByRetention(home: string, journal: Journal): Promise<void> {
  const configHome = resolveConfigHome({
    configHome: env("BASECRADLE_CONFIG_HOME"),
    home: env("HOME"),
  });
  const { retentionDays } = await loadRecordsConfig(configHome);
  if (retentionDays === null) return;
  const pruned = await pruneRecords(home, retentionDays);
  journal.text(
    "INFO",
    `Turn records pruned: ${pruned.removed} record(s) from ${pruned.chains} chain(s) written ` +
      `before ${pruned.cutoff} (retention_days=${retentionDays}).`,
  );
}

const options = {
  sweep: { type: "boolean" },
  records: { type: "boolean" },
  timeline: { type: "string" },
} as const;

const env = (name: string) => Deno.env.get(name);
const fail = (message: string) => processIo.stderr(`${commandLabel("cleanup")}: ${message}\n`);

/** The platform client for a sweep; refuses a box with no credentials at all. */
function sweepClient(): PlatformClient {
  const configured = optionsFromEnv(env);
  if (configured.token === undefined && configured.email === undefined) {
    throw new Error(
      "--sweep needs platform credentials: set BASECRADLE_TOKEN, or BASECRADLE_EMAIL and " +
        "BASECRADLE_PASSWORD.",
    );
  }
  return PlatformClient.fromEnv({}, env);
}

/** `harness cleanup`: the deleted-timeline garbage collector. */
export const cleanupCommand: Command<typeof options> = {
  name: "cleanup",
  usage: `Usage: harness cleanup --sweep
       harness cleanup --timeline UUID
       harness cleanup --records

Remove what this box keeps for deleted BaseCradle timelines, under HARNESS_HOME: the
transcript (and any stranded temp of it), marks, the task seen-set, claims, breaker and
billing files. Memory (memory.db and its -wal/-shm, the MemPalace palace) is never touched.

Options:
  --sweep          check every timeline found on disk with one platform call each and purge
                   only those the platform answers 404 (deleted); a 403 (no longer a viewer)
                   or any other failure keeps everything. A refused credential (401, or a
                   403 about the account) stops the sweep before anything is purged, exit 1.
                   A platform that cannot be reached (or that answers no timeline
                   definitely) purges nothing unconfirmed and exits 1, saying why.
                   Needs BASECRADLE_TOKEN (or BASECRADLE_EMAIL + BASECRADLE_PASSWORD);
                   BASECRADLE_BASE_URL is honoured.
  --timeline UUID  purge that timeline's state now, with no platform call (wins over --sweep)
  --records        prune turn records older than records.json's retention_days (whole UTC
                   days; nothing without the key), with no platform call. --sweep does this
                   too. The pruned chain keeps an anchor and still passes records verify.
  --version        print "harness cleanup <version>" and exit
  -h, --help       show this help

Environment: HARNESS_HOME (required), HARNESS_LOG_LEVEL (default INFO), BASECRADLE_CONFIG_HOME
(records.json, for --records and --sweep). Lines go to stderr.
Exit codes: 0 done (including nothing to do), 1 failed (named on stderr: no HARNESS_HOME, no or
refused credentials, a platform that cannot be reached, an unreadable home), 2 usage error.
`,
  options,
  versionStyle: "bare",
  async run({ values }) {
    const timeline = values.timeline?.trim() || undefined;
    if (!values.sweep && !values.records && timeline === undefined) {
      throw new UsageError("one of --sweep, --records or --timeline <uuid> is required");
    }
    const home = env("HARNESS_HOME")?.trim();
    if (!home) {
      fail(
        "HARNESS_HOME is not set; it names the directory holding the agent's per-timeline " +
          "state (sessions, marks, seen, claims, breaker, billing).",
      );
      return 1;
    }
    let journal: StreamJournal;
    try {
      journal = journalFromEnv(env);
    } catch (error) {
      fail(errorMessage(error));
      return 1;
    }
    try {
      if (timeline !== undefined) {
        const removed = await purgeTimeline(home, timeline, journal);
        journal.text("INFO", manualPurgeLine(removed.length, timeline));
      } else if (values.sweep) {
        const { failure } = await sweep(home, sweepClient(), journal);
        await pruneByRetention(home, journal);
        if (failure !== null) {
          // Nothing was judged: a timer must see a failure, not a green run that checked nothing.
          const message =
            `--sweep could not check the timelines: ${failure}. Nothing unconfirmed ` +
            "was purged; check BASECRADLE_BASE_URL and the network, then run it again.";
          cleanupFailed(journal, { error: message });
          fail(message);
          return 1;
        }
      } else {
        await pruneByRetention(home, journal);
      }
      return 0;
    } catch (error) {
      cleanupFailed(journal, { error: errorMessage(error) });
      fail(errorMessage(error));
      return 1;
    }
  },
};
