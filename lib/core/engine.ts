/**
 * The think→act loop. Per step: a step counter, one model call (transient faults retried), the
 * reply appended and **persisted before any tool runs**
 * (docs/invariants.md#3-written-before-dispatched), each tool call run in order, images injected,
 * hooks consulted. The loop holds no policy: it runs whatever the registry holds, and the
 * registry's policy already decided what could be registered.
 *
 * The final text is returned, never posted (docs/invariants.md#1-speech-is-a-tool-call): the caller
 * logs it as `unspoken`.
 */
import { errorMessage } from "../base/error_text.ts";
import { lazyImport } from "../base/lazy_import.ts";
import {
  imagesUnprepared,
  payloadReplay,
  replyCut,
  reserveSummary,
  stepLine,
  wakeUsedSteps,
} from "../journal/catalogue_engine.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";
import { runToolCall, type ToolRun } from "./dispatch.ts";
import { evictImages, imageTurn } from "./images.ts";
import { ProviderPayloadTooLargeError } from "./types/faults.ts";
import { DEFAULT_IMAGE_PREP, type ImagePrepPolicy } from "./types/image_policy.ts";
import { type ImageContent, Message } from "./types/message.ts";
import type { Provider } from "./types/provider.ts";
import type { ToolRegistry } from "./registry.ts";
import { loggedChat, realSleep, type Sleep } from "./retry.ts";
import { DEFAULT_MAX_STEPS, RESERVE_NUDGE, stepCounter } from "./types/step_counter.ts";
import type { StepContext, TurnHook } from "./turn_hook.ts";
import type { ToolSpec } from "./types/tool.ts";
import {
  DEFAULT_RESPONSE_RETRIES,
  EngineError,
  type EngineOptions,
  type EngineResult,
  type RunOptions,
  type ToolCallRecord,
  type UnspokenKind,
  type UsageTotals,
} from "./engine_contract.ts";

export { nudgeOnce } from "./turn_hook.ts";
export type { StepContext, TurnHook } from "./turn_hook.ts";

// The engine's contract types stay importable from here, so callers name one module.
export * from "./engine_contract.ts";

/** Runs turns for one provider against one registry. */
export class Engine {
  /** The model every run calls. */
  readonly provider: Provider;
  /** The tools every run may dispatch (already gated by its policy). */
  readonly registry: ToolRegistry;
  /** Per-run step budget. */
  readonly maxSteps: number;
  /** Extra attempts for the transient faults. */
  readonly responseRetries: number;
  /** Engine runs so far (the `wake end` line's `turns=`). */
  turns = 0;
  /** Model steps so far across runs, reserve calls excluded (`steps=`). */
  steps = 0;
  readonly #journal: Journal;
  readonly #now: () => Date;
  readonly #sleep: Sleep;
  readonly #vision?: boolean;
  readonly #builtins: ReadonlySet<string>;
  readonly #hooks: readonly TurnHook[];
  readonly #imagePrep: ImagePrepPolicy | null;

  /** Throws `RangeError` for a non-positive step budget or a negative retry count. */
  constructor(provider: Provider, registry: ToolRegistry, options: EngineOptions = {}) {
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps <= 0) {
      throw new RangeError(`maxSteps must be a positive integer, got ${maxSteps}.`);
    }
    const retries = options.responseRetries ?? DEFAULT_RESPONSE_RETRIES;
    if (!Number.isInteger(retries) || retries < 0) {
      throw new RangeError(`responseRetries must be a non-negative integer, got ${retries}.`);
    }
    this.provider = provider;
    this.registry = registry;
    this.maxSteps = maxSteps;
    this.responseRetries = retries;
    this.#journal = options.journal ?? silentJournal;
    this.#now = options.now ?? (() => new Date());
    this.#sleep = options.sleep ?? realSleep;
    this.#vision = options.vision;
    this.#builtins = new Set([...(provider.builtins ?? []), ...(options.builtins ?? [])]);
    this.#hooks = options.hooks ?? [];
    this.#imagePrep = options.imagePrep === undefined ? DEFAULT_IMAGE_PREP : options.imagePrep;
  }

  /**
   * Drives `messages` (mutated in place: every turn is appended) to a final text. Throws the
   * provider's fault when a call fails for good, the persist error when a reply cannot be
   * recorded, and `EngineError` when the reserve summary fails. Pixels shown during the run
   * are evicted however it ends.
   */
  async run(messages: Message[], options: RunOptions = {}): Promise<EngineResult> {
    const run = new Run(this, messages, options, {
      journal: this.#journal,
      now: this.#now,
      sleep: this.#sleep,
      vision: this.#vision,
      builtins: this.#builtins,
      hooks: [...this.#hooks, ...(options.hooks ?? [])],
      imagePrep: this.#imagePrep,
    });
    this.turns++;
    return await run.execute();
  }
}

