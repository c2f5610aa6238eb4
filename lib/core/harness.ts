/**
 * `Harness`: one agent — one provider, one tool set, one charter — reached over many channels.
 * Each channel (a source key you choose) is its own session with its own transcript; every
 * session shares the provider and the tools, so a stateful tool like memory is the agent's one
 * memory across all of them ("what converges is memory and charter, not conversation").
 *
 * The charter (system prompt) is composed at every turn and prepended to what the provider is
 * sent; it is never written into a transcript (docs/invariants.md#6-stable-first-volatile-last), so
 * editing it takes effect on existing sessions and the frozen transcript stays a byte-stable
 * prefix. A transcript written by the reference harness may begin with its own charter turn; when
 * this Harness has a charter, that stale copy is left on disk but not sent, so the model never
 * reads two charters.
 */
import { errorMessage } from "../base/error_text.ts";
import { isSummary } from "./types/summary_marker.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { Engine, type EngineResult, type TurnHook } from "./engine.ts";
import { openHomeStore } from "./transcript/home_store.ts";
import { Message } from "./types/message.ts";
import type { Policy } from "./policy.ts";
import type { Provider } from "./types/provider.ts";
import { ToolRegistry } from "./registry.ts";
import type { Sleep } from "./retry.ts";
import { InMemorySessionStore, type SessionStore } from "./transcript/session_store.ts";
import { isStepCounter } from "./types/step_counter.ts";
import type { Tool } from "./types/tool.ts";
import type { ImagePrepPolicy } from "./types/image_policy.ts";

/** The session `send` and `transcript` use when no source is named. */
export const DEFAULT_SOURCE = "default";

/** A charter: fixed text, or a function composing it afresh for each turn. */
export type Charter = string | (() => string | undefined | Promise<string | undefined>);

/** Everything a Harness can be built with; only the provider is required. */
export interface HarnessOptions {
  /** The standing instructions, sent first on every turn of every session. */
  readonly systemPrompt?: Charter;
  /** Tools to register; each passes the policy, so a forbidden one throws `PolicyError` here. */
  readonly tools?: Iterable<Tool>;
  /** Defaults to `Policy.locked()`. Pass `Policy.unlocked()` only with intent. */
  readonly policy?: Policy;
  /** Persist transcripts under `<home>/sessions/`. Exclusive with `store`. */
  readonly home?: string;
  /** Where transcripts live; defaults to memory (gone at exit). Exclusive with `home`. */
  readonly store?: SessionStore;
  /** Where lines go; defaults to silent. */
  readonly journal?: Journal;
  /** Per-turn step budget (default 24). */
  readonly maxSteps?: number;
  /** Extra attempts for transient provider faults (default 2). */
  readonly responseRetries?: number;
  /** How a request's images are prepared; `null` sends them untouched (default: the defaults). */
  readonly imagePrep?: ImagePrepPolicy | null;
  /** Server-side built-in names besides the provider's own. */
  readonly builtins?: Iterable<string>;
  /** Hooks consulted on every turn of every session. */
  readonly hooks?: readonly TurnHook[];
  /** Overrides the provider's vision answer. */
  readonly vision?: boolean;
  /** Clock for step counters and durations (tests). */
  readonly now?: () => Date;
  /** Sleep for the retry backoff (tests). */
  readonly sleep?: Sleep;
}

/** Per-turn options. */
export interface SendOptions {
  /** The channel; defaults to `"default"`. */
  readonly source?: string;
  /** Hooks for this turn only. */
  readonly hooks?: readonly TurnHook[];
  /** Passed to tools; abort to tear the turn down. */
  readonly signal?: AbortSignal;
}

/** An agent with one session per source. */
export class Harness {
  /** The brain every session shares. */
  readonly provider: Provider;
  /** The tools every session shares, gated by the policy. */
  readonly registry: ToolRegistry;
  /** The loop every session runs on (its `turns`/`steps` count across sessions). */
  readonly engine: Engine;
  readonly #charter?: Charter;
  readonly #journal: Journal;
  readonly #store: Promise<SessionStore>;
  readonly #live = new Map<string, Promise<Message[]>>();
  readonly #queues = new Map<string, Promise<unknown>>();

