/**
 * A timeline's working state (docs/home-layout.md#working-state): the notes the model keeps with
 * the `note_*` tools and the time of the timeline's latest model response, which the cold-start
 * filter measures idleness from (docs/context.md#the-cold-start-filter). One JSON file per
 * timeline, `working_state/<quote(timeline)>.json`, replaced atomically on every change, so a
 * crash leaves the old notes or the new ones, never a torn file.
 *
 * Notes belong to one timeline: another timeline's wake opens another file and never sees them.
 */
import { atomicWrite } from "../base/atomic_write.ts";
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
  async write(key: string, value: string): Promise<WriteReport> {
    const state = await this.#read();
    const exists = Object.hasOwn(state.notes, key);
    if (!exists && Object.keys(state.notes).length >= MAX_NOTES) {
      throw new RangeError(
        `this timeline already holds ${MAX_NOTES} notes, the most it may; delete one you no ` +
          "longer need (note_delete) or fold several into one.",
      );
    }
    if (exists && state.notes[key] === value) return "updated";
    state.notes[key] = value;
    await this.#save(state);
    return exists ? "updated" : "created";
  }

  /** Removes `key`; deleting a missing key is not an error. */
  async delete(key: string): Promise<DeleteReport> {
    const state = await this.#read();
    if (!Object.hasOwn(state.notes, key)) return "already_absent";
    delete state.notes[key];
    await this.#save(state);
    return "deleted";
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
    const state = await this.#read();
    state.last_response_at = at.toISOString();
    if (tokensIn !== undefined) state.last_tokens_in = tokensIn;
    await this.#save(state);
  }

  async #read(): Promise<z.infer<typeof FileSchema>> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { version: 1, notes: {} };
      throw error;
    }
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

  async #save(state: z.infer<typeof FileSchema>): Promise<void> {
    await atomicWrite(this.path, JSON.stringify(state, null, 2) + "\n");
  }
}
