/**
 * Reading the timeline for poll mode: the first poll's backlog window (seeded as context, never
 * answered) and, after that, what arrived since the high-water mark. The mark lives in memory
 * only — poll mode keeps nothing on disk (docs/poll.md).
 */
import { Message } from "../core/types/message.ts";
import type { Message as PlatformMessage, PlatformClient } from "../platform/mod.ts";
import { messageLine } from "../runtime/item_text.ts";

/** `HARNESS_CONTEXT_MESSAGES`: how many backlog messages to seed, or `"all"`. */
export type ContextWindow = number | "all";

/** The high-water mark: the newest message the agent has already taken in. */
export interface Mark {
  /** The message's uuid. */
  readonly uuid: string;
  /** Its timestamp, so a deleted mark cannot make the whole history look new. */
  readonly createdAt: string;
}

/** What the first poll read. */
export interface Backlog {
  /** The seeded context, oldest first (own posts as assistant turns). */
  readonly turns: Message[];
  /** How many messages were seeded. */
  readonly seeded: number;
  /** The true newest message, whatever the window; undefined on an empty timeline. */
  readonly mark: Mark | undefined;
}

/**
 * Reads the newest `window` messages (at least one, so the mark is primed to the true newest
 * even when nothing is seeded) and renders the seedable ones as turns, oldest first.
 */
export async function readBacklog(
  client: PlatformClient,
  timeline: string,
  window: ContextWindow,
  self: string,
): Promise<Backlog> {
  const limit = window === "all" ? undefined : Math.max(1, window);
  const recent = await client.messages.list({ timeline, limit }).toArray();
  const seed = window === "all" ? recent : recent.slice(0, window);
  const turns = [...seed].reverse().map((m) => asTurn(m, self));
  return { turns, seeded: seed.length, mark: recent[0] && markOf(recent[0]) };
}

/**
 * Messages newer than `mark`, oldest first. The walk stops at the mark, or at the first message
 * older than it (the mark was deleted), so history is never mistaken for news.
 */
export async function readSince(
  client: PlatformClient,
  timeline: string,
  mark: Mark | undefined,
): Promise<PlatformMessage[]> {
  const floor = mark ? Date.parse(mark.createdAt) : Number.NEGATIVE_INFINITY;
  const fresh: PlatformMessage[] = [];
  for await (const m of client.messages.list({ timeline, until: mark?.uuid })) {
    if (Date.parse(m.created_at) < floor) break;
    fresh.push(m);
  }
  return fresh.reverse();
}

/** The mark a message sets. */
export function markOf(message: PlatformMessage): Mark {
  return { uuid: message.content.uuid, createdAt: message.created_at };
}

/** A backlog message as a turn: the agent's own post as it said it, a peer's as it is heard. */
export function asTurn(message: PlatformMessage, self: string): Message {
  return message.user.uuid === self
    ? Message.assistant({ content: message.content.body })
    : Message.user(messageLine(message));
}
