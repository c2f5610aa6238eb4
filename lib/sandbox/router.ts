/**
 * The router twin: what the fleet router does with the platform's deliveries, in process. Each
 * actionable event becomes one delivery per AI viewer (the agent's own posts included), queued
 * per agent; as a delivery reaches the front it passes the router's gates in the router's order
 * — dedup, coalescing, the operator's wake-lock, the rate caps — and then runs the wake command
 * with exactly `--timeline <uuid>`, retried on a non-zero exit. Every rule is in
 * {@link RouterRules} and can be switched off. Each delivery's fate is kept as a
 * {@link WakeRecord} and logged as a `<prefix> wake …` line.
 */
import { writeStderr } from "../journal/output.ts";
import { sleep } from "../base/sleep.ts";
import { AgentQueues } from "./agent_queues.ts";
import { WakeCoverage } from "./router_coverage.ts";
import { DeliveryDedup } from "./router_dedup.ts";
import {
  commandLauncher,
  type CommandLauncherOptions,
  type LaunchResult,
  type WakeLauncher,
  type WakeViewer,
} from "./router_launch.ts";
import { RateCapsGate } from "./router_rate.ts";
import { type RouterRules, routerRules } from "./router_rules.ts";
import { checkWakeLock } from "./router_wake_lock.ts";
import { deliveryOf, type PlatformDelivery } from "./shared/deliveries.ts";
import type { SandboxEvent } from "./shared/events.ts";

export type { WakeViewer } from "./router_launch.ts";

/** The events that wake agents; `timeline.deleted` is terminal and wakes no one. */
export const ACTIONABLE_EVENTS: ReadonlySet<string> = new Set([
  "message.created",
  "asset.created",
  "task.activated",
  "webhook_event.received",
]);

/** How many settled deliveries (and known ids) are kept. */
const MAX_KEPT = 10_000;

/** The shape a delivery id must have to be passed on in `BASECRADLE_DELIVERY_ID`. */
const SAFE_DELIVERY_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Where the router learns who to wake and with which credential. */
export interface WakeDirectory {
  /** The timeline's current viewers (owner and participants); empty if it is gone. */
  viewers(timeline: string): WakeViewer[];
  /** A live API token for the user (minting one if the user has none left). */
  tokenFor(user: string): string;
}

/** Options for {@link WakeRouter}: a `command` (run as the operator's command) or a `launcher`. */
export interface WakeRouterOptions extends Partial<Omit<CommandLauncherOptions, "baseUrl">> {
  /** Deliveries' resource URLs, and `BASECRADLE_BASE_URL` for a command. */
  readonly baseUrl: string;
  /** Who may be woken for a timeline, and their tokens. */
  readonly directory: WakeDirectory;
  /** Starts each attempt; default: runs `command`. */
  readonly launcher?: WakeLauncher;
  /** The rules; the fleet router's by default. */
  readonly rules?: Partial<RouterRules>;
  /** Wall-clock ms since the epoch (coalescing, caps, dedup, wake-locks); injectable for tests. */
  readonly clock?: () => number;
  /** Decision lines (one per call, no trailing newline); default: stderr. */
  readonly log?: (line: string) => void;
  /** The first word of every log line (default `sandbox`). */
  readonly logPrefix?: string;
  /** Told of every delivery as it is queued and once its fate is settled. */
  readonly observer?: RouterObserver;
}

/** Watches deliveries go through the router. */
export interface RouterObserver {
  /** A delivery entered an agent's queue. */
  queued?(delivery: PlatformDelivery, agent: WakeViewer): void;
  /** A delivery's fate is final (woke, failed, or why not). */
  settled?(record: WakeRecord): void;
}

/** What became of a delivery. */
export type WakeOutcome =
  | "woke"
  | "failed"
  | "dedup"
  | "coalesced"
  | "wake-locked"
  | "rate-refused"
  | "dropped";

