/**
 * The memory tool's argument schema: bad input from the model becomes one sentence it can read
 * and correct. Loaded lazily by the tool, so importing the library does not load zod.
 */
import * as z from "../base/zod.ts";

/**
 * The raw arguments the memory tool accepts. Null is accepted for the optional fields because
 * some models send explicit nulls for arguments they do not use.
 */
export const MemoryArgsSchema = z.object({
  action: z.string({ error: "'action' is required and must be a string." }),
  key: z.string().nullish(),
  value: z.string().nullish(),
  query: z.string().nullish(),
});

/** Arguments after validation. */
export type MemoryArgs = z.infer<typeof MemoryArgsSchema>;

/** Validates the raw arguments, turning a schema failure into one readable sentence. */
export function parseMemoryArgs(args: unknown): MemoryArgs {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new Error("memory arguments must be a JSON object with an 'action'.");
  }
  const parsed = MemoryArgsSchema.safeParse(args);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.join(".");
    return field === "action" ? issue.message : `'${field}' must be a string.`;
  });
  throw new Error(`Invalid memory arguments: ${problems.join(" ")}`);
}