  /**
   * Registers `options.tools` through the policy (a refused tool throws `PolicyError` here) and
   * picks the store: `store`, else a file store under `home`, else memory.
   */
  constructor(provider: Provider, options: HarnessOptions = {}) {
    if (options.home !== undefined && options.store !== undefined) {
      throw new TypeError("Pass either `home` or `store` to Harness, not both.");
    }
    this.provider = provider;
    this.#journal = options.journal ?? silentJournal;
    this.registry = new ToolRegistry({ policy: options.policy });
    for (const tool of options.tools ?? []) this.registry.register(tool);
    this.engine = new Engine(provider, this.registry, {
      journal: this.#journal,
      maxSteps: options.maxSteps,
      responseRetries: options.responseRetries,
      imagePrep: options.imagePrep,
      builtins: options.builtins,
      hooks: options.hooks,
      vision: options.vision,
      now: options.now,
      sleep: options.sleep,
    });
    this.#charter = options.systemPrompt;
    this.#store = options.home !== undefined
      ? openHomeStore(options.home, this.#journal)
      : Promise.resolve(options.store ?? new InMemorySessionStore());
    // A failed open is reported by the first call that needs the store, not as an unhandled
    // rejection at construction.
    this.#store.catch(() => {});
  }

  /** The registered tool names, sorted. */
  get tools(): string[] {
    return this.registry.names();
  }

  /** Runs one turn on `source`'s session and resolves to the turn's final text. */
  async send(text: string, options: SendOptions = {}): Promise<string> {
    return (await this.turn(text, options)).text;
  }

  /**
   * Runs one turn and resolves to the engine's full result (text, unspoken kind, steps, tool
   * calls, usage). Turns on one source run one at a time; different sources run independently.
   */
  turn(text: string, options: SendOptions = {}): Promise<EngineResult> {
    const source = options.source ?? DEFAULT_SOURCE;
    const previous = this.#queues.get(source) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.#turn(source, text, options));
    this.#queues.set(source, next);
    return next;
  }

  /** A copy of `source`'s transcript (live if this agent has used it, else from the store). */
  async transcript(source: string = DEFAULT_SOURCE): Promise<Message[]> {
    const live = this.#live.get(source);
    if (live) return structuredClone(await live);
    return await (await this.#store).load(source);
  }

  /** Every source with a transcript in the store. */
  async sources(): Promise<string[]> {
    return await (await this.#store).sources();
  }

  async #turn(source: string, text: string, options: SendOptions): Promise<EngineResult> {
    const store = await this.#store;
    const messages = await this.#session(source, store);
    const save = () => store.save(source, messages);
    const charter = await this.#composeCharter();
    messages.push(Message.user(text));
    try {
      // The user turn reaches the store before the model is asked anything.
      await save();
      const result = await this.engine.run(messages, {
        persist: save,
        view: (live) => withCharter(charter, live),
        hooks: options.hooks,
        signal: options.signal,
      });
      await this.#saveQuietly(
        save,
        "Could not persist a turn in progress; some of its work may be lost",
      );
      return result;
    } catch (error) {
      messages.push(Message.system(failureMarker(error)));
      await this.#saveQuietly(
        save,
        "Could not persist the transcript of a turn that was already failing",
      );
      throw error;
    }
  }

  #session(source: string, store: SessionStore): Promise<Message[]> {
    let live = this.#live.get(source);
    if (!live) {
      live = store.load(source);
      this.#live.set(source, live);
      // A failed load is retried by the next turn rather than cached forever.
      live.catch(() => this.#live.delete(source));
    }
    return live;
  }

  async #composeCharter(): Promise<string | undefined> {
    const charter = this.#charter;
    const text = typeof charter === "function" ? await charter() : charter;
    return text?.trim() ? text : undefined;
  }

  async #saveQuietly(save: () => Promise<void>, what: string): Promise<void> {
    try {
      await save();
    } catch (error) {
      this.#journal.text("ERROR", `${what}: ${errorMessage(error)}`);
    }
  }
}

/** What the provider is sent: the charter first, then the transcript minus any stale charter. */
export function withCharter(
  charter: string | undefined,
  messages: readonly Message[],
): readonly Message[] {
  if (!charter) return messages;
  const rest = messages.length && isCharterTurn(messages[0]) ? messages.slice(1) : messages;
  return [Message.system(charter), ...rest];
}

/** A leading system turn that is neither a step counter nor a compaction summary. */
function isCharterTurn(message: Message): boolean {
  return message.role === "system" && !isStepCounter(message) && !isSummary(message);
}

/** The transcript's record of a turn that failed: `[turn failed: <Type> — <message>]`. */
export function failureMarker(error: unknown): string {
  const type = error instanceof Error ? error.name : typeof error;
  return `[turn failed: ${type} — ${errorMessage(error)}]`;
}
