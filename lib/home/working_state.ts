/**
 * A timeline's working state (docs/home-layout.md#working-state): the notes the model keeps with
 * the `note_*` tools and the time of the timeline's latest model response, which the cold-start
 * filter measures idleness from (docs/context.md#the-cold-start-filter). One JSON file per
 * timeline, `working_state/<quote(timeline)>.json`, replaced atomically on every change, so a
 * crash leaves the old notes or the new ones, never a torn file.
 *
 * Every change reads, changes and replaces the file under an exclusive `flock` on it
 * (lib/base/locked_file.ts), so two writers on one timeline — two wakes, or a wake and a
 * process of the operator's — take turns and neither loses the other's notes. Reads take no
 * lock: the atomic replace means a reader sees one whole version or the next.
 *
 * Notes belong to one timeline: another timeline's wake opens another file and never sees them.
 */
import { atomicWrite } from "../base/atomic_write.ts";
import { openLocked } from "../base/locked_file.ts";
import { dirname } from "../base/paths.ts";
import * as z from "../base/zod.ts";
import { workingStatePath } from "./paths.ts";

/** The most notes one timeline may hold. */
export const MAX_NOTES = 1024;
const FileSchema = z.object({
  version: z.literal(1),
  notes: z.record(z.string(), z.string()),
  last_response_at: z.string().optional(),
  last_tokens_in: z.number().optional(),
});

/** The file's contents. */
type State = z.infer<typeof FileSchema>;

export { workingStatePath };

/** A working-state file that exists but cannot be read as one. */
export class WorkingStateError extends Error {
  override name = "WorkingStateError";
}

/** What a write did. */
export type WriteReport = "created" | "updated";
/** What a delete did. */
export type DeleteReport = "deleted" | "already_absent";

/** One timeline's notes and response stamp, read from and written through to its file. */
export class WorkingStateStore {
  /** The file this store reads and replaces. */
  readonly path: string;

  /** The store of `timeline` under `home`. */
  constructor(home: string, timeline: string) {
    this.path = workingStatePath(home, timeline);
  }

  /** The notes, sorted by key. */
  async notes(): Promise<[key: string, value: string][]> {
    const { notes } = await this.#read();
    return Object.entries(notes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** One note's value, or `undefined`. */
  async get(key: string): Promise<string | undefined> {
    const { notes } = await this.#read();
    return Object.hasOwn(notes, key) ? notes[key] : undefined;
  }

  /**
   * Creates or replaces `key` (the tools validated both, lib/tools/working_state.ts). Throws a model-readable `RangeError` when
   * a new key would pass {@link MAX_NOTES}.
   */
  write(key: string, value: string): Promise<WriteReport> {
    return this.#change((state) => {
      const exists = Object.hasOwn(state.notes, key);
      if (!exists && Object.keys(state.notes).length >= MAX_NOTES) {
        throw new RangeError(
          `this timeline already holds ${MAX_NOTES} notes, the most it may; delete one you no ` +
            "longer need (note_delete) or fold several into one.",
        );
      }
      if (exists && state.notes[key] === value) return { report: "updated", changed: false };
      state.notes[key] = value;
      return { report: exists ? "updated" : "created", changed: true };
    });
  }

  /** Removes `key`; deleting a missing key is not an error. */
  delete(key: string): Promise<DeleteReport> {
    return this.#change((state) => {
      if (!Object.hasOwn(state.notes, key)) return { report: "already_absent", changed: false };
      delete state.notes[key];
      return { report: "deleted", changed: true };
    });
  }

  /** When the timeline's latest model response arrived, if one was ever recorded. */
  async lastResponseAt(): Promise<Date | undefined> {
    const { last_response_at: at } = await this.#read();
    if (at === undefined) return undefined;
    const date = new Date(at);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }

  /** The input tokens the provider reported for the timeline's latest model call, if known. */
  async lastTokensIn(): Promise<number | undefined> {
    return (await this.#read()).last_tokens_in;
  }

  /**
   * Records `at` as the time of the timeline's latest model response, and `tokensIn` (when the
   * provider reported it) as its input size.
   */
  async markResponse(at: Date, tokensIn?: number): Promise<void> {
    await this.#change((state) => {
      state.last_response_at = at.toISOString();
      if (tokensIn !== undefined) state.last_tokens_in = tokensIn;
      return { report: undefined, changed: true };
    });
  }

  /**
   * Reads the file, applies `apply` and saves what it changed, all under the file's lock. The
   * lock is taken on the file itself, so the first change on a timeline creates it empty (read
   * as no state) an instant before the save replaces it.
   */
  async #change<T>(apply: (state: State) => { report: T; changed: boolean }): Promise<T> {
    await Deno.mkdir(dirname(this.path), { recursive: true });
    const held = await openLocked(this.path, { read: true, write: true, create: true });
    try {
      const state = await this.#read();
      const { report, changed } = apply(state);
      if (changed) await this.#save(state);
      return report;
    } finally {
      held.close();
    }
  }

  async #read(): Promise<State> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { version: 1, notes: {} };
      throw error;
    }
    // Created by a first change's lock an instant before its save: no state yet.
    if (text === "") return { version: 1, notes: {} };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new WorkingStateError(`${this.path} is not JSON; move it aside to start afresh.`);
    }
    const result = FileSchema.safeParse(parsed);
    if (!result.success) {
      throw new WorkingStateError(
        `${this.path} is not a working-state file (${result.error.issues[0]?.message}); move ` +
          "it aside to start afresh.",
      );
    }
    // A fresh object: `notes` is mutated by write and delete before it is saved.
    return { ...result.data, notes: { ...result.data.notes } };
  }

  async #save(state: State): Promise<void> {
    await atomicWrite(this.path, JSON.stringify(state, null, 2) + "\n");
  }
}
