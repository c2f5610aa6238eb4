/**
 * The playground's router emulation: every actionable platform event wakes each AI viewer of
 * its timeline (not the event's author, except for its own activated task) by running the real
 * `harness wake --timeline <uuid>` as a separate process with the production permission set, one
 * wake at a time per agent. Each wake is kept as a {@link WakeView}: its trigger, its journal as
 * it arrives, and once it has exited, what it left under HARNESS_HOME — the tool calls its
 * transcript holds, its turn record and that chain's verification.
 */
import { join } from "node:path";
import { errorMessage } from "../base/error_text.ts";
import {
  ACTIONABLE_EVENTS,
  AgentQueues,
  type SandboxEvent,
  uuid7,
  type WakeDirectory,
  wakeRecipients,
} from "../sandbox/mod.ts";
import {
  DENO_NOTICE,
  harnessInvocation,
  type ModelChoice,
  wakeEnv,
} from "../cli/demo/wake_process.ts";
import { registerSecret } from "../journal/scrub.ts";
import {
  type JournalLine,
  type JournalSummary,
  readJournalLine,
  summariseJournal,
} from "./journal_view.ts";
import { readToolCalls, type ToolCallView, transcriptLength } from "./transcript_view.ts";
import { readTurnRecord, type RecordView } from "./record_view.ts";

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
  readonly journal: JournalLine[];
  summary: JournalSummary;
  toolCalls: ToolCallView[];
  record: RecordView | null;
}

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
  /** One line per wake start and exit (no trailing newline). */
  readonly log: (line: string) => void;
}

interface Job {
  readonly view: WakeView;
  readonly handle: string;
  readonly token: string;
}

/** Runs real wakes for sandbox events, serialised per agent. */
export class WakeRunner {
  readonly #options: WakeRunnerOptions;
  readonly #queues = new AgentQueues<Job>((job) => this.#run(job));
  readonly #wakes: WakeView[] = [];

  constructor(options: WakeRunnerOptions) {
    this.#options = options;
  }

  /** Every wake so far, queued, running or finished, in the order they were called for. */
  get wakes(): readonly WakeView[] {
    return this.#wakes;
  }

  /** An agent's `HARNESS_HOME`. */
  homeOf(handle: string): string {
    return join(this.#options.dataDir, "agents", handle);
  }

  /** Queues the wakes an event calls for (recipients chosen now, as a router would). */
  dispatch(event: SandboxEvent): void {
    if (this.#queues.closed || !ACTIONABLE_EVENTS.has(event.event)) return;
    const { directory } = this.#options;
    const viewers = directory.viewers(event.timeline);
    const actor = viewers.find((v) => v.uuid === event.actor)?.handle ?? null;
    for (const viewer of wakeRecipients(viewers, event)) {
      const token = directory.tokenFor(viewer.uuid);
      registerSecret(token);
      const view: WakeView = {
        id: uuid7(),
        agent: viewer.handle,
        timeline: event.timeline,
        trigger: { event: event.event, item: event.item, actor },
        startedAt: new Date().toISOString(),
        finishedAt: null,
        ms: null,
        code: null,
        spawnError: null,
        journal: [],
        summary: summariseJournal([]),
        toolCalls: [],
        record: null,
      };
      this.#wakes.push(view);
      this.#options.onChange(view);
      this.#queues.push(viewer.uuid, { view, handle: viewer.handle, token });
    }
  }

  /** Resolves once no wake is queued or running. */
  idle(): Promise<void> {
    return this.#queues.idle();
  }

  /** Drops queued wakes, asks running ones to stop (SIGTERM) and waits for them. */
  close(): Promise<void> {
    return this.#queues.close();
  }

  async #run(job: Job): Promise<void> {
    const { view } = job;
    const { model, parentEnv, baseUrl, log, onChange } = this.#options;
    const home = this.homeOf(job.handle);
    const where = `agent=@${job.handle} timeline=${view.timeline} delivery=${view.id}`;
    const started = performance.now();
    view.startedAt = new Date().toISOString();
    log(`playground wake start ${where} event=${view.trigger.event}`);
    onChange(view);
    const before = await transcriptLength(home, view.timeline);
    const env = wakeEnv({ ...parentEnv }, {
      HARNESS_HOME: home,
      BASECRADLE_BASE_URL: baseUrl,
      BASECRADLE_TOKEN: job.token,
      BASECRADLE_CONFIG_HOME: join(home, "config"),
      BASECRADLE_DELIVERY_ID: view.id,
    }, model);
    // The page renders the journal's colours, so the wake writes them whatever this shell says.
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    try {
      await Deno.mkdir(home, { recursive: true });
      const invocation = harnessInvocation(["wake", "--timeline", view.timeline]);
      const child = new Deno.Command(invocation.program, {
        args: invocation.args,
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      this.#queues.track(child);
      let rest = "";
      const take = (line: string) => {
        if (DENO_NOTICE.test(line)) return;
        view.journal.push(readJournalLine(line));
        onChange(view);
      };
      for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) {
        const parts = (rest + text).split("\n");
        rest = parts.pop() ?? "";
        parts.forEach(take);
      }
      if (rest) take(rest);
      view.code = (await child.status).code;
      this.#queues.untrack(child);
    } catch (error) {
      view.spawnError = errorMessage(error);
    }
    view.ms = Math.round(performance.now() - started);
    view.finishedAt = new Date().toISOString();
    view.summary = summariseJournal(view.journal);
    view.toolCalls = await readToolCalls(home, view.timeline, before);
    view.record = await readTurnRecord(home, view.timeline, view.id);
    log(`playground wake exit ${where} code=${view.code ?? "none"} ms=${view.ms}`);
    onChange(view);
  }
}
