/**
 * The working-state tools (docs/tools.md#working-state-notes-and-summarize): `note_write`,
 * `note_delete` and `note_get` keep short facts for this timeline that outlive compaction and
 * wakes, and `summarize` hands the conversation to the agent's own future self. They are the
 * harness's own, always on for a wake, like the memory tool; no plugin stem names them.
 *
 * The tools know the notes only through {@link NoteBook} and the handoff only through
 * {@link HandoffDesk}; the wake binds both (lib/wake/engaged/working_state.ts), which keeps the
 * files and the transcript out of this layer.
 */
import * as z from "../base/zod.ts";
import type { JsonSchema, ToolContext } from "../core/types/tool.ts";
import { Tool } from "../core/types/tool.ts";

/** The longest key, in characters. */
export const MAX_KEY_CHARS = 128;
/** The largest value, in UTF-8 bytes. */
export const MAX_VALUE_BYTES = 16_384;
/** The longest summarize narrative, in characters. */
export const MAX_NARRATIVE_CHARS = 16_000;

/**
 * A key: a letter or digit, then letters, digits and `._:/-`. Keys are spelled into the request's
 * `key="…"` attributes as they are, so nothing in them ever needs escaping.
 */
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:\/-]*$/;

/** A value's size in UTF-8 bytes. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A note key, checked (the messages are written for the model that chose the key). */
export const NoteKeySchema = z.string({ error: "'key' must be a string." })
  .min(1, { error: "'key' must not be empty." })
  .max(MAX_KEY_CHARS, { error: `'key' must be at most ${MAX_KEY_CHARS} characters.` })
  .regex(KEY_PATTERN, {
    error: "'key' must start with a letter or digit and use only letters, digits and . _ : / -",
  });

/** A note value: any text that is not blank, up to {@link MAX_VALUE_BYTES} UTF-8 bytes. */
export const NoteValueSchema = z.string({ error: "'value' must be a string." })
  .refine((value) => value.trim() !== "", { error: "'value' must not be blank." })
  .refine((value) => utf8Bytes(value) <= MAX_VALUE_BYTES, {
    error: `'value' must be at most ${MAX_VALUE_BYTES} bytes (UTF-8): keep a note to a fact, ` +
      "not a document.",
  });

/** The notes store the tools write through (lib/home/working_state.ts implements it). */
export interface NoteBook {
  /** Every note, sorted by key. */
  notes(): Promise<[key: string, value: string][]>;
  /** One value, or `undefined`. */
  get(key: string): Promise<string | undefined>;
  /** Creates or replaces a note; throws a model-readable `RangeError` when the store is full. */
  write(key: string, value: string): Promise<"created" | "updated">;
  /** Removes a note; a missing key is `already_absent`, not an error. */
  delete(key: string): Promise<"deleted" | "already_absent">;
}

/** What the model hands its future self. */
export interface Handoff {
  /** What happened and what was decided, in the model's words. */
  readonly narrative: string;
  /** What to do next. */
  readonly nextStep: string;
  /** The note keys the model reconciled before handing off. */
  readonly reconciled: readonly string[];
}

/** Where `summarize` files its handoff (the wake applies it when the turn settles). */
export interface HandoffDesk {
  /** Accepts `handoff`; returns the text the model reads, or throws a model-readable Error. */
  accept(handoff: Handoff): string | Promise<string>;
}

/** The first issue of a failed parse, as the model reads it. */
function firstIssue(error: { readonly issues: readonly { readonly message: string }[] }): string {
  return `Error: ${error.issues[0]?.message ?? "the arguments are not valid."}`;
}

/** Tells the engine the call was refused as invalid, and returns the text. */
function invalid(context: ToolContext | undefined, text: string): string {
  context?.reportOutcome?.("invalid");
  return text;
}

const KEY_PROPERTY = {
  type: "string",
  description:
    `A short name for the note (letters, digits and . _ : / -; at most ${MAX_KEY_CHARS} ` +
    "characters), e.g. 'client/deadline'.",
};

/** `note_write(key, value)`: creates or replaces one note; reports `created` or `updated`. */
export class NoteWriteTool extends Tool {
  /** The name the model calls it by. */
  readonly name = "note_write";
  /** What it does, for the model. */
  readonly description: string =
    "Keep a fact for this timeline: writes the note 'key' with 'value' (replacing any earlier " +
    "value) and answers 'created' or 'updated'. Notes outlive this conversation: they survive " +
    "compaction and later wakes and are shown to you again with each new input. Use them for " +
    "facts you will need again (names, decisions, deadlines, uuids), not for the conversation " +
    `itself. A value is at most ${MAX_VALUE_BYTES} bytes.`;
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = {
    type: "object",
    properties: {
      key: KEY_PROPERTY,
      value: { type: "string", description: "The whole note; replaces the earlier value." },
    },
    required: ["key", "value"],
  };
  readonly #book: NoteBook;

  /** The tool, writing through `book`. */
  constructor(book: NoteBook) {
    super();
    this.#book = book;
  }

  /** Validates and writes; a bad argument or a full store is a text for the model. */
  async run(args: unknown, context?: ToolContext): Promise<string> {
    const parsed = z.object({ key: NoteKeySchema, value: NoteValueSchema }).safeParse(args ?? {});
    if (!parsed.success) return invalid(context, firstIssue(parsed.error));
    try {
      return await this.#book.write(parsed.data.key, parsed.data.value);
    } catch (error) {
      if (error instanceof RangeError) return invalid(context, `Error: ${error.message}`);
      throw error;
    }
  }
}

