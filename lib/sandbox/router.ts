/**
 * Router emulation: what the platform's event delivery plus a box's router do together. Each
 * actionable event wakes every AI viewer of its timeline by running the wake command with
 * `--timeline <uuid>`, one wake at a time per agent (agents run in parallel).
 */
import { LineRelay, writeStderr } from "../journal/output.ts";
import { registerSecret } from "../journal/scrub.ts";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { SandboxEvent } from "./shared/events.ts";
import { uuid7 } from "./shared/uuid7.ts";
import { AgentQueues, wakeRecipients } from "./agent_queues.ts";

/** The events that wake agents; `timeline.deleted` is terminal and wakes no one. */
export const ACTIONABLE_EVENTS: ReadonlySet<string> = new Set([
  "message.created",
  "asset.created",
  "task.activated",
  "webhook_event.received",
]);

/** A viewer as the router needs it. */
export interface WakeViewer {
  readonly uuid: string;
  readonly handle: string;
  readonly kind: "human" | "ai";
}

/** Where the router learns who to wake and with which credential. */
export interface WakeDirectory {
  /** The timeline's current viewers (owner and participants); empty if it is gone. */
  viewers(timeline: string): WakeViewer[];
  /** A live API token for the user (minting one if the user has none left). */
  tokenFor(user: string): string;
}

/** Options for {@link WakeRouter}. */
export interface WakeRouterOptions {
  /** The wake command, run through `/bin/sh -c` so it may carry its own flags. */
  readonly command: string;
  /** `BASECRADLE_BASE_URL` for the woken process. */
  readonly baseUrl: string;
  /** Each agent's `HARNESS_HOME` is `<homeRoot>/agents/<handle>`. */
  readonly homeRoot: string;
  readonly directory: WakeDirectory;
  /** Start/exit lines (one per call, no trailing newline); default: stderr. */
  readonly log?: (line: string) => void;
  /** The woken processes' stdout and stderr; default: this process's stderr. */
  readonly output?: (chunk: Uint8Array) => void;
  /** Extra environment for every wake (the process environment is inherited too). */
  readonly env?: Readonly<Record<string, string>>;
}

/** One wake, as recorded once it has finished. */
export interface WakeRecord {
  readonly delivery: string;
  readonly event: string;
  readonly timeline: string;
  readonly agent: string;
  readonly handle: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** The exit code, or null when the command could not be started. */
  readonly code: number | null;
}

interface Job {
  readonly delivery: string;
  readonly event: SandboxEvent;
  readonly agent: WakeViewer;
  readonly token: string;
}

/** Runs wake commands for events, serialised per agent. */
export class WakeRouter {
  readonly #options: WakeRouterOptions;
  readonly #queues = new AgentQueues<Job>((job) => this.#run(job));
  readonly #history: WakeRecord[] = [];
  readonly #log: (line: string) => void;
  readonly #output: ((chunk: Uint8Array) => void) | undefined;

  constructor(options: WakeRouterOptions) {
    this.#options = options;
    this.#log = options.log ?? ((line) => writeStderr(line + "\n"));
    this.#output = options.output;
  }

  /** Every finished wake, in finishing order. */
  get history(): readonly WakeRecord[] {
    return this.#history;
  }

  /**
   * Queues the wakes an event calls for and returns their delivery ids. Recipients are chosen
   * now, while the timeline's viewers are what they were when the event happened. The event's
   * own actor is skipped — except for `task.activated`, where an agent's own task wakes it.
   */
  dispatch(event: SandboxEvent): string[] {
    if (this.#queues.closed || !ACTIONABLE_EVENTS.has(event.event)) return [];
    const { directory } = this.#options;
    const deliveries: string[] = [];
    for (const viewer of wakeRecipients(directory.viewers(event.timeline), event)) {
      const job = {
        delivery: uuid7(),
        event,
        agent: viewer,
        token: directory.tokenFor(viewer.uuid),
      };
      deliveries.push(job.delivery);
      this.#queues.push(viewer.uuid, job);
    }
    return deliveries;
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
    const { command, baseUrl, homeRoot, env } = this.#options;
    const home = join(homeRoot, "agents", job.agent.handle);
    const started = new Date();
    const where =
      `agent=@${job.agent.handle} timeline=${job.event.timeline} delivery=${job.delivery}`;
    this.#log(`sandbox wake start ${where} event=${job.event.event}`);
    let code: number | null = null;
    try {
      mkdirSync(home, { recursive: true });
      const child = new Deno.Command("/bin/sh", {
        // "$@" carries the appended arguments, so the command string may hold its own flags.
        args: ["-c", `${command} "$@"`, "sh", "--timeline", job.event.timeline],
        env: {
          ...env,
          BASECRADLE_TOKEN: job.token,
          BASECRADLE_BASE_URL: baseUrl,
          HARNESS_HOME: home,
          BASECRADLE_DELIVERY_ID: job.delivery,
        },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      this.#queues.track(child);
      registerSecret(job.token); // the parent relays the child's output: it scrubs its token too
      await Promise.all([this.#pump(child.stdout), this.#pump(child.stderr)]);
      code = (await child.status).code;
      this.#queues.untrack(child);
    } catch (error) {
      this.#log(`sandbox wake error ${where} reason=${JSON.stringify(String(error))}`);
    }
    const finished = new Date();
    this.#log(`sandbox wake exit ${where} code=${code ?? "none"} ms=${+finished - +started}`);
    this.#history.push({
      delivery: job.delivery,
      event: job.event.event,
      timeline: job.event.timeline,
      agent: job.agent.uuid,
      handle: job.agent.handle,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      code,
    });
  }

  async #pump(stream: ReadableStream<Uint8Array>): Promise<void> {
    const relay = this.#output ? undefined : new LineRelay();
    const output = this.#output ?? ((chunk: Uint8Array) => relay!.push(chunk));
    for await (const chunk of stream) {
      try {
        output(chunk);
      } catch {
        // A broken sink must not wedge the agent's queue.
      }
    }
    relay?.flush();
  }
}
