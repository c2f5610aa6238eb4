/**
 * The compactor (docs/context.md#the-context-budget; invariant 5 of docs/invariants.md): after a
 * turn settles, if the provider's own reported input for the last call crossed half the ceiling,
 * the older part of the transcript is replaced by one summary the model writes in a single
 * tool-less call. The newest part stays verbatim.
 *
 * The summary is cumulative — a previous summary is part of the next dropped region and is handed
 * to the summarizer first and whole — and it carries, as `items`, every platform item uuid whose
 * turn it destroyed, so the recovery can still tell that a message was handled. It is also handed
 * to `onSummary` (the wake routes it to memory) so the work outlives the turns that carried it.
 * Nothing here ever fails a turn: a failed summary leaves the transcript exactly as it was.
 */

import { namedError } from "../../base/error_text.ts";
import { contextCompact, contextHandoff } from "../../journal/catalogue_context.ts";
import { type Journal, silentJournal } from "../../journal/journal.ts";
import { codePointLength, tailCodePoints } from "../../base/code_points.ts";
import {
  cutIndex,
  droppedItems,
  isBoundary,
  preludeEnd,
  renderRegion,
  summaryText,
  transcriptChars,
} from "./cut.ts";
import { isSummary } from "../types/summary_marker.ts";
import {
  type ContextCeiling,
  EMERGENCY_KEEP_RATIO,
  KEEP_FRACTION,
  PESSIMISTIC_CHARS_PER_TOKEN,
  providerTokensIn,
  SUMMARY_INPUT_FRACTION,
} from "./context_ceiling.ts";
import { Message } from "../types/message.ts";
import type { Provider } from "../types/provider.ts";
import { loggedChat, realSleep, type Sleep } from "../retry.ts";

/**
 * The summarizer's word on the working-state notes: they outlive the compaction on their own, so
 * they are reconciled, not copied (docs/context.md#the-working-state-block).
 */
export const NOTES_ARE_KEPT: string =
  "Your notes (written with note_write) are kept apart from this transcript and shown to you " +
  "again after it is compacted: do not copy them into these notes. Reconcile instead: where the " +
  "excerpt shows a note went stale or a task status changed, say so under OPEN THREADS, so you " +
  "update or delete that note next.";

/**
 * What the summarizer is asked for: notes to its future self, the work first, because tool results
 * vanish with the excerpt and a tool action nobody writes down leaves no trace at all.
 */
export const SUMMARIZE_INSTRUCTION: string =
  "Part of your own conversation transcript is about to be deleted to keep it inside your " +
  "context window; the notes you write now replace it. Write them for yourself, in the first " +
  "person, short and factual, under three headings:\n\n" +
  "1. WORK DONE — what you actually did: the tools you used and what came of each; anything " +
  "you created, posted, changed or failed at, with its uuid, URL or path.\n" +
  "2. WHAT WAS SAID — who said what, what was agreed, what was promised and to whom.\n" +
  "3. OPEN THREADS — what is still unfinished, what you owe anyone, what you meant to do next.\n\n" +
  "If the excerpt opens with notes from an earlier compaction, fold them in: your notes must " +
  "cover everything, the earlier notes included, because they will be deleted too. Copy " +
  "identifiers (uuids, URLs, handles, numbers) exactly. Do not guess, do not pad, and do not " +
  "address anyone — this is not a message. Whatever you leave out is forgotten.\n\n" +
  NOTES_ARE_KEPT;

/** How the user half of the summarize call opens. */
export const EXCERPT_HEADER = "The excerpt to compact (oldest first):\n\n";

/** How a compactor is built. */
export interface CompactorOptions {
  /** Where the `context compact` line and the WARNINGs go. */
  readonly journal?: Journal;
  /**
   * Receives each summary the moment it is spliced in, so the wake can write it to memory. A
   * failure is a WARNING and never undoes the compaction.
   */
  readonly onSummary?: (summary: string) => void | Promise<void>;
  /** The clock for the summarize call's `llm` line. */
  readonly now?: () => Date;
  /**
   * Extra attempts for a transient fault of the summarize call (`HARNESS_RESPONSE_RETRIES`, as
   * for the turn's own calls); default none.
   */
  readonly retries?: number;
  /** Waits out the retry backoff (tests pass a fake). */
  readonly sleep?: Sleep;
}

