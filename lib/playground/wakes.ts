/**
 * The playground's wakes: the sandbox's router twin (the fleet router's rules, the agent's own
 * posts delivered back to it included) with a launcher that runs the real
 * `harness wake --timeline <uuid>` as a separate process with the production permission set.
 * Each delivery is kept as a {@link WakeView}: its trigger, its journal as it arrives, and once
 * it has exited, what it left under HARNESS_HOME — the tool calls its transcript holds, its turn
 * record and that chain's verification. A delivery the router did not run (coalesced, a
 * duplicate, refused by a cap or a wake-lock) keeps a view that says so.
 */
import { join } from "node:path";
import { errorMessage } from "../base/error_text.ts";
import {
  type PlatformDelivery,
  type SandboxEvent,
  type WakeDirectory,
  type WakeLaunch,
  type WakeRecord,
  WakeRouter,
  type WakeViewer,
} from "../sandbox/mod.ts";
import { type ModelChoice, wakeEnv } from "../demo/wake_process.ts";
import { harnessInvocation, spawnWake } from "../sandbox/wake_process.ts";
import { registerSecret } from "../journal/scrub.ts";
import {
  type JournalLine,
  type JournalSummary,
  readJournalLine,
  summariseJournal,
} from "./journal_view.ts";
import { readToolCalls, type ToolCallView, transcriptLength } from "./transcript_view.ts";
import { type RecordFacts, recordFacts } from "./record_view.ts";

/** One wake as the page shows it. */
export interface WakeView {
  /** The delivery id (`BASECRADLE_DELIVERY_ID`), unique per wake. */
  readonly id: string;
  readonly agent: string;
  readonly timeline: string;
  /** What woke it: the platform event, the item it is about and who caused it. */
  readonly trigger: {
    readonly event: string;
    readonly item: string | null;
    readonly actor: string | null;
  };
  /** When it was called for, then when its process started. */
  startedAt: string;
  finishedAt: string | null;
  ms: number | null;
  /** The exit code; null while running or when the process could not start. */
  code: number | null;
  /** Why the process could not be started, when it could not. */
  spawnError: string | null;
  /** What the router did instead of running it (`coalesced`, `dedup`, …), else null. */
  skipped: string | null;
  /** How the router twin handled the delivery: its outcome, why, and each attempt. */
  delivery: DeliveryView | null;
  readonly journal: JournalLine[];
  summary: JournalSummary;
  toolCalls: ToolCallView[];
  /** The turn records the wake wrote (by its delivery id) and its chain's verdict. */
  records: RecordFacts | null;
}

/** The router twin's handling of one delivery (docs/sandbox.md#the-router-twin). */
export interface DeliveryView {
  /** `woke`, `failed`, `dedup`, `coalesced`, `wake-locked`, `rate-refused` or `dropped`. */
  readonly outcome: string;
  /** Why it did not wake, when it did not. */
  readonly detail: string | null;
  readonly attempts: readonly {
    readonly attempt: number;
    readonly code: number | null;
    readonly ms: number;
    readonly error?: string;
  }[];
}

/** What the playground sets for every wake, beside the agent's identity and the model. */
export const WAKE_SETTINGS: Readonly<Record<string, string>> = {
  HARNESS_CAPTURE_REQUESTS: "1",
  HARNESS_MEMORY_PROVIDER: "recall",
};

/** Options for {@link WakeRunner}. */
export interface WakeRunnerOptions {
  readonly directory: WakeDirectory;
  /** `BASECRADLE_BASE_URL` for the woken process. */
  readonly baseUrl: string;
  /** Each agent's `HARNESS_HOME` is `<dataDir>/agents/<handle>`. */
  readonly dataDir: string;
  readonly model: ModelChoice;
  /** This process's environment, which the wake inherits minus its own agent settings. */
  readonly parentEnv: Readonly<Record<string, string>>;
  /** Called with the wake whenever one is queued, starts, logs a line or finishes. */
  readonly onChange: (wake: WakeView) => void;
  /** Called once a delivery is settled (run or not), with its final view: the wake log keeps it. */
  readonly onSettled?: (wake: WakeView) => void;
  /** Wakes of earlier runs (the wake log), shown before this run's. */
  readonly earlier?: readonly WakeView[];
  /** Lift the router's rate caps (docs/sandbox.md#the-router-twin); they apply by default. */
  readonly noRateCaps?: boolean;
  /** One line per wake start and exit (no trailing newline). */
  readonly log: (line: string) => void;
}

/** Runs real wakes for sandbox events through the router twin. */
export class WakeRunner {
  readonly #options: WakeRunnerOptions;
  readonly #router: WakeRouter;
  readonly #wakes: WakeView[] = [];
  readonly #views = new Map<string, WakeView>();