/** `note_delete(key)`: idempotent; reports `deleted` or `already_absent`. */
export class NoteDeleteTool extends Tool {
  /** The name the model calls it by. */
  readonly name = "note_delete";
  /** What it does, for the model. */
  readonly description: string =
    "Forget a note of this timeline: deletes 'key' and answers 'deleted', or 'already_absent' " +
    "when there was no such note (deleting twice is harmless).";
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = {
    type: "object",
    properties: { key: KEY_PROPERTY },
    required: ["key"],
  };
  readonly #book: NoteBook;

  /** The tool, deleting through `book`. */
  constructor(book: NoteBook) {
    super();
    this.#book = book;
  }

  /** Validates and deletes. */
  async run(args: unknown, context?: ToolContext): Promise<string> {
    const parsed = z.object({ key: NoteKeySchema }).safeParse(args ?? {});
    if (!parsed.success) return invalid(context, firstIssue(parsed.error));
    return await this.#book.delete(parsed.data.key);
  }
}

/**
 * `note_get(key?)`: one complete value, or without a key the sorted keys and their count. The
 * listing names keys only, so it stays small however large the values are.
 */
export class NoteGetTool extends Tool {
  /** The name the model calls it by. */
  readonly name = "note_get";
  /** What it does, for the model. */
  readonly description: string =
    "Read your notes of this timeline. With 'key': that note's complete value. Without: the " +
    "count and the sorted list of keys. Use it when a note is shown to you only as a " +
    "<note-ref>, or was left out of the notes block.";
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = {
    type: "object",
    properties: { key: { ...KEY_PROPERTY, description: "The note to read; omit to list keys." } },
  };
  readonly #book: NoteBook;

  /** The tool, reading through `book`. */
  constructor(book: NoteBook) {
    super();
    this.#book = book;
  }

  /** The value, the listing, or a text saying the key is absent. */
  async run(args: unknown, context?: ToolContext): Promise<string> {
    const parsed = z.object({ key: NoteKeySchema.nullish() }).safeParse(args ?? {});
    if (!parsed.success) return invalid(context, firstIssue(parsed.error));
    const key = parsed.data.key;
    if (key === undefined || key === null) {
      const keys = (await this.#book.notes()).map(([name]) => name);
      if (!keys.length) return "0 notes.";
      return [`${keys.length} note${keys.length === 1 ? "" : "s"}:`, ...keys].join("\n");
    }
    const value = await this.#book.get(key);
    if (value === undefined) {
      return invalid(
        context,
        `Error: there is no note '${key}' (note_get without a key lists them).`,
      );
    }
    return value;
  }
}

/** The words the summarize tool and compaction share: reconcile the notes, do not copy them. */
export const RECONCILE_NOTES: string =
  "Your notes (note_write, note_delete) outlive this: reconcile them first — update a stale " +
  "note, delete one that no longer holds — and do not copy them into the summary; they are " +
  "shown to you again with the next input.";

/**
 * `summarize(narrative, next_step, reconciled_notes?)`: a handoff by choice. When the turn
 * settles, the conversation before it is replaced by the narrative, as compaction would, but in
 * the model's own words and at the moment it chooses.
 */
export class SummarizeTool extends Tool {
  /** The name the model calls it by. */
  readonly name = "summarize";
  /** What it does, for the model. */
  readonly description: string =
    "Hand this conversation to your future self. When this turn ends, everything before it is " +
    "replaced by what you write here, and the current turn stays as it is. Write 'narrative' in " +
    "the first person: the work done (tools, results, uuids, URLs, paths), what was said and " +
    "agreed, what is still open, and the SKILL.md paths you rely on. " + RECONCILE_NOTES +
    " Use it when a reminder says your context is filling up, or at a natural break.";
  /** JSON Schema of the arguments. */
  override readonly parameters: JsonSchema = {
    type: "object",
    properties: {
      narrative: {
        type: "string",
        description: "What your future self must know; replaces the earlier conversation.",
      },
      next_step: { type: "string", description: "What to do next." },
      reconciled_notes: {
        type: "array",
        items: { type: "string" },
        description: "The keys of the notes you updated or checked before this handoff.",
      },
    },
    required: ["narrative", "next_step"],
  };
  readonly #desk: HandoffDesk;

  /** The tool, filing with `desk`. */
  constructor(desk: HandoffDesk) {
    super();
    this.#desk = desk;
  }

  /** Validates and files the handoff. */
  async run(args: unknown, context?: ToolContext): Promise<string> {
    const text = (name: string) =>
      z.string({ error: `'${name}' must be a string.` })
        .refine((v) => v.trim() !== "", { error: `'${name}' must not be blank.` });
    const parsed = z.object({
      narrative: text("narrative").refine((v) => v.length <= MAX_NARRATIVE_CHARS, {
        error: `'narrative' must be at most ${MAX_NARRATIVE_CHARS} characters.`,
      }),
      next_step: text("next_step"),
      reconciled_notes: z.array(z.string(), {
        error: "'reconciled_notes' must be a list of note keys.",
      }).nullish(),
    }).safeParse(args ?? {});
    if (!parsed.success) return invalid(context, firstIssue(parsed.error));
    try {
      return await this.#desk.accept({
        narrative: parsed.data.narrative.trim(),
        nextStep: parsed.data.next_step.trim(),
        reconciled: parsed.data.reconciled_notes ?? [],
      });
    } catch (error) {
      if (error instanceof RangeError) return invalid(context, `Error: ${error.message}`);
      throw error;
    }
  }
}
