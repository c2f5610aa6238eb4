/**
 * The over-length self-heal (docs/context.md#the-context-budget). A transcript already past the
 * model's wall fails before any usage is reported, so the after-turn trigger can never fire, and
 * every later wake would rebuild the same refused request. On `ProviderContextLengthError` the
 * turn's own work is rewound, the transcript is compacted hard, and the turn runs once more.
 *
 * Never after a tool ran: rewinding would erase the record that it ran, and the re-run could post
 * the same message or create the same task twice. Then the work stays, the transcript is still
 * compacted (so the next wake fits) and the error goes on to the wake, which reports it.
 */
import type { Journal } from "../../journal/journal.ts";
import type { Compactor } from "./compaction.ts";
import { ProviderContextLengthError } from "../types/faults.ts";
import type { ImageContent, Message } from "../types/message.ts";

/** What the heal works on besides the turn itself. */
export interface OverflowHealOptions {
  /** Does the hard compaction; its budget says whether compaction is on at all. */
  readonly compactor: Compactor;
  /** The live transcript the turn appends to (edited in place). */
  readonly messages: Message[];
  /**
   * The user turn being answered, whose pixels are restored for the retry (the engine may have
   * shown them already). Defaults to the last message before the attempt when it is a real user
   * turn; a resumed turn has none to restore.
   */
  readonly turn?: Message;
  /** Writes the transcript after a compaction (awaited; a failure propagates). */
  readonly save?: () => Promise<void> | void;
  /** Where the WARNINGs go (the compactor logs its own lines). */
  readonly journal: Journal;
}

/**
 * Runs `runTurn` (one engine run over `options.messages`); on an overflow before any tool ran,
 * rewinds the attempt's work, emergency-compacts, saves and runs it exactly once more. A second
 * overflow, an overflow after a tool ran, a compaction that could not cut, and every other error
 * propagate unchanged. `runTurn` gets the attempt number (1 or 2); a compaction moves messages, so
 * it must find its turn by identity, never by an index taken before the first attempt.
 */
export async function withOverflowHeal<T>(
  runTurn: (attempt: number) => Promise<T>,
  options: OverflowHealOptions,
): Promise<T> {
  const { messages, journal } = options;
  const mark = messages.length; // everything past here is this attempt's work
  const turn = options.turn ?? defaultTurn(messages, mark);
  const pixels: ImageContent[] | undefined = turn?.images?.map((image) => ({ ...image }));
  try {
    return await runTurn(1);
  } catch (error) {
    if (!(error instanceof ProviderContextLengthError)) throw error;
    if (!await recover(error, options, mark, turn, pixels)) throw error;
    journal.text(
      "WARNING",
      `Retrying the turn once against the compacted transcript: ${error.message}`,
    );
    return await runTurn(2);
  }
}

/** Rewinds and compacts; true when a retry is worth making. */
async function recover(
  error: ProviderContextLengthError,
  options: OverflowHealOptions,
  mark: number,
  turn: Message | undefined,
  pixels: ImageContent[] | undefined,
): Promise<boolean> {
  const { messages, compactor, journal } = options;
  if (!compactor.enabled) {
    // "Off" means off: the operator manages this context, so nothing is rewritten behind them.
    await compactor.emergencyCompact(messages);
    return false;
  }
  // A `tool` turn is evidence a tool ran; so is an injected turn (a server-side built-in's
  // artifact note, an image a tool produced), which leaves no `tool` turn of its own.
  const ran = messages.slice(mark).filter((m) => m.role === "tool" || m.injected).length;
  if (ran) {
    journal.text(
      "WARNING",
      `Context overflow after ${ran} tool call(s) had already run: the turn is NOT retried (a ` +
        `re-run could repeat their side effects); compacting for the next wake. ` +
        `(${error.message})`,
    );
    if (await compactor.emergencyCompact(messages)) await options.save?.();
    return false;
  }
  messages.splice(mark); // only inert residue: step counters, a reply that never came
  if (turn && pixels?.length && messages.includes(turn)) turn.images = pixels;
  if (!await compactor.emergencyCompact(messages)) return false;
  await options.save?.();
  return true;
}

/** The real user turn the attempt answers, when it is the message just before the attempt. */
function defaultTurn(messages: readonly Message[], mark: number): Message | undefined {
  const last = messages[mark - 1];
  return last && last.role === "user" && !last.injected ? last : undefined;
}
