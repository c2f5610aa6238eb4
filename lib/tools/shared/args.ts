/**
 * Argument checking shared by the platform tools. Models send `null` for an omitted optional
 * field as often as they leave it out, and sometimes add fields of their own, so every field
 * is an optional string (null folded to undefined) and unknown keys are tolerated; a field of
 * the wrong type becomes an `Error: …` the model can read and correct.
 */
import * as z from "../../base/zod.ts";

/** An optional string argument; `null` reads as absent. */
export const optionalText: z.ZodPipe<
  z.ZodOptional<z.ZodNullable<z.ZodString>>,
  z.ZodTransform<string | undefined, string | null | undefined>
> = z.string().nullish().transform((value) => value ?? undefined);

/** An object of optional string arguments that tolerates extra keys. */
export function textArgs<Shape extends Record<string, typeof optionalText>>(
  shape: Shape,
): z.ZodObject<Shape, z.core.$loose> {
  return z.looseObject(shape);
}

/** The schema {@link textArgs} builds for the fields `K`, spelled out for exported tool types. */
export type TextArgs<K extends string> = z.ZodObject<Record<K, typeof optionalText>, z.core.$loose>;

/**
 * What a {@link TextArgs} schema yields once it has checked the fields `K`: each a string or
 * absent, plus whatever extra keys the model sent. Spelled out, not inferred, so a tool's
 * published argument type names no schema.
 */
export type TextArgValues<K extends string> =
  & { readonly [P in K]?: string }
  & { readonly [key: string]: unknown };

/** The outcome of {@link parseArgs}. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | {
  readonly ok: false;
  readonly error: string;
};

/** Checks `args` against `schema`; a failure names the first offending field. */
export function parseArgs<T>(schema: z.ZodType<T>, args: unknown): Parsed<T> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const field = issue?.path.join(".");
  return {
    ok: false,
    error: field
      ? `Error: '${field}' must be a string.`
      : "Error: the arguments must be an object of named string fields.",
  };
}

/** Whether an argument was given with content (the reference treats `""` as absent). */
export function present(value: string | undefined): value is string {
  return value !== undefined && value !== "";
}