interface RunDeps {
  readonly journal: Journal;
  readonly now: () => Date;
  readonly sleep: Sleep;
  readonly vision?: boolean;
  readonly builtins: ReadonlySet<string>;
  readonly hooks: readonly TurnHook[];
  readonly imagePrep: ImagePrepPolicy | null;
}

/** One run's state: kept apart from `Engine` so concurrent runs never share it. */
class Run {
  readonly #shown: Message[] = [];
  readonly #calls: ToolCallRecord[] = [];
  readonly #usage: UsageTotals = {
    calls: 0,
    tokensIn: 0,
    tokensOut: 0,
    tokensTotal: 0,
    cachedTokens: 0,
  };
  #vision?: boolean;
  #visionKnown = false;
  /** Images prepared so far this run, by their original object (see #prepared). */
  readonly #preparedImages = new WeakMap<ImageContent, ImageContent[] | string>();
  /** How many old images the last request left out, so the WARNING is not repeated per step. */
  #droppedImages = 0;
  /** Set once a request was refused as too large with images: the run's later steps go without. */
  #imagesRefused = false;
  #stepsUsed = 0;

  constructor(
    readonly engine: Engine,
    readonly messages: Message[],
    readonly options: RunOptions,
    readonly deps: RunDeps,
  ) {}

  async execute(): Promise<EngineResult> {
    try {
      const specs = this.engine.registry.specs();
      const max = this.engine.maxSteps;
      for (let step = 1; step <= max; step++) {
        const started = this.deps.now();
        this.#stepsUsed = step;
        this.engine.steps++;
        const reminder = await this.options.stepReminder?.();
        const note = stepCounter(step, max, started);
        this.messages.push(Message.system(reminder ? `${note}\n\n${reminder}` : note));
        let reply = await this.#chat(specs.length ? specs : undefined);
        if (reply.ending === "truncated" && reply.cutCall) {
          // The limit cut a tool call: the same context is asked once more, the cut reply
          // dropped unseen (acting on part of a plan is worse than asking again).
          replyCut(this.deps.journal, { step, resumed: true });
          reply = await this.#chat(specs.length ? specs : undefined);
        }
        if (reply.ending) return await this.#handOff(step, started, reply);
        this.messages.push(reply);
        // The one save allowed to fail the turn: a tool call absent from disk never ran.
        await this.options.persist?.();
        const runs = await this.#dispatch(reply);
        const extended = await this.#consultHooks(step, reply, runs);
        stepLine(this.deps.journal, {
          step,
          maxSteps: max,
          tools: (reply.toolCalls ?? []).map((call) => call.name),
          hookContinue: extended,
          seconds: seconds(started, this.deps.now()),
        });
        if (!reply.toolCalls?.length && !extended) {
          wakeUsedSteps(this.deps.journal, { used: step, maxSteps: max });
          return this.#result(reply, "narration");
        }
      }
      reserveSummary(this.deps.journal, { maxSteps: max });
      return await this.#reserve();
    } finally {
      evictImages(this.#shown);
    }
  }

  /**
   * One model call through the retry rule, with its `llm` line and usage tally. The request's
   * images are prepared first; a request refused as too large while it carried inline images
   * is replayed once without them (docs/context.md#a-request-too-large-for-its-images).
   */
  async #chat(tools: readonly ToolSpec[] | undefined): Promise<Message> {
    const built = this.options.view ? await this.options.view(this.messages) : this.messages;
    // After a refusal the same images would be refused again on every later step of the run.
    const view = this.#imagesRefused ? withoutImages(built) : await this.#prepared(built);
    await this.options.onRequest?.(view);
    const options = {
      retries: this.engine.responseRetries,
      sleep: this.deps.sleep,
      journal: this.deps.journal,
      now: this.deps.now,
    };
    let reply: Message;
    try {
      reply = await loggedChat(this.engine.provider, view, tools, options);
    } catch (error) {
      const inline = inlineImages(view);
      if (!(error instanceof ProviderPayloadTooLargeError) || inline === 0) throw error;
      // The images are what a text-only request would not have carried: one replay without
      // them. The transcript is untouched; a second refusal takes the usual failure path.
      payloadReplay(this.deps.journal, { images: inline, error: error.message });
      this.#imagesRefused = true;
      const bare = withoutImages(view);
      await this.options.onRequest?.(bare);
      reply = await loggedChat(this.engine.provider, bare, tools, options);
    }
    this.#tally(reply);
    return reply;
  }

  /**
   * `view` with its images prepared for the request. The codec module is loaded only when the
   * view carries an image, so a turn without images never loads it.
   */
  async #prepared(view: readonly Message[]): Promise<readonly Message[]> {
    const policy = this.deps.imagePrep;
    if (policy === null || inlineImages(view) === 0) return view;
    const { prepareView } = await lazyImport<typeof import("./image_prep.ts")>(
      "lib/core/image_prep.ts",
    );
    const prepared = await prepareView(view, policy, this.#preparedImages);
    const newlyDropped = prepared.dropped > this.#droppedImages;
    if (prepared.failures.length || newlyDropped) {
      imagesUnprepared(this.deps.journal, {
        dropped: newlyDropped ? prepared.dropped : 0,
        maxImages: policy.maxImages,
        failures: prepared.failures,
      });
    }
    this.#droppedImages = prepared.dropped;
    return prepared.messages;
  }

  /** Runs the reply's calls in order, appending each result, then any images as one turn. */
  async #dispatch(reply: Message): Promise<ToolRun[]> {
    const runs: ToolRun[] = [];
    const images: ImageContent[] = [];
    for (const call of reply.toolCalls ?? []) {
      const run = await runToolCall(call, {
        registry: this.engine.registry,
        builtins: this.deps.builtins,
        journal: this.deps.journal,
        now: this.deps.now,
        signal: this.options.signal,
      });
      runs.push(run);
      // Taken from the call itself: providers reuse call ids across steps, so looking an id up
      // in the transcript afterwards could find another step's call.
      const action = call.arguments?.action;
      this.#calls.push({
        name: run.name,
        callId: run.callId,
        outcome: run.outcome,
        ...(typeof action === "string" ? { action } : {}),
        ...(run.error === undefined ? {} : { error: run.error }),
      });
      this.messages.push(Message.tool(call.id, run.text));
      await this.#progress();
      images.push(...run.images);
    }
    // One turn after every result: a user turn spliced between two results is a provider 400.
    if (images.length) {
      const turn = imageTurn(
        images,
        await this.#sees(),
        this.deps.journal,
        this.engine.provider.model ?? "unknown",
      );
      this.messages.push(turn);
      if (turn.images) this.#shown.push(turn);
      await this.#progress();
    }
    return runs;
  }

  /** Every hook observes the step; if the turn is ending, the first hook to extend wins. */
  async #consultHooks(step: number, reply: Message, toolRuns: ToolRun[]): Promise<boolean> {
    let appended = false;
    const context: StepContext = {
      step,
      maxSteps: this.engine.maxSteps,
      reply,
      toolRuns,
      messages: this.messages,
      append: (message) => {
        this.messages.push(message);
        appended = true;
      },
    };
    for (const hook of this.deps.hooks) await hook.afterStep?.(context);
    let extended = false;
    if (!reply.toolCalls?.length) {
      for (const hook of this.deps.hooks) {
        if (hook.beforeFinish && await hook.beforeFinish(context)) {
          extended = true;
          break;
        }
      }
    }
    if (appended) await this.#progress();
    return extended;
  }

  /**
   * A reply the model refused or the limit cut ends the run as it stands: its tool calls are
   * never run (a refusal is a hand-off, a cut reply a partial plan) and no hook may extend it.
   * The reply is kept in the transcript without them, so the next load has no dangling call.
   */
  async #handOff(step: number, started: Date, reply: Message): Promise<EngineResult> {
    const kept: Message = { ...reply };
    delete kept.toolCalls;
    this.messages.push(kept);
    await this.#progress();
    if (reply.cutCall) replyCut(this.deps.journal, { step, resumed: false });
    stepLine(this.deps.journal, {
      step,
      maxSteps: this.engine.maxSteps,
      tools: [],
      hookContinue: false,
      seconds: seconds(started, this.deps.now()),
    });
    return this.#result(kept, reply.ending === "refused" ? "refused" : "truncated");
  }

  /**
   * The budget is spent with the model still calling tools: one tool-less call for the model's
   * own progress report. Only a clean text-only turn is kept — a dangling tool-call turn with no
   * results would poison the next load.
   */
  async #reserve(): Promise<EngineResult> {
    const max = this.engine.maxSteps;
    this.messages.push(Message.system(RESERVE_NUDGE));
    let reply: Message;
    try {
      reply = await this.#chat(undefined);
    } catch (error) {
      const message = errorMessage(error);
      this.deps.journal.text(
        "WARNING",
        `Reserve summary call failed after the step budget was spent: ${message}`,
      );
      throw new EngineError(
        `Step budget of ${max} spent and the reserve summary call failed: ${message}`,
        { cause: error },
      );
    }
    const text = reply.content ?? "";
    if (!text.trim()) {
      this.deps.journal.text(
        "WARNING",
        "Reserve summary produced no text; falling back to the canned note.",
      );
      throw new EngineError(
        `Step budget of ${max} spent and the reserve summary produced no text.`,
      );
    }
    const summary = Message.assistant({ content: text, usage: reply.usage });
    this.messages.push(summary);
    await this.#progress();
    return this.#result(summary, "reserve");
  }

  /** A save after work already happened: failing it cannot undo the work, so it never ends the turn. */
  async #progress(): Promise<void> {
    if (!this.options.persist) return;
    try {
      await this.options.persist();
    } catch (error) {
      const message = errorMessage(error);
      this.deps.journal.text(
        "ERROR",
        `Could not persist a turn in progress; some of its work may be lost: ${message}`,
      );
    }
  }

  /** Whether images may be shown: asked once per run, failing open. */
  async #sees(): Promise<boolean | undefined> {
    if (!this.#visionKnown) {
      this.#visionKnown = true;
      if (this.deps.vision !== undefined) {
        this.#vision = this.deps.vision;
      } else {
        try {
          this.#vision = await this.engine.provider.supportsVision?.();
        } catch {
          this.#vision = undefined; // an unanswerable capability shows the image (fail open)
        }
      }
    }
    return this.#vision;
  }

  #tally(reply: Message): void {
    const usage = reply.usage;
    this.#usage.calls++;
    if (!usage) return;
    this.#usage.tokensIn += usage.tokensIn ?? 0;
    this.#usage.tokensOut += usage.tokensOut ?? 0;
    this.#usage.tokensTotal += usage.tokensTotal ?? 0;
    this.#usage.cachedTokens += usage.cachedTokens ?? 0;
    if (usage.cacheWriteTokens !== undefined) {
      this.#usage.cacheWriteTokens = (this.#usage.cacheWriteTokens ?? 0) + usage.cacheWriteTokens;
    }
    if (typeof usage.cost === "number" && Number.isFinite(usage.cost)) {
      this.#usage.cost = (this.#usage.cost ?? 0) + usage.cost;
    }
  }

  #result(reply: Message, kind: UnspokenKind): EngineResult {
    return {
      text: reply.content ?? "",
      kind,
      reply,
      steps: this.#stepsUsed,
      maxSteps: this.engine.maxSteps,
      toolCalls: [...this.#calls],
      usage: { ...this.#usage },
    };
  }
}

/** How many inline images `view` carries. */
function inlineImages(view: readonly Message[]): number {
  return view.reduce((n, message) => n + (message.images?.length ?? 0), 0);
}

/** `view` with every inline image replaced by a short note in its turn's text. */
function withoutImages(view: readonly Message[]): Message[] {
  return view.map((message) => {
    if (!message.images?.length) return message;
    const notes = message.images.map((image) =>
      `(Image omitted from this request: ${
        image.alt || "image"
      } — the request was too large with it inline.)`
    );
    const { images: _images, ...rest } = message;
    return { ...rest, content: [message.content ?? "", ...notes].filter(Boolean).join("\n") };
  });
}

/** Elapsed seconds, never negative (a clock stepping back must not print `-0.01s`). */
function seconds(from: Date, to: Date): number {
  return Math.max(0, (to.getTime() - from.getTime()) / 1000);
}
