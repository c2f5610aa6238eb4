/**
 * The pure half of compaction (docs/context.md#the-context-budget): measuring a transcript,
 * choosing where it may be cut, rendering the doomed region for the summarizer, and the summary
 * turn that replaces it.
 *
 * The one correctness rule: the kept tail starts at a real (not injected) `user` turn. A `tool`
 * result only ever follows the assistant turn that called it, so a tail opening on a user turn can
 * never strand a result from its call, and an injected turn (an image caption, a withheld-image
 * note) is part of a turn's work, never the start of a conversation turn. When no such cut exists
 * the caller declines rather than write a transcript it cannot prove well-formed.
 */
import { codePointLength } from "../../base/code_points.ts";
import type { Message } from "../types/message.ts";
import { jsonSize } from "../../pycompat/json.ts";

import { isSummary, SUMMARY_MARKER } from "../types/summary_marker.ts";

/** Whether the kept tail may begin at `message`: only a real peer (`user`, not injected) turn. */
export function isBoundary(message: Message): boolean {
  return message.role === "user" && !message.injected;
}

/**
 * One message's size in characters: its text plus each call's name and JSON arguments. Images
 * are not counted: they are evicted after the turn that showed them, so no later wake replays them.
 */
export function messageChars(message: Message): number {
  let total = codePointLength(message.content ?? "");
  for (const call of message.toolCalls ?? []) {
    total += codePointLength(call.name) + jsonSize(call.arguments);
  }
  return total;
}

/** A transcript's size in characters. */
export function transcriptChars(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += messageChars(message);
  return total;
}

/**
 * Where the conversation starts: past the leading system turns that are a charter. A previous
 * summary is conversation, not charter, so it falls inside the next dropped region and is folded
 * into the new summary — that is what keeps summaries cumulative instead of a growing pile.
 */
export function preludeEnd(messages: readonly Message[]): number {
  let index = 0;
  while (
    index < messages.length && messages[index].role === "system" && !isSummary(messages[index])
  ) index++;
  return index;
}

/**
 * The index the kept tail starts at, or `undefined` when there is no safe cut. Walking back from
 * the end, the earliest boundary whose tail fits `keepChars` wins, so as much conversation as the
 * budget allows stays verbatim; the newest boundary is kept even when it alone overruns the budget
 * (the current turn is not optional). A cut at or before `head` would drop nothing.
 */
export function cutIndex(
  messages: readonly Message[],
  head: number,
  keepChars: number,
): number | undefined {
  let chosen: number | undefined;
  let tail = 0;
  for (let index = messages.length - 1; index >= head; index--) {
    tail += messageChars(messages[index]);
    if (!isBoundary(messages[index])) continue;
    // The newest boundary is the floor; an older one replaces it while the tail still fits.
    if (chosen === undefined || tail <= keepChars) chosen = index;
  }
  return chosen !== undefined && chosen > head ? chosen : undefined;
}

/**
 * The region as plain text for the summarizer: `### <role>[ → called: a, b]\n<content>` blocks.
 * Rendering (rather than replaying messages) means no call ever travels without its result, and
 * the tool names ride along because the summary must record the work, not only the talk.
 */
export function renderRegion(messages: readonly Message[]): string {
  return messages.map((message) => {
    let header: string = message.role;
    if (message.toolCalls?.length) {
      header += " → called: " + message.toolCalls.map((call) => call.name).join(", ");
    }
    return `### ${header}\n${(message.content ?? "").trim()}`;
  }).join("\n\n");
}

/** The system turn that replaces `dropped` messages: the marker, a plain note, then the summary. */
export function summaryText(dropped: number, summary: string): string {
  return `${SUMMARY_MARKER}: ${dropped} messages replaced by these notes, so this conversation ` +
    "stays inside the model's context window. The detail is gone; what follows is what was " +
    `kept.]\n\n${summary}`;
}

/**
 * Every platform item uuid the dropped messages carried, first-seen order, duplicates removed.
 * A carried summary's `items` are among them, so the record of destroyed turns is cumulative.
 */
export function droppedItems(dropped: readonly Message[]): string[] {
  const seen = new Set<string>();
  for (const message of dropped) {
    for (const uuid of message.items ?? []) seen.add(uuid);
  }
  return [...seen];
}

/**
 * Evidence release: keeps on each summary only the uuids `stillNeeded` says are unsettled. Returns
 * whether anything changed, so the caller persists only then. Edits `messages` in place.
 */
export function pruneSummaryItems(
  messages: Message[],
  stillNeeded: (uuid: string) => boolean,
): boolean {
  let changed = false;
  for (const message of messages) {
    if (!isSummary(message) || !message.items?.length) continue;
    const kept = message.items.filter(stillNeeded);
    if (kept.length === message.items.length) continue;
    changed = true;
    if (kept.length) message.items = kept;
    else delete message.items;
  }
  return changed;
}
