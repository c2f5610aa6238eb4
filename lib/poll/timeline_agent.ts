/**
 * `TimelineAgent`: poll mode (docs/poll.md) — one agent watching one timeline from a
 * long-lived process, the laptop counterpart of the router's `harness wake`. Its first poll reads
 * who the agent is, seeds the newest `HARNESS_CONTEXT_MESSAGES` messages into an in-memory
 * session `timeline:<uuid>` as context (never answering them) and primes the high-water mark to
 * the true newest message; every later message from someone else is engaged as its own turn.
 *
 * Speech stays a tool call: the agent posts only through its `messages` tool and the outbound
 * gate, and `pollOnce` reports what it chose to post; the loop never posts on its behalf. Unlike
 * a wake it keeps nothing on disk and has no claims, marks, breaker, brief, pacing or memory
 * hooks — a crash simply starts over, answering only what arrives after the restart.
 */
import { oneLineError } from "../base/error_text.ts";
import { Harness } from "../core/harness.ts";
import { InMemorySessionStore } from "../core/transcript/session_store.ts";
import type { Message } from "../core/types/message.ts";
import { Gate } from "../gate/mod.ts";
import { unspoken } from "../journal/catalogue_engine.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { closeMemoryProvider } from "../memory/hooks.ts";
import { type Message as PlatformMessage, NotFoundError } from "../platform/mod.ts";
import { MessagesTool } from "../tools/messages.ts";
import type { SelfIdentity } from "../tools/shared/platform_context.ts";
import { SimpleContext } from "../tools/shared/simple_context.ts";
import { messageLine } from "../runtime/item_text.ts";
import { type Mark, markOf, readBacklog, readSince } from "./backlog.ts";
import { CapturingGate } from "./capture_gate.ts";
import { type FromEnvOptions, pollOptionsFromEnv } from "./from_env.ts";
import type { TimelineAgentOptions } from "./options.ts";
import { orientation, withOrientation } from "./orientation.ts";
import { sleep } from "../base/sleep.ts";
import { EMPTY_KNOWLEDGE_SHA256 } from "../config/knowledge.ts";
import { withKnowledge } from "../wake/engaged/brief.ts";

/** A message the agent chose to post (the platform's record of it). */
export type PostedMessage = PlatformMessage;

/** The pause between polls when `run` is not told otherwise (the reference's 2 s). */
export const DEFAULT_INTERVAL_MS = 2000;

/** How many backlog messages are seeded when not told otherwise (one API page). */
export const DEFAULT_CONTEXT_MESSAGES = 50;

/** Options for one poll. */
export interface PollOptions {
  /** Abort to stop between messages and tear down the turn in flight. */
  readonly signal?: AbortSignal;
}

/** Options for {@link TimelineAgent.run}. */
export interface RunOptions extends PollOptions {
  /** Milliseconds between polls (default 2000). */
  readonly intervalMs?: number;
}

/** What the first poll set up. */
interface Started {
  readonly harness: Harness;
  readonly gate: CapturingGate;
  readonly self: SelfIdentity;
}

/** One agent on one timeline, polling. */
export class TimelineAgent implements AsyncDisposable {
  /** The watched timeline's uuid. */
  readonly timeline: string;
  /** The session key of the timeline's conversation: `timeline:<uuid>`. */
  readonly source: string;
  readonly #options: TimelineAgentOptions;
  readonly #journal: Journal;
  #starting: Promise<Started> | undefined;
  #started: Started | undefined;
  #mark: Mark | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  /** Builds the agent; nothing is read from the platform until the first poll. */
  constructor(options: TimelineAgentOptions) {
    const window = options.contextMessages;
    if (window !== undefined && window !== "all" && !(Number.isInteger(window) && window >= 0)) {
      throw new RangeError(
        `contextMessages must be a non-negative integer or "all", got ${String(window)}.`,
      );
    }
    this.#options = options;
    this.#journal = options.journal ?? silentJournal;
    this.timeline = options.timeline;
    this.source = `timeline:${options.timeline}`;
  }

  /**
   * An agent configured the way a wake is (docs/operating.md#run-under-a-router): credentials,
   * model axes, the config home's charter, resolved tools and params, `HARNESS_CONTEXT_MESSAGES`,
   * `HARNESS_ONBOARD`, `HARNESS_PROFILE`. `timeline` defaults to `BASECRADLE_TIMELINE`. Under the
   * locked profile this process's `run` permission is revoked first (pass `narrow: false` to keep
   * it).
   * @throws {ConfigError} (or a provider/memory configuration error) when the env refuses to load.
   */
  static async fromEnv(
    timeline?: string,
    env: Readonly<Record<string, string | undefined>> = Deno.env.toObject(),
    options: FromEnvOptions = {},
  ): Promise<TimelineAgent> {
    return new TimelineAgent(await pollOptionsFromEnv(timeline, env, options));
  }

  /** The high-water mark's message uuid (undefined before the first poll or on an empty timeline). */
  get mark(): string | undefined {
    return this.#mark?.uuid;
  }

