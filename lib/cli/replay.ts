/**
 * `harness replay`: re-runs recorded turns offline against another config home's charter and
 * tools, another model, or both, and prints what the agent would have said instead
 * (docs/records.md#replay). The records are only read and the platform is never called; without
 * `AI_API_KEY` (or with `--model sandbox`) the sandbox's deterministic model is started in this
 * process on a free loopback port.
 */
import { CONFIG_HOME_FLAG, PROVIDER_FLAG, SDK_FLAG, SURFACE_FLAG } from "./flag_values.ts";
import { errorMessage } from "../base/error_text.ts";
import { isUuid } from "../base/uuid.ts";
import { type Command, integerFlag, type Io, processIo, UsageError } from "./command.ts";
import { instantFlag } from "./instant_flag.ts";
import {
  type FailRule,
  NAMED_FAIL_RULES,
  parseFailOn,
  parseTurnIds,
  type RecordedModel,
  type ReplayModel,
  replayTable,
  replayTurns,
  type TurnSelection,
} from "../replay/mod.ts";
import { registerSecret } from "../journal/scrub.ts";

const options = {
  timeline: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  last: { type: "string" },
  turns: { type: "string", completes: "file" },
  "config-home": CONFIG_HOME_FLAG,
  model: { type: "string" },
  provider: PROVIDER_FLAG,
  sdk: SDK_FLAG,
  surface: SURFACE_FLAG,
  "base-url": { type: "string" },
  handle: { type: "string" },
  "with-history": { type: "boolean" },
  json: { type: "boolean" },
  "rejudge-tone": { type: "boolean" },
  "fail-on": { type: "list", values: NAMED_FAIL_RULES },
} as const;

/** `--model sandbox`: the sandbox's deterministic model, in this process. */
export const SANDBOX_MODEL = "sandbox";

/** How the model is chosen, from the flags and the environment. */
export interface ModelFlags {
  readonly model?: string;
  readonly provider?: string;
  readonly sdk?: string;
  readonly surface?: string;
  readonly baseUrl?: string;
}

/** What {@link runReplay} is given. */
export interface ReplayRun {
  readonly home: string | undefined;
  readonly selection: TurnSelection;
  readonly configHome?: string;
  readonly flags: ModelFlags;
  readonly handle?: string;
  readonly json: boolean;
  /** `--rejudge-tone`: ask the tone judge again instead of reusing recorded verdicts. */
  readonly rejudgeTone?: boolean;
  readonly rules: readonly FailRule[];
  /** `--with-history`. */
  readonly withHistory?: boolean;
  readonly env: Readonly<Record<string, string>>;
  readonly io?: Io;
}

/**
 * Runs a replay and resolves to the exit code: 1 when a `--fail-on` rule is crossed, a turn could
 * not be replayed (failed) or the run could not start; 0 otherwise.
 */
export async function runReplay(run: ReplayRun): Promise<number> {
  const io = run.io ?? processIo;
  const home = run.home?.trim();
  if (!home) {
    io.stderr(
      "harness replay: HARNESS_HOME is not set; it names the directory whose records/ folder " +
        "holds the turn records to replay.\n",
    );
    return 1;
  }
  const key = run.env.AI_API_KEY?.trim() ?? "";
  const sandboxed = run.flags.model === SANDBOX_MODEL || key === "";
  let sandbox: { close(): Promise<void>; modelUrl: string } | undefined;
  try {
    let modelFor: (recorded: RecordedModel) => ReplayModel;
    let against;
    if (sandboxed) {
      const { Sandbox } = await import("../sandbox/mod.ts");
      sandbox = await Sandbox.start({ port: 0 });
      const model: ReplayModel = {
        provider: "openai",
        sdk: "openai",
        surface: "chat",
        model: "sandbox-demo",
        apiKey: "sandbox-replay-key",
        baseURL: sandbox.modelUrl,
      };
      modelFor = () => model;
      against = {
        provider: "openai",
        sdk: "openai",
        surface: "chat",
        model: model.model,
        base_url: null,
        sandbox_model: true,
      };
    } else {
      registerSecret(key);
      const { flags, env } = run;
      const pick = (flag: string | undefined, name: string) =>
        flag?.trim() || env[name]?.trim() || undefined;
      const sdk = pick(flags.sdk, "AI_SDK") ?? "openai";
      const surface = pick(flags.surface, "AI_SDK_SURFACE");
      const baseURL = pick(flags.baseUrl, "AI_BASE_URL");
      modelFor = (recorded) => ({
        provider: flags.provider?.trim() || recorded.provider,
        sdk,
        surface,
        model: flags.model?.trim() || recorded.model,
        apiKey: key,
        baseURL,
      });
      against = {
        provider: flags.provider?.trim() || null,
        sdk,
        surface: surface ?? null,
        model: flags.model?.trim() || null,
        base_url: baseURL ?? null,
        sandbox_model: false,
      };
    }
    const report = await replayTurns({
      home,
      selection: run.selection,
      configHome: run.configHome,
      modelFor,
      against,
      env: run.env,
      handle: run.handle,
      rejudgeTone: run.rejudgeTone,
      rules: run.rules,
      withHistory: run.withHistory,
    });
    io.stdout(run.json ? `${JSON.stringify(report, null, 2)}\n` : replayTable(report));
    const crossed = report.thresholds.some((t) => t.crossed);
    return crossed || report.summary.failed > 0 ? 1 : 0;
  } catch (error) {
    io.stderr(`harness replay: ${errorMessage(error).replace(/\s+/g, " ").trim()}\n`);
    return 1;
  } finally {
    await sandbox?.close();
  }
}

