/**
 * The durable `SessionStore`: one transcript file per source under a directory, in the reference's
 * format and file names (`<dir>/<quote(source)>.json`), so a box can switch runtimes without losing
 * a conversation. Loading re-caps tool results and heals interrupted calls; saving applies both caps
 * and writes atomically. The live list handed to `save` is never modified.
 */
import { join } from "../../base/paths.ts";
import { type Journal, silentJournal } from "../../journal/journal.ts";
import { atomicWrite, type AtomicWriteOps, denoAtomicWriteOps } from "../../base/atomic_write.ts";
import { capForPersistence, capToolResults } from "./caps.ts";
import { healInterruptedCalls } from "./heal.ts";
import type { Message } from "../types/message.ts";
import { quote, unquote } from "../../pycompat/quote.ts";
import type { SessionStore } from "./session_store.ts";

/**
 * The on-disk format (and its zod schema) loads on the first read or write, so importing the
 * library, or a wake with nothing to do, does not pay for it.
 */
const transcriptFormat = () => import("./session_format.ts");

/** Options for `FileSessionStore`. */
export interface FileSessionStoreOptions {
  /** Where the healing WARNING goes; silent by default. */
  readonly journal?: Journal;
  /** The filesystem steps of the atomic write; tests inject failures here. */
  readonly writeOps?: AtomicWriteOps;
}

/** The WARNING a load logs when it healed `count` interrupted calls (monitors match its prefix). */
export function healedWarning(count: number): string {
  return `Loaded a transcript with ${count} interrupted tool call(s) — a wake was killed while ` +
    "they were running. Each is marked with its outcome unknown; none has been re-run.";
}

/** Transcripts as files, one per source, in the Python reference's format. */
export class FileSessionStore implements SessionStore {
  readonly #dir: string;
  readonly #journal: Journal;
  readonly #ops: AtomicWriteOps;

  /** Stores transcripts under `dir` (created on the first save). */
  constructor(dir: string, options: FileSessionStoreOptions = {}) {
    this.#dir = dir;
    this.#journal = options.journal ?? silentJournal;
    this.#ops = options.writeOps ?? denoAtomicWriteOps;
  }

  /** The file holding `source`'s transcript. */
  pathFor(source: string): string {
    return join(this.#dir, `${quote(source)}.json`);
  }

  /**
   * The transcript, results re-capped (an old uncapped file heals too) and interrupted calls healed;
   * `[]` when there is no file. Throws `TranscriptError` naming the file when it is corrupt.
   */
  async load(source: string): Promise<Message[]> {
    const path = this.pathFor(source);
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    let text: string;
    try {
      // Fatal decoding: a file with invalid UTF-8 is corrupt, not something to guess at.
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch (error) {
      const { TranscriptError } = await transcriptFormat();
      throw new TranscriptError(path, "not valid UTF-8", { cause: error });
    }
    const { parseTranscript } = await transcriptFormat();
    const { messages, healed } = healInterruptedCalls(capToolResults(parseTranscript(text, path)));
    if (healed) this.#journal.text("WARNING", healedWarning(healed));
    return messages;
  }

  /** Writes the capped transcript atomically; the previous file survives any failure. */
  async save(source: string, messages: readonly Message[]): Promise<void> {
    const { serializeTranscript } = await transcriptFormat();
    await atomicWrite(
      this.pathFor(source),
      serializeTranscript(capForPersistence(messages)),
      this.#ops,
    );
  }

  /** Every source with a transcript here, sorted (temp files and other names are ignored). */
  async sources(): Promise<string[]> {
    const found: string[] = [];
    try {
      for await (const entry of Deno.readDir(this.#dir)) {
        if (entry.isFile && entry.name.endsWith(".json")) {
          found.push(unquote(entry.name.slice(0, -".json".length)));
        }
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    return found.sort();
  }
}
