/**
 * The studio behind the page: what the routes ask of a running playground, each answer built
 * here from the agents' homes, the wake log and the router twin — a wake's details and its
 * context view, the summaries with their cost, the draft config home and its replay, notes,
 * memory, one tool run, and new human seats. The routes only check and relay.
 */
import { join } from "node:path";
import { errorMessage } from "../base/error_text.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { registerSecret } from "../journal/scrub.ts";
import { loadPrices } from "../config/prices.ts";
import type { TurnRecord } from "../home/records/mod.ts";
import { type ModelChoice, withoutAgentSettings } from "../demo/wake_process.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { contextView, type RequestView } from "./context_view.ts";
import { configFingerprint } from "./config_fingerprint.ts";
import { Draft } from "./drafts.ts";
import { readNotes, searchMemory } from "./memory_view.ts";
import { chainRecords, type RecordFacts } from "./record_view.ts";
import type { ToolAgent, ToolInfo, ToolRunView } from "./tool_runner.ts";
import type { ToolCallView } from "./transcript_view.ts";
import { type Pricing, summariseWake, type WakeSummary } from "./wake_summary.ts";
import { WAKE_SETTINGS, type WakeRunner, type WakeView } from "./wakes.ts";
import { addHumanSeat, type PlaygroundWorld } from "./world.ts";
import { newestWakes, wakesBefore, type WakeSlice } from "./wake_window.ts";
import type { JournalLine } from "./journal_view.ts";

/** Everything a panel shows of one wake beyond its summary. */
export interface WakeDetails {
  readonly journal: readonly JournalLine[];
  readonly toolCalls: readonly ToolCallView[];
  readonly unspoken: readonly string[];
  /** The wake's turn records as they are on disk now, in chain order. */
  readonly records: readonly TurnRecord[];
  readonly chain: RecordFacts | null;
}

/** What {@link Studio} works with. */
export interface StudioOptions {
  readonly dataDir: string;
  readonly world: PlaygroundWorld;
  readonly runner: WakeRunner;
  readonly sandbox: Sandbox;
  readonly model: ModelChoice;
  /** The playground's environment (wakes, installs and replays inherit it minus agent settings). */
  readonly parentEnv: Readonly<Record<string, string>>;
}

/** The studio of a running playground. */
export class Studio {
  readonly #options: StudioOptions;
  #pricing: Pricing;
  /** Why the agent's `prices.json` could not be used, when it could not. */
  #pricesProblem: string | null = null;
  readonly #drafts = new Map<string, Draft>();
  /** The tool list and the timeline and config digest it was resolved for. */
  #toolList: { key: string; tools: Promise<ToolInfo[]> } | undefined;
  /** How often the tool list was resolved from the configuration (the page's `GET /api/tools`). */
  toolListBuilds = 0;

