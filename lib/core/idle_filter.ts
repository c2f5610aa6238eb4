/**
 * The cold-start filter (docs/context.md#the-cold-start-filter): after a long idle the provider's
 * prompt cache is cold anyway, so a request may shorten what the model already read long ago —
 * old tool results, consumed on the turn they ran — at no caching cost. Request only: the saved
 * transcript, user input, the model's own turns and the current turn's results are unchanged.
 *
 * Which results are old is decided once (the results already in the transcript when the wake's
 * first turn began) and kept by identity, so every request of the wake shortens the same ones and
 * the wake's own requests still share their prefix with one another.
 */
import { codePointLength, headCodePoints } from "../base/code_points.ts";
import type { Message } from "./types/message.ts";

/** A result at or under this many characters is left whole: shortening it would save little. */
export const COLD_MIN_CHARS = 600;
/** How much of a shortened result's head is kept. */
export const COLD_KEEP_CHARS = 240;

/** The marker that replaces the rest of a shortened result; `n` is the characters left out. */
export function coldMarker(omitted: number): string {
  return `\n[… ${omitted} more characters of this old tool result are left out of this ` +
    "request: you read them in full when the tool ran, a long while ago; call the tool again " +
    "if you need them now.]";
}

/** What shortening gave. */
export interface ColdStartTally {
  /** Results shortened. */
  readonly shortened: number;
  /** Characters taken out, net of the markers. */
  readonly savedChars: number;
}

/** The filter for one wake: the old results chosen when it was built, shortened in each view. */
export class ColdStartFilter {
  readonly #old: WeakSet<Message>;
  readonly #short = new WeakMap<Message, Message>();
  /** What shortening the chosen results saves. */
  readonly tally: ColdStartTally;

  /** Chooses the `tool` results among `messages[0, boundary)` long enough to be worth it. */
  constructor(messages: readonly Message[], boundary: number) {
    this.#old = new WeakSet();
    let shortened = 0;
    let savedChars = 0;
    for (const message of messages.slice(0, boundary)) {
      if (message.role !== "tool") continue;
      const content = message.content ?? "";
      const size = codePointLength(content);
      if (size <= COLD_MIN_CHARS) continue;
      const short = headCodePoints(content, COLD_KEEP_CHARS) + coldMarker(size - COLD_KEEP_CHARS);
      this.#old.add(message);
      this.#short.set(message, { ...message, content: short });
      shortened++;
      savedChars += size - codePointLength(short);
    }
    this.tally = { shortened, savedChars };
  }

  /** `messages` with each chosen result replaced by its short copy (the input is not touched). */
  apply(messages: readonly Message[]): readonly Message[] {
    if (!this.tally.shortened) return messages;
    return messages.map((message) => this.#old.has(message) ? this.#short.get(message)! : message);
  }
}

/**
 * Whether a request after `idleSeconds` of silence is a cold start under `threshold` seconds
 * (`0` disables the filter; no recorded response is never cold: there is nothing to measure).
 */
export function isColdStart(idleSeconds: number | undefined, threshold: number): boolean {
  return threshold > 0 && idleSeconds !== undefined && idleSeconds > threshold;
}