/** Keeps a transcript under its context ceiling by summarizing the oldest part of it. */
export class Compactor {
  /** The model that writes the summaries (called with no tools). */
  readonly provider: Provider;
  /** The ceiling and threshold. */
  readonly ceiling: ContextCeiling;
  readonly #journal: Journal;
  readonly #onSummary?: (summary: string) => void | Promise<void>;
  readonly #now: () => Date;
  readonly #retries: number;
  readonly #sleep: Sleep;

  /** A compactor summarizing with `provider` against `ceiling`. */
  constructor(provider: Provider, ceiling: ContextCeiling, options: CompactorOptions = {}) {
    this.provider = provider;
    this.ceiling = ceiling;
    this.#journal = options.journal ?? silentJournal;
    this.#onSummary = options.onSummary;
    this.#now = options.now ?? (() => new Date());
    this.#retries = options.retries ?? 0;
    this.#sleep = options.sleep ?? realSleep;
  }

  /** False when the operator switched compaction off (`HARNESS_MAX_CONTEXT_TOKENS=0`). */
  get enabled(): boolean {
    return this.ceiling.enabled;
  }

  /**
   * Compacts `messages` in place when the provider's last reported input crossed the threshold.
   * Call it right after the turn settles, before anything else talks to the provider, so
   * `lastTokensIn` is this transcript's own last call. Returns whether the transcript changed.
   */
  async maybeCompact(messages: Message[]): Promise<boolean> {
    const tokensIn = providerTokensIn(this.provider);
    if (!await this.ceiling.shouldCompact(tokensIn)) return false;
    // Calibrated against the call just made, so no tokenizer is needed. `tokensIn` also covers
    // the brief and the tool schemas, which the transcript lacks: the ratio errs low, and the
    // kept tail small, which is the safe direction.
    const charsPerToken = transcriptChars(messages) / tokensIn!;
    return await this.#compact(messages, charsPerToken, tokensIn);
  }

