/**
 * The anchor of a pruned chain (docs/records.md#retention): `<timeline>.anchor`, one line of
 * canonical JSON naming the last record retention removed — its `seq`, its `record_hash`, when it
 * was written (`at`) and when it was pruned (`pruned_at`). The chain's first remaining record
 * chains onto that hash, so verification starts from the anchor instead of from genesis.
 */
import { readTextIfPresent } from "../../base/read_files.ts";
import * as z from "../../base/zod.ts";

/** One anchor as stored. */
export const AnchorSchema = z.strictObject({
  seq: z.number().int().positive(),
  record_hash: z.string().regex(/^[0-9a-f]{64}$/),
  at: z.iso.datetime(),
  pruned_at: z.iso.datetime(),
});

/** One anchor as stored. */
export type Anchor = z.infer<typeof AnchorSchema>;

/** Parses an anchor file's text; undefined when it is not one. */
export function parseAnchor(text: string): Anchor | undefined {
  try {
    const parsed = AnchorSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Reads an anchor file: undefined when absent; "invalid" when present but unreadable. */
export async function readAnchor(path: string): Promise<Anchor | "invalid" | undefined> {
  const text = await readTextIfPresent(path);
  return text === undefined ? undefined : parseAnchor(text) ?? "invalid";
}
