/**
 * The part of zod this package uses, as one `z` namespace: `import { z } from "./zod.ts"`.
 *
 * zod's own `z` namespace holds everything zod ships, including a message table for every language
 * it knows — about half its code. The bundle the binary is built from cannot drop any member of a
 * namespace the code uses as a value, so importing zod's `z` put all of it on every wake's start-up.
 * Naming the members lets the bundler keep only these. English messages are installed here
 * explicitly, so they never depend on which of zod's modules the bundler keeps.
 */
import { config } from "zod";
import { en } from "zod/v4/locales";

config(en());

export {
  array,
  boolean,
  config,
  custom,
  discriminatedUnion,
  email,
  enum,
  int,
  iso,
  literal,
  looseObject,
  NEVER,
  number,
  object,
  record,
  strictObject,
  string,
  union,
  unknown,
} from "zod";
export type {
  core,
  infer,
  input,
  output,
  ZodArray,
  ZodBoolean,
  ZodDiscriminatedUnion,
  ZodEmail,
  ZodEnum,
  ZodLiteral,
  ZodNullable,
  ZodNumber,
  ZodObject,
  ZodOptional,
  ZodPipe,
  ZodRawShape,
  ZodRecord,
  ZodString,
  ZodTransform,
  ZodType,
  ZodUnion,
  ZodUnknown,
} from "zod";

/**
 * A schema built on its first use. Building a zod schema costs real time at module load (about a
 * millisecond for a small object); a module on the idle wake's path that parses only when an
 * optional file exists builds its schema then, not on every wake.
 */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => schema ??= build();
}