  /**
   * Compacts a transcript the provider has just refused as too long: pessimistic chars per token,
   * and the tail capped at a quarter of what is there, because the provider's word beats our
   * estimate. Returns whether it changed anything (`false` when disabled or no safe cut exists).
   */
  async emergencyCompact(messages: Message[]): Promise<boolean> {
    if (!this.enabled) {
      this.#journal.text(
        "WARNING",
        "Context overflow, but compaction is disabled (HARNESS_MAX_CONTEXT_TOKENS=0): the " +
          "transcript is left exactly as it is and the error stands.",
      );
      return false;
    }
    this.#journal.text(
      "WARNING",
      "context overflow: the last request exceeded the model's context window — compacting the " +
        "transcript hard, on pessimistic assumptions, so it fits again.",
    );
    return await this.#compact(messages, PESSIMISTIC_CHARS_PER_TOKEN, undefined);
  }

  /**
   * The after-turn step for a host: {@link maybeCompact}, then `save` when the transcript changed.
   * Never throws — a compaction that fails costs a WARNING, never the turn already in hand.
   */
  async afterTurn(messages: Message[], save?: () => Promise<void> | void): Promise<boolean> {
    try {
      if (!await this.maybeCompact(messages)) return false;
      await save?.();
      return true;
    } catch (error) {
      this.#journal.text("WARNING", `Context compaction failed: ${namedError(error)}`);
      return false;
    }
  }

  /**
   * The model's own handoff (docs/context.md#handoff-the-summarize-tool): the conversation
   * between the charter and `cut` — a real user turn, the current turn's start — is replaced by
   * one summary turn carrying `summary`, exactly as a compaction would write it (the dropped
   * items kept, the summary handed to memory), but without a summarization call. Returns whether
   * anything was replaced; never when compaction is switched off, or nothing precedes `cut`.
   */
  async handoff(messages: Message[], cut: number, summary: string): Promise<boolean> {
    if (!this.enabled) return false;
    const head = preludeEnd(messages);
    if (cut <= head || cut >= messages.length || !isBoundary(messages[cut])) return false;
    const beforeCount = messages.length;
    const beforeChars = transcriptChars(messages);
    const dropped = messages.slice(head, cut);
    const note = Message.system(summaryText(dropped.length, summary));
    const items = droppedItems(dropped);
    if (items.length) note.items = items;
    messages.splice(head, cut - head, note);
    await this.#remember(summary);
    contextHandoff(this.#journal, {
      messagesBefore: beforeCount,
      messagesAfter: messages.length,
      charsBefore: beforeChars,
      charsAfter: transcriptChars(messages),
      summarized: dropped.length,
    });
    return true;
  }

  async #compact(
    messages: Message[],
    charsPerToken: number,
    tokensIn: number | undefined,
  ): Promise<boolean> {
    const emergency = tokensIn === undefined;
    const limit = await this.ceiling.limit();
    const beforeChars = transcriptChars(messages);
    let keepChars = Math.trunc(limit.tokens * KEEP_FRACTION * charsPerToken);
    if (emergency) keepChars = Math.min(keepChars, Math.trunc(beforeChars * EMERGENCY_KEEP_RATIO));
    const head = preludeEnd(messages);
    const cut = cutIndex(messages, head, keepChars);
    if (cut === undefined) {
      this.#journal.text(
        "WARNING",
        `Context compaction declined: no safe cut point in the transcript (${messages.length} ` +
          "messages). The transcript is unchanged.",
      );
      return false;
    }
    const dropped = messages.slice(head, cut);
    const summary = await this.#summarize(dropped, limit.tokens, charsPerToken);
    if (summary === undefined) return false;
    const beforeCount = messages.length;
    const note = Message.system(summaryText(dropped.length, summary));
    const items = droppedItems(dropped);
    if (items.length) note.items = items;
    messages.splice(head, cut - head, note);
    await this.#remember(summary);
    contextCompact(this.#journal, {
      tokensIn,
      limit: limit.tokens,
      source: limit.source,
      threshold: await this.ceiling.threshold(),
      messagesBefore: beforeCount,
      messagesAfter: messages.length,
      charsBefore: beforeChars,
      charsAfter: transcriptChars(messages),
      summarized: dropped.length,
      emergency,
    });
    return true;
  }

  /**
   * One tool-less model call over the rendered region; `undefined` (after a WARNING) when it failed
   * or wrote nothing. The call runs against the same ceiling, so its input is bounded: the carried
   * summary goes first and whole (it stands for everything before it), and if the rest does not
   * fit, its oldest part is cut, loudly, because that part is lost unsummarized.
   */
  async #summarize(
    dropped: readonly Message[],
    limit: number,
    charsPerToken: number,
  ): Promise<string | undefined> {
    const carried = renderRegion(dropped.filter(isSummary));
    let excerpt = renderRegion(dropped.filter((message) => !isSummary(message)));
    const allowance = Math.trunc(limit * SUMMARY_INPUT_FRACTION * charsPerToken);
    const room = Math.max(0, allowance - codePointLength(carried));
    const size = codePointLength(excerpt);
    if (size > room) {
      const cut = size - room;
      this.#journal.text(
        "WARNING",
        `Context compaction: ${cut} characters of the oldest conversation did not fit in one ` +
          "summarization call and are dropped unsummarized.",
      );
      excerpt = `[${cut} characters of the oldest conversation in this excerpt did not fit in ` +
        `one summarization call and are gone, unsummarized.]\n\n${tailCodePoints(excerpt, room)}`;
    }
    const region = [carried, excerpt].filter((part) => part).join("\n\n");
    let reply: Message;
    try {
      reply = await loggedChat(
        this.provider,
        [Message.system(SUMMARIZE_INSTRUCTION), Message.user(EXCERPT_HEADER + region)],
        undefined,
        { retries: this.#retries, sleep: this.#sleep, journal: this.#journal, now: this.#now },
      );
    } catch (error) {
      this.#journal.text(
        "WARNING",
        `Context compaction failed: the summarization call errored: ${namedError(error)}`,
      );
      return undefined;
    }
    const summary = (reply.content ?? "").trim();
    if (!summary) {
      this.#journal.text(
        "WARNING",
        "Context compaction failed: the summarization call produced no text.",
      );
      return undefined;
    }
    return summary;
  }

  async #remember(summary: string): Promise<void> {
    if (!this.#onSummary) return;
    try {
      await this.#onSummary(summary);
    } catch (error) {
      this.#journal.text(
        "WARNING",
        `Could not write the compaction summary to memory: ${namedError(error)}`,
      );
    }
  }
}

/**
 * The user text a memory provider without a store is `observe`d with, alongside the summary as the
 * assistant text (docs/context.md#the-context-budget), so a mining provider files the summary as
 * this agent's own work.
 */
export const COMPACTION_OBSERVE_TEXT: string =
  "[Context compaction] Summarize the work and conversation " +
  "about to be dropped from my transcript, so it survives in memory.";

/** The memory key a store-backed provider writes a summary under: `compaction/<source>/<UTC>`. */
export function compactionMemoryKey(source: string, at: Date): string {
  return `compaction/${source}/${at.toISOString().slice(0, 19)}Z`;
}
