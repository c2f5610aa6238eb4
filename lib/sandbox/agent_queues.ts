/**
 * Per-agent wake queues, scheduled the way the fleet router schedules them: one job in flight per
 * agent, each agent's jobs in arrival order, at most `lanes` jobs running across all agents, and
 * round-robin between agents (an agent with more work goes to the back of the line after each
 * job, so a busy agent never starves a quiet one). Closing drops what is queued, asks every
 * running wake process to stop (SIGTERM) and waits for them.
 */

/** Serial job queues keyed by agent, drained by `run` over a bounded number of lanes. */
export class AgentQueues<J> {
  readonly #run: (job: J) => Promise<void>;
  readonly #lanes: number;
  readonly #queues = new Map<string, J[]>();
  /** Agents with queued work and nothing running, in the order they became ready. */
  readonly #ready: string[] = [];
  readonly #running = new Map<string, Promise<void>>();
  readonly #children = new Set<Deno.ChildProcess>();
  #held = false;
  #closed = false;

  /** `run` executes one job; a throw is swallowed so one bad job never wedges a lane. */
  constructor(run: (job: J) => Promise<void>, lanes = 8) {
    this.#run = run;
    this.#lanes = lanes;
  }

  /** True once {@link close} was called; new jobs are then ignored. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Queues a job behind the agent's earlier ones and starts it if a lane is free. */
  push(agent: string, job: J): void {
    if (this.#closed) return;
    const queue = this.#queues.get(agent) ?? [];
    queue.push(job);
    this.#queues.set(agent, queue);
    if (!this.#running.has(agent) && !this.#ready.includes(agent)) this.#ready.push(agent);
    this.#pump();
  }

  /** Stops starting jobs (running ones go on) until {@link release}. */
  hold(): void {
    this.#held = true;
  }

  /** Starts what {@link hold} kept waiting. */
  release(): void {
    this.#held = false;
    this.#pump();
  }

  /** Registers a running wake process so {@link close} can stop it. */
  track(child: Deno.ChildProcess): void {
    this.#children.add(child);
  }

  /** Forgets a wake process once it has exited. */
  untrack(child: Deno.ChildProcess): void {
    this.#children.delete(child);
  }

  /** Resolves once no job is running and none is queued (or only held ones are). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running.values());
  }

  /** Drops queued jobs, asks running processes to stop (SIGTERM) and waits for them. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queues.clear();
    this.#ready.length = 0;
    for (const child of this.#children) {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already exited.
      }
    }
    await this.idle();
  }

  #pump(): void {
    while (!this.#held && !this.#closed && this.#running.size < this.#lanes) {
      const agent = this.#ready.shift();
      if (agent === undefined) return;
      const queue = this.#queues.get(agent)!;
      const job = queue.shift()!;
      if (queue.length === 0) this.#queues.delete(agent);
      this.#running.set(agent, this.#start(agent, job));
    }
  }

  async #start(agent: string, job: J): Promise<void> {
    try {
      await this.#run(job);
    } catch {
      // `run` records its own failures; this only keeps the lane alive.
    }
    this.#running.delete(agent);
    // More work for this agent: to the back of the line, behind every agent already waiting.
    if (this.#queues.has(agent) && !this.#ready.includes(agent)) this.#ready.push(agent);
    this.#pump();
  }
}
