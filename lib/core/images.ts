/**
 * Tool images as model input. A function-tool result is text-only on every provider, so
 * pictures enter as one injected `user` turn after all of a step's results — or, for a model
 * that definitely cannot see, as an honest note in their place. Pixels are evicted when the run
 * ends so a viewed image is never re-sent (and re-billed) on later turns
 * (docs/invariants.md#5-nothing-replayed-per-wake-is-unbounded).
 */
import { imageWithheld } from "../journal/catalogue_engine.ts";
import type { Journal } from "../journal/journal.ts";
import { type ImageContent, Message } from "./types/message.ts";

/** `(Showing image: a, b)`, the shown turn's caption and the breadcrumb left after eviction. */
export function showingCaption(images: readonly ImageContent[]): string {
  return `(Showing image: ${images.map((i) => i.alt || "image").join(", ")})`;
}

/** The stand-in a no-vision model reads instead of pixels. */
export function withheldCaption(images: readonly ImageContent[]): string {
  const names = images.map((i) => i.alt || "file").join(", ");
  return `(No image input on this model — ${names} was described above, not shown.)`;
}

/**
 * The injected turn for `images`: with pixels when `vision` is not a definite `false`, else the
 * withheld caption plus the WARNING that says the swap happened and to whom.
 */
export function imageTurn(
  images: readonly ImageContent[],
  vision: boolean | undefined,
  journal: Journal,
  model: string,
): Message {
  if (vision !== false) {
    const turn = Message.user(showingCaption(images), { injected: true });
    turn.images = images.map((i) => ({ ...i }));
    return turn;
  }
  imageWithheld(journal, { images: images.map((i) => i.alt || "image").join(", "), model });
  return Message.user(withheldCaption(images), { injected: true });
}

/** Drops the pixels from every turn in `turns`, keeping their captions. */
export function evictImages(turns: readonly Message[]): void {
  for (const turn of turns) delete turn.images;
}
