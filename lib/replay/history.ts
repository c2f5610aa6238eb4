/**
 * The conversation a recorded turn read, rebuilt for `harness replay --with-history`
 * (docs/records.md#replaying-with-history): the messages before the turn's user message, taken
 * from the timeline's transcript and proven to be the ones the model read (count and sha256 of
 * their saved form, as the record keeps them), and the recalled memory and working-state block
 * the record kept. Today's memory and notes are never read.
 */
import { measureHistory } from "../core/transcript/history.ts";
import { FileSessionStore } from "../core/transcript/session.ts";
import type { Message } from "../core/types/message.ts";
import type { TurnRecord } from "../home/records/schema.ts";
import { scrubSecrets } from "../journal/scrub.ts";
import { join } from "../base/paths.ts";
import type * as z from "../base/zod.ts";
import type { HistorySchema } from "./report.ts";

/** What the replayed turn reads besides its own user turn. */
export interface RebuiltHistory {
  /** The transcript's messages before the turn, as loaded (caps and healing applied). */
  readonly messages: readonly Message[];
  /** The recalled memory the turn's brief carried; undefined: none. */
  readonly memory?: string;
  /** The working-state block the turn's request carried; undefined: none. */
  readonly workingState?: string;
  /** What the report says was used. */
  readonly used: HistoryUsed;
}

/** The history a replayed turn used, as the report states it. */
export type HistoryUsed = z.infer<typeof HistorySchema>;

/** Why a turn's history cannot be rebuilt; the message names what is missing and the fix. */
export class HistoryUnavailable extends Error {
  override name = "HistoryUnavailable";
}

/** The fix every refusal ends with. */
const FIX = "replay this turn without --with-history (its own user turn only)";

/** Transcripts already read in one run, by source: a timeline's file is read once. */
export class TranscriptCache {
  readonly #store: FileSessionStore;
  readonly #loaded = new Map<string, Promise<Message[]>>();

  /** Reads transcripts under `<home>/sessions/`. */
  constructor(home: string) {
    this.#store = new FileSessionStore(join(home, "sessions"));
  }

  /** The transcript file of `source`. */
  pathFor(source: string): string {
    return this.#store.pathFor(source);
  }

  /** `source`'s transcript as a wake would load it ([] when there is none). */
  load(source: string): Promise<Message[]> {
    let found = this.#loaded.get(source);
    if (!found) {
      found = this.#store.load(source);
      this.#loaded.set(source, found);
    }
    return found;
  }
}

/**
 * The history `record` read, from `transcripts`.
 * @throws {HistoryUnavailable} when the record keeps no history measure, or the transcript no
 * longer holds the messages it measured (pruned, compacted or edited since).
 */
export async function rebuildHistory(
  record: TurnRecord,
  transcripts: TranscriptCache,
): Promise<RebuiltHistory> {
  const context = record.history;
  if (context === undefined) {
    throw new HistoryUnavailable(
      "the record keeps no history (written before records measured it, or the turn failed " +
        `before its request was built): ${FIX}`,
    );
  }
  const path = transcripts.pathFor(record.source);
  let transcript: Message[];
  try {
    transcript = await transcripts.load(record.source);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new HistoryUnavailable(`the transcript ${path} cannot be read (${why}): ${FIX}`);
  }
  const wanted = context.history_messages;
  const turn = transcript[wanted];
  const holdsTurn = turn !== undefined && turn.role === "user" && !turn.injected &&
    scrubSecrets(turn.content ?? "") === record.inbound?.text;
  if (!holdsTurn) {
    throw new HistoryUnavailable(
      `the transcript ${path} no longer holds this turn: the record needs its ${wanted} ` +
        `earlier message(s) (${context.history_turns} user turn(s)) followed by the turn's own ` +
        `user message, and the transcript has ${transcript.length} message(s) without it there ` +
        `(compacted, pruned or removed since the turn): ${FIX}`,
    );
  }
  const messages = transcript.slice(0, wanted);
  const measured = await measureHistory(messages);
  if (measured.sha256 !== context.history_sha256) {
    throw new HistoryUnavailable(
      `the transcript ${path} holds ${wanted} message(s) before this turn, but not the ones it ` +
        `read (sha256 ${measured.sha256.slice(0, 12)}…, recorded ` +
        `${context.history_sha256.slice(0, 12)}…: compacted or edited since): ${FIX}`,
    );
  }
  const bytes = (text: string | undefined) => new TextEncoder().encode(text ?? "").length;
  return {
    messages,
    memory: context.memory,
    workingState: context.working_state,
    used: {
      messages: measured.messages,
      turns: measured.turns,
      bytes: measured.bytes,
      sha256: measured.sha256,
      memory_bytes: bytes(context.memory),
      working_state_bytes: bytes(context.working_state),
    },
  };
}