/** One attempt to run the wake. */
export interface WakeAttempt {
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** When the attempt started (ISO-8601). */
  readonly startedAt: string;
  /** When it ended (ISO-8601). */
  readonly finishedAt: string;
  /** The exit code, or null when the command could not be started. */
  readonly code: number | null;
  /** Why the command could not be started. */
  readonly error?: string;
  /** The attempt's output, when the launcher keeps it. */
  readonly output?: string;
}

/** One delivery's fate, recorded once it is settled. */
export interface WakeRecord {
  /** The delivery's id. */
  readonly delivery: string;
  /** The event name, e.g. `message.created`. */
  readonly event: string;
  /** The timeline's uuid. */
  readonly timeline: string;
  /** The agent's uuid. */
  readonly agent: string;
  /** The agent's handle. */
  readonly handle: string;
  /** The item the event is about, and who caused it. */
  readonly item: string;
  /** The uuid of the user who caused the event; null for outside deliveries. */
  readonly actor: string | null;
  /** When the event happened on the platform (ISO-8601). */
  readonly occurredAt: string;
  /** What became of the delivery. */
  readonly outcome: WakeOutcome;
  /** Why it did not wake (which wake covered it, which cap refused it), else null. */
  readonly detail: string | null;
  /** Every attempt to run the wake, in order. */
  readonly attempts: readonly WakeAttempt[];
  /** The first attempt's start, or when the router decided not to wake. */
  readonly startedAt: string;
  /** When the fate was settled (ISO-8601). */
  readonly finishedAt: string;
  /** The last attempt's exit code; null when none ran or it could not start. */
  readonly code: number | null;
}

interface Job {
  readonly delivery: PlatformDelivery;
  readonly agent: WakeViewer;
}

/** Routes platform events to wakes, by the fleet router's rules. */
export class WakeRouter {
  readonly #options: WakeRouterOptions;
  readonly #rules: RouterRules;
  readonly #clock: () => number;
  readonly #launch: WakeLauncher;
  readonly #queues: AgentQueues<Job>;
  readonly #dedup: DeliveryDedup;
  readonly #coverage = new WakeCoverage();
  readonly #caps: RateCapsGate | null;
  readonly #history: WakeRecord[] = [];
  readonly #known = new Map<string, Job>();
  readonly #log: (line: string) => void;
  readonly #abort = new AbortController();