  constructor(options: WakeRunnerOptions) {
    this.#options = options;
    for (const wake of options.earlier ?? []) {
      this.#wakes.push(wake);
      this.#views.set(wake.id, wake);
    }
    this.#router = new WakeRouter({
      baseUrl: options.baseUrl,
      directory: options.directory,
      launcher: (launch) => this.#launch(launch),
      log: options.log,
      logPrefix: "playground",
      rules: {
        wakeLockDir: join(options.dataDir, "wake-locks"),
        ...(options.noRateCaps ? { rateCaps: null } : {}),
      },
      observer: {
        queued: (delivery, agent) => this.#queued(delivery, agent),
        settled: (record) => this.#settled(record),
      },
    });
  }

  /** One wake by its delivery id. */
  wake(id: string): WakeView | undefined {
    return this.#views.get(id);
  }

  /** Every wake so far, queued, running or finished, in the order they were called for. */
  get wakes(): readonly WakeView[] {
    return this.#wakes;
  }

  /** The router twin the wakes go through (its rules and history). */
  get router(): WakeRouter {
    return this.#router;
  }

  /** An agent's `HARNESS_HOME`. */
  homeOf(handle: string): string {
    return join(this.#options.dataDir, "agents", handle);
  }

  /**
   * The environment an agent's wake runs with — this process's minus its own agent settings, the
   * agent's home, platform and config home, {@link WAKE_SETTINGS} and the model — and, without a
   * delivery id, what the studio's tools run with.
   */
  agentEnv(handle: string, token: string, deliveryId?: string | null): Record<string, string> {
    const { model, parentEnv, baseUrl } = this.#options;
    const home = this.homeOf(handle);
    return wakeEnv({ ...parentEnv }, {
      HARNESS_HOME: home,
      BASECRADLE_BASE_URL: baseUrl,
      BASECRADLE_TOKEN: token,
      BASECRADLE_CONFIG_HOME: join(home, "config"),
      ...(deliveryId ? { BASECRADLE_DELIVERY_ID: deliveryId } : {}),
      // The studio shows each turn's request (docs/playground.md#the-context-view) and the
      // automatic memory (docs/memory.md#automatic-recall-the-recall-provider).
      ...WAKE_SETTINGS,
    }, model);
  }

  /** Queues the deliveries an event calls for (recipients chosen now, as the platform does). */
  dispatch(event: SandboxEvent): void {
    this.#router.dispatch(event);
  }

  /** Resolves once no wake is queued or running. */
  idle(): Promise<void> {
    return this.#router.idle();
  }

  /** Drops queued wakes, asks running ones to stop (SIGTERM) and waits for them. */
  close(): Promise<void> {
    return this.#router.close();
  }

  #queued(delivery: PlatformDelivery, agent: WakeViewer): void {
    const viewers = this.#options.directory.viewers(delivery.timeline_uuid);
    const actor = viewers.find((v) => v.uuid === delivery.actor_uuid)?.handle ?? null;
    const view: WakeView = {
      id: delivery.event_id,
      agent: agent.handle,
      timeline: delivery.timeline_uuid,
      trigger: { event: delivery.event, item: delivery.resource.uuid, actor },
      startedAt: new Date().toISOString(),
      finishedAt: null,
      ms: null,
      code: null,
      spawnError: null,
      skipped: null,
      delivery: null,
      journal: [],
      summary: summariseJournal([]),
      toolCalls: [],
      records: null,
    };
    this.#views.set(view.id, view);
    this.#wakes.push(view);
    this.#options.onChange(view);
  }

  #settled(record: WakeRecord): void {
    const view = this.#views.get(record.delivery);
    if (!view) return;
    if (record.attempts.length === 0) view.skipped = record.outcome;
    view.finishedAt = record.finishedAt;
    view.delivery = {
      outcome: record.outcome,
      detail: record.detail,
      attempts: record.attempts.map((a) => ({
        attempt: a.attempt,
        code: a.code,
        ms: Math.max(0, Date.parse(a.finishedAt) - Date.parse(a.startedAt)),
        ...(a.error ? { error: a.error } : {}),
      })),
    };
    this.#options.onChange(view);
    this.#options.onSettled?.(view);
  }

  /** One attempt: the real `harness wake --timeline <uuid>`, its journal read as it arrives. */
  async #launch(launch: WakeLaunch): Promise<{ code: number | null; error?: string }> {
    const view = this.#views.get(launch.delivery.event_id)!;
    const { onChange } = this.#options;
    const home = this.homeOf(launch.agent.handle);
    const started = performance.now();
    registerSecret(launch.token);
    if (launch.attempt === 1) view.startedAt = new Date().toISOString();
    view.code = null;
    view.spawnError = null;
    onChange(view);
    const before = await transcriptLength(home, view.timeline);
    const env = this.agentEnv(launch.agent.handle, launch.token, launch.deliveryId);
    // The page renders the journal's colours, so the wake writes them whatever this shell says.
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    try {
      await Deno.mkdir(home, { recursive: true });
      const exit = await spawnWake({
        invocation: harnessInvocation(["wake", "--timeline", view.timeline]),
        env,
        clearEnv: true,
        onJournalLine: (line) => {
          view.journal.push(readJournalLine(line));
          onChange(view);
        },
        track: (child) => launch.track(child),
        untrack: (child) => launch.untrack(child),
      });
      view.code = exit.code;
    } catch (error) {
      view.spawnError = errorMessage(error);
    }
    view.ms = Math.round(performance.now() - started);
    view.summary = summariseJournal(view.journal);
    view.toolCalls = await readToolCalls(home, view.timeline, before);
    view.records = await recordFacts(home, view.timeline, view.id);
    onChange(view);
    return view.spawnError ? { code: null, error: view.spawnError } : { code: view.code };
  }
}
