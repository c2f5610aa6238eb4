/**
 * Per-agent wake queues: what every router emulation shares. Wakes for one agent run one at a
 * time in arrival order; different agents run in parallel. Closing drops what is queued, asks
 * every running wake process to stop (SIGTERM) and waits for them.
 */
import type { SandboxEvent } from "./shared/events.ts";

/** A timeline viewer, as far as choosing wake recipients needs it. */
export interface RecipientViewer {
  readonly uuid: string;
  readonly kind: "human" | "ai";
}

/**
 * The viewers an event wakes: every AI viewer except the event's own actor — unless the event
 * is `task.activated`, where an agent's own task wakes it.
 */
export function wakeRecipients<V extends RecipientViewer>(
  viewers: readonly V[],
  event: Pick<SandboxEvent, "event" | "actor">,
): V[] {
  return viewers.filter((viewer) =>
    viewer.kind === "ai" && (viewer.uuid !== event.actor || event.event === "task.activated")
  );
}

/** Serial job queues keyed by agent, each drained by `run`. */
export class AgentQueues<J> {
  readonly #run: (job: J) => Promise<void>;
  readonly #queues = new Map<string, J[]>();
  readonly #running = new Map<string, Promise<void>>();
  readonly #children = new Set<Deno.ChildProcess>();
  #closed = false;

  /** `run` executes one job; it must not throw (a throw ends that agent's drain). */
  constructor(run: (job: J) => Promise<void>) {
    this.#run = run;
  }

  /** True once {@link close} was called; new jobs are then ignored. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Queues a job behind the agent's earlier ones and starts draining if idle. */
  push(agent: string, job: J): void {
    if (this.#closed) return;
    const queue = this.#queues.get(agent) ?? [];
    queue.push(job);
    this.#queues.set(agent, queue);
    if (!this.#running.has(agent)) this.#drain(agent);
  }

  /** Registers a running wake process so {@link close} can stop it. */
  track(child: Deno.ChildProcess): void {
    this.#children.add(child);
  }

  /** Forgets a wake process once it has exited. */
  untrack(child: Deno.ChildProcess): void {
    this.#children.delete(child);
  }

  /** Resolves once no job is queued or running. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running.values());
  }

  /** Drops queued jobs, asks running processes to stop (SIGTERM) and waits for them. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queues.clear();
    for (const child of this.#children) {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already exited.
      }
    }
    await this.idle();
  }

  #drain(agent: string): void {
    const loop = async () => {
      for (;;) {
        const job = this.#queues.get(agent)?.shift();
        if (!job || this.#closed) break;
        await this.#run(job);
      }
      this.#queues.delete(agent);
      this.#running.delete(agent);
    };
    this.#running.set(agent, loop());
  }
}