  /** Takes the rules and starts no process until a delivery arrives. */
  constructor(options: WakeRouterOptions) {
    this.#options = options;
    this.#rules = routerRules(options.rules);
    this.#clock = options.clock ?? Date.now;
    this.#log = options.log ?? ((line) => writeStderr(line + "\n"));
    this.#queues = new AgentQueues<Job>((job) => this.#process(job), this.#rules.lanes);
    this.#dedup = new DeliveryDedup(this.#rules.dedupSeconds * 1000, this.#clock);
    const caps = this.#rules.rateCaps;
    this.#caps = caps ? new RateCapsGate(caps, this.#clock) : null;
    if (options.launcher) {
      this.#launch = options.launcher;
    } else if (options.command && options.homeRoot) {
      this.#launch = commandLauncher({
        ...options,
        command: options.command,
        homeRoot: options.homeRoot,
        log: this.#log,
      });
    } else {
      throw new TypeError("WakeRouter needs a launcher, or a command and a homeRoot");
    }
  }

  /** The rules in force. */
  get rules(): RouterRules {
    return this.#rules;
  }

  /** Every settled delivery, in settling order (the newest 10,000). */
  get history(): readonly WakeRecord[] {
    return this.#history;
  }

  /**
   * Queues one delivery per AI viewer of the event's timeline and returns their ids. Recipients
   * are chosen now, while the viewers are what they were when the event happened. Viewers whose
   * integration is on are left to whatever listens at their integration URL.
   */
  dispatch(event: SandboxEvent): string[] {
    if (this.#queues.closed || !ACTIONABLE_EVENTS.has(event.event)) return [];
    const ids: string[] = [];
    for (const viewer of this.#options.directory.viewers(event.timeline)) {
      if (viewer.kind !== "ai" || viewer.integrated) continue;
      const own = viewer.uuid === event.actor && event.event !== "task.activated";
      if (own && !this.#rules.actorAgnostic) continue;
      const delivery = deliveryOf(event, viewer.uuid, this.#options.baseUrl);
      this.deliver(delivery, viewer);
      ids.push(delivery.event_id);
    }
    return ids;
  }

  /** Queues one delivery for `agent` (a delivery of a non-actionable event is ignored). */
  deliver(delivery: PlatformDelivery, agent: WakeViewer): void {
    if (this.#queues.closed || !ACTIONABLE_EVENTS.has(delivery.event)) return;
    const job = { delivery, agent };
    this.#known.set(delivery.event_id, job);
    if (this.#known.size > MAX_KEPT) this.#known.delete(this.#known.keys().next().value!);
    this.#options.observer?.queued?.(delivery, agent);
    this.#queues.push(agent.uuid, job);
  }

  /** Delivers an earlier delivery again, same id and body; false when the id is unknown. */
  redeliver(id: string): boolean {
    const job = this.#known.get(id);
    if (job) this.deliver(job.delivery, job.agent);
    return job !== undefined;
  }

  /** Keeps queued deliveries from starting (running wakes go on) until {@link release}. */
  hold(): void {
    this.#queues.hold();
  }

  /** Lets what {@link hold} kept waiting start. */
  release(): void {
    this.#queues.release();
  }

  /** Resolves once no wake is queued or running (deliveries kept by {@link hold} aside). */
  idle(): Promise<void> {
    return this.#queues.idle();
  }

  /** Drops queued deliveries, asks running wakes to stop (SIGTERM) and waits for them. */
  close(): Promise<void> {
    this.#abort.abort();
    return this.#queues.close();
  }

  async #process(job: Job): Promise<void> {
    const { delivery, agent } = job;
    const id = delivery.event_id;
    const rules = this.#rules;
    const where = `agent=@${agent.handle} timeline=${delivery.timeline_uuid} delivery=${id}`;
    const say = (what: string, rest = "") =>
      this.#log(`${this.#options.logPrefix ?? "sandbox"} wake ${what} ${where}${rest}`);
    const settle = (outcome: WakeOutcome, detail: string | null, attempts: WakeAttempt[] = []) =>
      this.#settle(job, outcome, detail, attempts);

    if (this.#dedup.seen(id)) {
      say("dedup", " reason=duplicate_delivery");
      return settle("dedup", "this delivery already woke the agent");
    }
    const covering = rules.coalesce
      ? this.#coverage.covering(agent.uuid, delivery.timeline_uuid, delivery.occurred_at)
      : null;
    if (covering) {
      const started = new Date(covering.startedAt).toISOString();
      say(
        "coalesced",
        ` occurred_at=${delivery.occurred_at} covered_by=${covering.delivery} started_at=${started}`,
      );
      return settle("coalesced", `covered by ${covering.delivery}, started ${started}`);
    }
    if (rules.wakeLockDir !== null) {
      const lock = checkWakeLock(rules.wakeLockDir, agent.handle, this.#clock());
      if (!lock.wake) {
        say("locked", ` reason=wake_lock_${lock.state} detail=${JSON.stringify(lock.detail)}`);
        return settle("wake-locked", `wake-lock ${lock.state}: ${lock.detail}`);
      }
      if (lock.state !== "absent") {
        say(`lock-${lock.state}`, ` detail=${JSON.stringify(lock.detail)}`);
      }
    }
    if (this.#caps) {
      const decision = this.#caps.admit(agent.uuid, delivery.timeline_uuid);
      for (const scope of decision.reset) say("rate-reset", ` scope=${scope}`);
      if (!decision.admitted) {
        const detail = `scope=${decision.scope} state=${decision.state} count=${decision.count}`;
        say("rate-refused", ` ${detail}`);
        return settle("rate-refused", detail);
      }
    }
    return settle(...await this.#attempts(job, say));
  }

  /** Runs the wake until it exits 0 or the attempts are spent. */
  async #attempts(
    job: Job,
    say: (what: string, rest?: string) => void,
  ): Promise<[WakeOutcome, string | null, WakeAttempt[]]> {
    const { delivery, agent } = job;
    const { attempts: total, backoffMs } = this.#rules;
    const deliveryId = SAFE_DELIVERY_ID.test(delivery.event_id) ? delivery.event_id : null;
    if (deliveryId === null) say("unsafe-delivery-id", " detail=not_passed_on");
    const attempts: WakeAttempt[] = [];
    for (let attempt = 1; attempt <= total; attempt++) {
      const started = this.#clock();
      const mark = performance.now();
      say("start", ` event=${delivery.event} attempt=${attempt}/${total}`);
      let result: LaunchResult;
      try {
        result = await this.#launch({
          delivery,
          agent,
          token: this.#options.directory.tokenFor(agent.uuid),
          deliveryId,
          attempt,
          track: (child) => this.#queues.track(child),
          untrack: (child) => this.#queues.untrack(child),
        });
      } catch (error) {
        result = { code: null, error: String(error) };
      }
      const ms = Math.round(performance.now() - mark);
      if (result.error) say("error", ` reason=${JSON.stringify(result.error)}`);
      say("exit", ` code=${result.code ?? "none"} ms=${ms} attempt=${attempt}/${total}`);
      attempts.push({
        attempt,
        startedAt: new Date(started).toISOString(),
        finishedAt: new Date(this.#clock()).toISOString(),
        code: result.code,
        ...(result.error ? { error: result.error } : {}),
        ...(result.output !== undefined ? { output: result.output } : {}),
      });
      if (result.code === 0) {
        this.#dedup.mark(delivery.event_id);
        this.#coverage.record(agent.uuid, delivery.timeline_uuid, delivery.event_id, started);
        return ["woke", null, attempts];
      }
      if (this.#abort.signal.aborted) return ["dropped", "the router closed", attempts];
      if (attempt < total) {
        const wait = backoffMs * 2 ** (attempt - 1);
        say(
          "retry",
          ` attempt=${attempt}/${total} code=${result.code ?? "none"} backoff_ms=${wait}`,
        );
        await sleep(wait, this.#abort.signal);
        if (this.#abort.signal.aborted) return ["dropped", "the router closed", attempts];
      }
    }
    say("failed", ` attempts=${total} code=${attempts.at(-1)?.code ?? "none"}`);
    return ["failed", `still failing after ${total} attempt(s)`, attempts];
  }

  #settle(job: Job, outcome: WakeOutcome, detail: string | null, attempts: WakeAttempt[]): void {
    const { delivery, agent } = job;
    const now = new Date(this.#clock()).toISOString();
    const record: WakeRecord = {
      delivery: delivery.event_id,
      event: delivery.event,
      timeline: delivery.timeline_uuid,
      agent: agent.uuid,
      handle: agent.handle,
      item: delivery.resource.uuid,
      actor: delivery.actor_uuid,
      occurredAt: delivery.occurred_at,
      outcome,
      detail,
      attempts,
      startedAt: attempts[0]?.startedAt ?? now,
      finishedAt: attempts.at(-1)?.finishedAt ?? now,
      code: attempts.at(-1)?.code ?? null,
    };
    this.#history.push(record);
    if (this.#history.length > MAX_KEPT) this.#history.shift();
    try {
      this.#options.observer?.settled?.(record);
    } catch {
      // An observer's failure must not wedge the agent's queue.
    }
  }
}
