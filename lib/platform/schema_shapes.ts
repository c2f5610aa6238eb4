/**
 * The building blocks of the platform's response schemas (lib/platform/schemas.ts): the type
 * shorthands the published types are spelled with, timestamps, `{uuid}` references and the
 * nested-actor forms every item and timeline uses.
 */
import * as z from "../base/zod.ts";

// The schemas carry explicit types, spelled with these shorthands, so the published package's
// API has no inferred types (the slow-type check of `deno publish`). The checker proves each
// annotation equals what the schema builds. The shorthands are exported because the schemas'
// published types are written with them.
/** Schema-type shorthand: a string field. */
export type Str = z.ZodString;
/** Schema-type shorthand: a field that may be absent. */
export type Opt<T extends z.ZodType> = z.ZodOptional<T>;
/** Schema-type shorthand: a field that may be null. */
export type Nul<T extends z.ZodType> = z.ZodNullable<T>;
/** Schema-type shorthand: a field that may be absent or null. */
export type OptNul<T extends z.ZodType> = z.ZodOptional<z.ZodNullable<T>>;
/** Schema-type shorthand: an object whose unknown keys are dropped when parsed. */
export type Obj<S extends z.core.$ZodShape> = z.ZodObject<S, z.core.$strip>;
/** Schema-type shorthand: an object whose unknown keys are kept when parsed. */
export type Loose<S extends z.core.$ZodShape> = z.ZodObject<S, z.core.$loose>;
/** The fields every timeline item carries: when it was made and changed, and its timeline. */
export type ItemBase = { created_at: Str; updated_at: Opt<Str>; timeline: typeof ReferenceSchema };

/** A timestamp string as sent by the platform (ISO-8601; offsets vary, so not parsed here). */
export const Timestamp: Str = z.string();

/** The `{uuid}` pointer an item uses for its timeline. */
export const ReferenceSchema: Obj<{ uuid: Str }> = z.object({ uuid: z.string() });
/** A `{uuid}` pointer to another record. */
export type Reference = z.infer<typeof ReferenceSchema>;

/** The nested-actor user form used for authors and timeline owners. */
export const ActorSchema: Obj<{ uuid: Str; handle: Str; name: Str; kind: Str }> = z.object({
  uuid: z.string(),
  handle: z.string(),
  name: z.string(),
  kind: z.string(),
});
/** A user as it appears inside other records: `{uuid, handle, name, kind}`; kind is "human" | "ai". */
export type Actor = z.infer<typeof ActorSchema>;

/** Participant rows may carry nulls for a hidden or deleted user; only the uuid is sure. */
export const ParticipantSchema: Obj<{
  uuid: Str;
  handle: Nul<Str>;
  name: Nul<Str>;
  kind: Nul<Str>;
}> = z.object({
  uuid: z.string(),
  handle: z.string().nullable(),
  name: z.string().nullable(),
  kind: z.string().nullable(),
});
/** A timeline participant (nested-actor form, fields other than uuid possibly null). */
export type Participant = z.infer<typeof ParticipantSchema>;