  constructor(options: StudioOptions) {
    this.#options = options;
    this.#pricing = {
      prices: new Map(),
      model: options.model.env.AI_MODEL ?? "",
      sandboxModel: !options.model.vendor,
    };
  }

  /** The agent's config home (`<home>/config`). */
  configHome(handle = this.#options.world.agent.handle): string {
    return join(this.#options.runner.homeOf(handle), "config");
  }

  /** Reads the agent's `prices.json` again (over the built-in prices); a wrong file prices nothing and says why. */
  async refreshPrices(): Promise<void> {
    try {
      this.#pricing = { ...this.#pricing, prices: await loadPrices(this.configHome()) };
      this.#pricesProblem = null;
    } catch (error) {
      this.#pricing = { ...this.#pricing, prices: new Map() };
      this.#pricesProblem = errorMessage(error);
    }
  }

  /** Where wakes are priced from, for the page's cost chart. */
  get prices(): { file: string; priced: boolean; problem: string | null } {
    return {
      file: join(this.configHome(), "prices.json"),
      priced: this.#pricing.prices.get(this.#pricing.model) !== undefined,
      problem: this.#pricesProblem,
    };
  }

  /** How many wakes there are, queued, running or finished. */
  get wakeCount(): number {
    return this.#options.runner.wakes.length;
  }

  /** The newest wakes' summaries (what the state carries) and how many are older. */
  newestSummaries(): WakeSlice<WakeSummary> {
    return this.#summarised(newestWakes(this.#options.runner.wakes));
  }

  /** The summaries of the newest `limit` wakes numbered below `before`. */
  summariesBefore(before: number, limit: number): WakeSlice<WakeSummary> {
    return this.#summarised(wakesBefore(this.#options.runner.wakes, before, limit));
  }

  /** One wake's summary by id; null for an unknown id. */
  summaryOf(id: string): WakeSummary | null {
    const wake = this.#options.runner.wake(id);
    return wake ? this.summary(wake) : null;
  }

  /** Summarises a slice: only the wakes it holds are summarised, numbered from its start. */
  #summarised(slice: WakeSlice<WakeView>): WakeSlice<WakeSummary> {
    return {
      wakes: slice.wakes.map((wake, i) => summariseWake(wake, slice.older + i + 1, this.#pricing)),
      older: slice.older,
    };
  }

  /** One wake's summary. */
  summary(wake: WakeView): WakeSummary {
    const n = this.#options.runner.wakes.indexOf(wake) + 1;
    return summariseWake(wake, n, this.#pricing);
  }

  /** A wake's journal, tool calls, narration and records; null for an unknown id. */
  async details(id: string): Promise<WakeDetails | null> {
    const wake = this.#options.runner.wake(id);
    if (!wake) return null;
    const home = this.#options.runner.homeOf(wake.agent);
    const ids = new Set(wake.records?.ids ?? []);
    const records = ids.size
      ? (await chainRecords(home, wake.timeline)).filter((r) => ids.has(r.record_id))
      : [];
    return {
      journal: wake.journal,
      toolCalls: wake.toolCalls,
      unspoken: wake.summary.unspoken,
      records,
      chain: wake.records,
    };
  }

  /** A wake's context view (one request per turn record); null for an unknown id. */
  async context(id: string): Promise<RequestView[] | null> {
    const wake = this.#options.runner.wake(id);
    if (!wake) return null;
    const home = this.#options.runner.homeOf(wake.agent);
    return await contextView(home, wake.timeline, wake.records?.ids ?? []);
  }

  /** The agent's draft config home. */
  draft(handle = this.#options.world.agent.handle): Draft {
    let draft = this.#drafts.get(handle);
    if (!draft) {
      draft = new Draft({
        dataDir: this.#options.dataDir,
        handle,
        liveConfigHome: this.configHome(handle),
        env: withoutAgentSettings(this.#options.parentEnv),
        settings: WAKE_SETTINGS,
      });
      this.#drafts.set(handle, draft);
    }
    return draft;
  }

  /** Replays the agent's newest `last` turns on `timeline` against its draft. */
  replay(timeline: string, last: number) {
    const { agent } = this.#options.world;
    return this.draft().replay(this.#options.runner.homeOf(agent.handle), timeline, last);
  }

  /** The agent's notes on `timeline`. */
  notes(timeline: string) {
    return readNotes(this.#options.runner.homeOf(this.#options.world.agent.handle), timeline);
  }

  /** The agent's automatic memory, searched for `query` as a wake on `timeline` would. */
  memory(timeline: string, query: string) {
    const { agent } = this.#options.world;
    return searchMemory(this.#options.runner.homeOf(agent.handle), agent.uuid, timeline, query);
  }

  /**
   * The tools the page may run as the agent on `timeline`: resolved from the configuration once,
   * and again only after a file of the config home changed ({@link configFingerprint}).
   */
  async tools(timeline: string): Promise<ToolInfo[]> {
    const key = `${timeline}\0${await configFingerprint(this.configHome())}`;
    if (this.#toolList?.key !== key) {
      const tools = (await this.#toolRunner()).listTools(this.#toolAgent(), timeline);
      this.#toolList = { key, tools };
      // A resolution that failed is not kept: the next request tries again.
      tools.catch(() => {
        if (this.#toolList?.tools === tools) this.#toolList = undefined;
      });
      this.toolListBuilds++;
    }
    return await this.#toolList.tools;
  }

  /** Runs one tool as the agent on `timeline`. */
  async runTool(
    timeline: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<ToolRunView> {
    return (await this.#toolRunner()).runTool(this.#toolAgent(), timeline, name, args);
  }

  /** Seats one more human on the shared timeline. */
  async addSeat(handle: string, name: string): Promise<{ handle: string; name: string }> {
    const { sandbox, dataDir, world } = this.#options;
    const seat = await addHumanSeat(sandbox, dataDir, world, handle, name);
    registerSecret(seat.token);
    return { handle: seat.handle, name: seat.name };
  }

  #toolRunner() {
    return lazyImport<typeof import("./tool_runner.ts")>("lib/playground/tool_runner.ts");
  }

  #toolAgent(): ToolAgent {
    const { world, runner } = this.#options;
    return {
      env: runner.agentEnv(world.agent.handle, world.agent.token),
      uuid: world.agent.uuid,
      handle: world.agent.handle,
      token: world.agent.token,
    };
  }
}