/** `--timeline`: a uuid, lower-cased. */
function timelineFlag(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (value === undefined) return undefined;
  if (!isUuid(value)) throw new UsageError(`--timeline must be a uuid, got '${value}'`);
  return value.toLowerCase();
}

/** `harness replay`. */
export const replayCommand: Command<typeof options> = {
  name: "replay",
  usage: `Usage: harness replay [selection] [--config-home DIR] [--model M] [--provider P]
                      [--sdk S] [--surface S] [--base-url URL] [--handle H] [--json]
                      [--with-history] [--fail-on RULES] [--rejudge-tone]

Re-run recorded turns (HARNESS_HOME/records) offline against another charter or model and show
what the agent would have said. Tools answer from the record; posts and other creates are
captured, never sent; the outbound gate runs for real on the captured posts. Records written
with content=hashes cannot be replayed and are listed as skipped.

Selection (combine freely; none: every record):
  --timeline UUID   only this timeline's turns
  --since WHEN      only turns recorded at or after WHEN: a span back from now (<n>h, <n>d, <n>w)
                    or an ISO 8601 time
  --until WHEN      only turns recorded at or before WHEN (same forms)
  --turns FILE      only the record ids listed in FILE, one per line (# comments allowed)
  --last N          after the other filters, only the newest N turns

What to replay against (defaults: what each record says, then the environment):
  --config-home DIR another config home's prompts, tools, guardrails (default:
                    BASECRADLE_CONFIG_HOME, else ~/.config/basecradle)
  --model M         the model (default: the record's); 'sandbox' is the sandbox's deterministic
                    model, started in this process — also the default when AI_API_KEY is unset
  --provider P      AI_PROVIDER (default: the record's)
  --sdk S           AI_SDK (default: AI_SDK, else openai)
  --surface S       AI_SDK_SURFACE (default: AI_SDK_SURFACE, else the SDK's own)
  --base-url URL    AI_BASE_URL (default: AI_BASE_URL, else the vendor's)
  --with-history    replay each turn after the conversation it read: the earlier messages from
                    HARNESS_HOME/sessions (checked against the record's history sha256), and the
                    recalled memory and working-state notes the record kept; a turn whose
                    transcript no longer holds them (compacted, pruned) fails, naming what is
                    missing
  --rejudge-tone    ask guardrails.json's tone judge about every captured post (default: a
                    post whose exact text the record's judge passed or refused gets that
                    verdict again, without a model call)

Output:
  --handle H        the agent's handle: turns whose inbound text mentions @H are the mentions
                    fewer-replies counts (default: every turn counts)
  --json            print the JSON report instead of the table
  --fail-on RULES   exit 1 when a rule is crossed; comma-separated: more-refusals (more gate
                    refusals than recorded, or a turn the model refused that its record did
                    not), fewer-replies (fewer replies to mentions), result-changed (a turn that
                    ended otherwise than recorded, e.g. spoke → refused), similarity<N (a turn
                    whose posted text scores below N, 0..1)
  -h, --help        show this help

Environment: HARNESS_HOME (required), AI_API_KEY (a real vendor; unset: the sandbox model),
AI_SDK, AI_SDK_SURFACE, AI_BASE_URL, BASECRADLE_CONFIG_HOME, HOME.
Exit codes: 0 done, no rule crossed; 1 a rule crossed, a turn failed to replay, or an error;
2 a usage error.
`,
  options,
  async run({ values }) {
    const now = new Date();
    const since = instantFlag("since", values.since, now);
    const until = instantFlag("until", values.until, now);
    const last = integerFlag("last", values.last, { min: 1, max: 1_000_000 });
    let ids: Set<string> | undefined;
    if (values.turns !== undefined) {
      let text: string;
      try {
        text = await Deno.readTextFile(values.turns);
      } catch (error) {
        throw new UsageError(`--turns '${values.turns}' cannot be read: ${errorMessage(error)}`);
      }
      ids = parseTurnIds(text);
      if (ids.size === 0) throw new UsageError(`--turns '${values.turns}' lists no record id`);
    }
    let rules: readonly FailRule[] = [];
    if (values["fail-on"] !== undefined) {
      const parsed = parseFailOn(values["fail-on"].join(","));
      if (typeof parsed === "string") throw new UsageError(parsed);
      rules = parsed;
    }
    const env = Deno.env.toObject();
    const model = values.model?.trim();
    const vendorFlags = ["provider", "sdk", "surface", "base-url"] as const;
    const given = vendorFlags.filter((flag) => values[flag] !== undefined);
    if (model === SANDBOX_MODEL && given.length) {
      throw new UsageError(`--${given[0]} does not apply to --model sandbox`);
    }
    if (model !== SANDBOX_MODEL && (model || given.length) && !env.AI_API_KEY?.trim()) {
      throw new UsageError(
        "AI_API_KEY is not set, so no vendor model can be called: set it, or use --model " +
          "sandbox (the default without a key) for the sandbox's deterministic model",
      );
    }
    return runReplay({
      home: env.HARNESS_HOME,
      selection: {
        timeline: timelineFlag(values.timeline),
        since,
        until,
        last,
        ids,
      },
      configHome: values["config-home"]?.trim() || undefined,
      flags: {
        model,
        provider: values.provider,
        sdk: values.sdk,
        surface: values.surface,
        baseUrl: values["base-url"],
      },
      handle: values.handle?.trim() || undefined,
      json: values.json === true,
      rejudgeTone: values["rejudge-tone"] === true,
      rules,
      withHistory: values["with-history"] === true,
      env,
    });
  },
};
