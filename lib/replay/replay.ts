/**
 * A replay run: select the turns, resolve the config home once per model, re-run each turn, diff
 * it with its record, total the run and judge the `--fail-on` rules. The records are only read;
 * the platform is never called (lib/replay/tools.ts), and nothing is written but a scratch home
 * for the memory provider the resolution binds, removed at the end.
 */
import type { Provider } from "../core/types/provider.ts";
import type { TurnRecord } from "../home/records/schema.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { buildProvider } from "../providers/factory.ts";
import {
  diffSides,
  type FailRule,
  judgeRules,
  mentions,
  originalSide,
  replaySide,
  summarize,
} from "./diff.ts";
import { type ReplayReport, ReplayReportSchema, type TurnReport } from "./report.ts";
import { selectTurns, type TurnSelection } from "./select.ts";
import { prepareReplay, type ReplayModel, type ReplaySetup } from "./setup.ts";
import { failureText, runTurn, unreplayable } from "./turn.ts";
import { HistoryUnavailable, rebuildHistory, TranscriptCache } from "./history.ts";

/** Who answered a recorded turn (the record's `provider` and `model`). */
export interface RecordedModel {
  readonly provider: string;
  readonly model: string;
}

/** What {@link replayTurns} is given. */
export interface ReplayOptions {
  /** `HARNESS_HOME`, whose records are read. */
  readonly home: string;
  readonly selection: TurnSelection;
  /** `--config-home`; undefined: the environment's config home. */
  readonly configHome?: string;
  /** The model a turn recorded under `recorded` is replayed against. */
  readonly modelFor: (recorded: RecordedModel) => ReplayModel;
  /** What the report says the turns were replayed against. */
  readonly against: Omit<ReplayReport["against"], "config_home" | "charter_hash" | "with_history">;
  /** The process environment. */
  readonly env: Readonly<Record<string, string>>;
  /** `--handle`: which turns are mentions (every turn without it). */
  readonly handle?: string;
  readonly rules: readonly FailRule[];
  /**
   * `--with-history`: each turn after the conversation it read, from the timeline's transcript
   * under {@link home}, with its recorded recall and working-state block.
   */
  readonly withHistory?: boolean;
  /** Where the engine's lines go (default: silent). */
  readonly journal?: Journal;
  /** `--rejudge-tone`: judge every post's tone again instead of reusing the record's verdict. */
  readonly rejudgeTone?: boolean;
}

/**
 * Runs the replay and returns its report (checked against {@link ReplayReportSchema}).
 * @throws the config home's resolution errors (a wrong file refuses, naming file and fix).
 */
export async function replayTurns(options: ReplayOptions): Promise<ReplayReport> {
  const journal = options.journal ?? silentJournal;
  const selected = await selectTurns(options.home, options.selection);
  const scratch = await Deno.makeTempDir({ prefix: "harness-replay-" });
  const transcripts = options.withHistory ? new TranscriptCache(options.home) : undefined;
  const setups = new Map<string, Promise<{ setup: ReplaySetup; provider: Provider }>>();
  const prepared = (model: ReplayModel) => {
    const key = JSON.stringify(model);
    let found = setups.get(key);
    if (!found) {
      found = prepareReplay({
        env: options.env,
        configHome: options.configHome,
        model,
        scratchHome: scratch,
        // The sandbox model is served by this process itself: nothing leaves it.
        enforceHostRules: !options.against.sandbox_model,
        journal,
        rejudgeTone: options.rejudgeTone,
      }).then((setup) => ({ setup, provider: buildProvider(setup.provider) }));
      setups.set(key, found);
    }
    return found;
  };
  try {
    // The config home is judged before any turn runs, so a wrong file refuses the whole run.
    const first = selected.records.find((record) => unreplayable(record) === undefined);
    const base = await prepared(options.modelFor(
      first ?? {
        provider: options.against.provider ?? "openai",
        model: options.against.model ?? "replay",
      },
    ));
    const turns: TurnReport[] = [];
    for (const record of selected.records) {
      turns.push(
        await replayOne(
          record,
          options,
          await prepared(options.modelFor(record)),
          journal,
          transcripts,
        ),
      );
    }
    const summary = summarize(turns);
    return ReplayReportSchema.parse({
      version: 1,
      against: {
        ...options.against,
        with_history: transcripts !== undefined,
        config_home: base.setup.configHome,
        charter_hash: base.setup.charterHash,
      },
      turns,
      summary,
      thresholds: judgeRules(options.rules, turns, summary),
      unreadable: selected.unreadable,
      missing: [...selected.missing],
    });
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

async function replayOne(
  record: TurnRecord,
  options: ReplayOptions,
  { setup, provider }: { setup: ReplaySetup; provider: Provider },
  journal: Journal,
  transcripts: TranscriptCache | undefined,
): Promise<TurnReport> {
  const original = originalSide(record);
  const head = {
    record_id: record.record_id,
    timeline: record.timeline,
    seq: record.seq,
    at: record.at,
    mention: options.handle === undefined || mentions(record.inbound?.text ?? "", options.handle),
    original,
    same_charter: setup.charterHash === record.prompt_hash,
    same_tools: record.tool_manifest_hash === undefined
      ? null
      : setup.manifestHash === record.tool_manifest_hash,
  };
  const why = unreplayable(record);
  if (why !== undefined) return { ...head, status: "skipped", reason: why };
  let history;
  try {
    history = transcripts && await rebuildHistory(record, transcripts);
  } catch (error) {
    if (!(error instanceof HistoryUnavailable)) throw error;
    return { ...head, status: "failed", reason: `no history: ${error.message}` };
  }
  try {
    const run = await runTurn(record, setup, provider, journal, history);
    const replay = replaySide(run, setup.provider.model);
    return {
      ...head,
      ...(history && { history: history.used }),
      status: "replayed",
      replay,
      diff: diffSides(original, replay),
      calls_from_record: run.fromRecord,
      calls_not_captured: run.notCaptured,
    };
  } catch (error) {
    return { ...head, status: "failed", reason: failureText(error) };
  }
}