  /** What a turn record's `knowledge_sha256` holds: the rendered pack's, or the empty pack's. */
  get #knowledgeSha256(): string {
    return this.#options.knowledge?.sha256 ?? EMPTY_KNOWLEDGE_SHA256;
  }

  /** Who the agent is, once the first poll has read its dashboard. */
  get self(): SelfIdentity | undefined {
    return this.#started?.self;
  }

  /** A copy of the in-memory session (`[]` before the first poll). */
  async transcript(): Promise<Message[]> {
    return this.#started ? await this.#started.harness.transcript(this.source) : [];
  }

  /**
   * Checks the timeline once and engages each new message from someone else, one turn each, in
   * order. Resolves to the messages the agent chose to post through its `messages` tool (empty
   * when it stayed silent). The first call seeds the backlog instead of answering it. Polls run
   * one at a time. A message is taken in before its turn runs, so a failed turn is not retried
   * (a retry could post twice); the error is thrown and the next poll carries on after it.
   */
  pollOnce(options: PollOptions = {}): Promise<PostedMessage[]> {
    const next = this.#queue.catch(() => {}).then(() => this.#poll(options.signal));
    this.#queue = next;
    return next;
  }

  /**
   * Polls until `signal` aborts, pausing `intervalMs` between polls. A failure after the first
   * poll is logged (ERROR `poll failed`) and the loop carries on; a first poll that cannot even
   * start (bad credentials, an unknown timeline) is thrown, since retrying will not fix it.
   */
  async run(options: RunOptions = {}): Promise<void> {
    const { signal, intervalMs = DEFAULT_INTERVAL_MS } = options;
    while (!signal?.aborted) {
      try {
        await this.pollOnce({ signal });
      } catch (error) {
        if (signal?.aborted) return;
        if (!this.#started) throw error;
        this.#journal.event("ERROR", "poll failed", {
          timeline: this.timeline,
          error: oneLineError(error),
        }, { color: "red" });
      }
      await sleep(intervalMs, signal);
    }
  }

  /** Releases the memory provider; the agent must not poll afterwards. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.catch(() => {});
    if (this.#options.memory) await closeMemoryProvider(this.#options.memory, this.#journal);
  }

  /** `await using agent = …` closes it. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #poll(signal: AbortSignal | undefined): Promise<PostedMessage[]> {
    if (this.#closed) throw new Error("This TimelineAgent is closed.");
    const started = await this.#start();
    const { client } = this.#options;
    const fresh = await readSince(client, this.timeline, this.#mark);
    const posted: PostedMessage[] = [];
    for (const message of fresh) {
      if (signal?.aborted) break;
      this.#mark = markOf(message);
      if (message.user.uuid === started.self.uuid) continue; // never answer ourselves
      posted.push(...await this.#engage(started, message, signal));
    }
    return posted;
  }

  /** One turn on one message; resolves to what the agent posted during it. */
  async #engage(
    { harness, gate }: Started,
    message: PlatformMessage,
    signal: AbortSignal | undefined,
  ): Promise<PostedMessage[]> {
    gate.take(); // anything recorded outside a turn is not this turn's speech
    const result = await harness.turn(messageLine(message), { source: this.source, signal });
    // The closing text reaches no one (docs/invariants.md#1-speech-is-a-tool-call): it is logged,
    // never posted.
    unspoken(this.#journal, { timeline: this.timeline, kind: result.kind, text: result.text });
    const posted = gate.take();
    this.#journal.event("INFO", "poll turn", {
      timeline: this.timeline,
      message: message.content.uuid,
      posted: posted.length,
      knowledge_sha256: this.#knowledgeSha256,
    });
    return posted;
  }

  #start(): Promise<Started> {
    if (!this.#starting) {
      this.#starting = this.#begin().then((started) => (this.#started = started));
      // A start that failed (network, credentials) is tried again by the next poll.
      this.#starting.catch(() => (this.#starting = undefined));
    }
    return this.#starting;
  }

  /** Identity, charter, tools, then the backlog seed and the primed mark. */
  async #begin(): Promise<Started> {
    const o = this.#options;
    const journal = this.#journal;
    try {
      await o.client.timelines.get(this.timeline);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new Error(
        `Timeline ${this.timeline} does not exist, or this agent cannot view it.`,
        { cause: error },
      );
    }
    const dashboard = await o.client.users.dashboard();
    const self = { uuid: dashboard.identity.uuid, handle: dashboard.identity.handle };
    const onboard = o.onboard ?? true;
    // The knowledge pack follows the charter after one blank line, the same bytes a wake sends.
    const charter = withKnowledge(
      withOrientation(onboard ? orientation(dashboard) : undefined, o.charter),
      o.knowledge?.text,
    );
    const gate = new CapturingGate(o.gate ?? new Gate({ client: o.client, journal }));
    const context = new SimpleContext({
      client: o.client,
      timeline: this.timeline,
      self,
      journal,
      gate,
    });
    const tools = o.tools ? o.tools(context) : [new MessagesTool(context)];
    const store = new InMemorySessionStore();
    const harness = new Harness(o.provider, {
      systemPrompt: charter,
      tools,
      policy: o.policy,
      store,
      journal,
      maxSteps: o.maxSteps,
      responseRetries: o.responseRetries,
      imagePrep: o.imagePrep,
    });
    const window = o.contextMessages ?? DEFAULT_CONTEXT_MESSAGES;
    const backlog = await readBacklog(o.client, this.timeline, window, self.uuid);
    // Saved before any turn, so the session's first load already holds the context.
    await store.save(this.source, backlog.turns);
    this.#mark = backlog.mark;
    journal.event("INFO", "poll start", {
      timeline: this.timeline,
      seeded: backlog.seeded,
      mark: backlog.mark?.uuid,
      onboard,
      knowledge_sha256: this.#knowledgeSha256,
    });
    return { harness, gate, self };
  }
}
