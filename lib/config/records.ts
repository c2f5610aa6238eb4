/**
 * `records.json` in the config home (docs/configuration.md#recordsjson): what a turn record keeps
 * of the turn's text (`content`: `full`, the default, or `hashes`, which replaces every inbound,
 * outbound and tool text with its sha256) and how long records are kept (`retention_days`,
 * pruned by `harness cleanup`; absent keeps them forever). Absent file: full, forever. Anything
 * invalid refuses to load with a sentence naming the file, the key and the fix.
 */
import { join } from "../base/paths.ts";
import * as z from "../base/zod.ts";
import { ABSENT, firstProblem, readOptionalJson, refuseFile } from "./optional_file.ts";
import { describeRange, rangedNumber, RECORDS_RANGES } from "./ranges.ts";

/** `records.json`, relative to the config home. */
export const RECORDS_FILE = "records.json";

/** What the text fields of a record hold. */
export type RecordsContent = "full" | "hashes";

/** What the file resolves to. */
export interface RecordsConfig {
  readonly content: RecordsContent;
  /** Whole UTC days of records to keep; null keeps everything. */
  readonly retentionDays: number | null;
}

/** No file: full text, kept forever. */
export const RECORDS_DEFAULT: RecordsConfig = Object.freeze({
  content: "full",
  retentionDays: null,
});

const fileSchema = z.lazySchema(() =>
  z.strictObject({
    content: z.enum(["full", "hashes"]).optional(),
    retention_days: rangedNumber(RECORDS_RANGES.retention_days).optional(),
  })
);

/**
 * `configHome`'s `records.json`, resolved; {@link RECORDS_DEFAULT} when absent.
 * @throws {ConfigError} naming the file, the key and the fix.
 */
export async function loadRecordsConfig(configHome: string): Promise<RecordsConfig> {
  const path = join(configHome, RECORDS_FILE);
  const value = await readOptionalJson(path, { deleteTo: "keep full records forever" });
  if (value === ABSENT) return RECORDS_DEFAULT;
  return resolveRecordsConfig(value, path);
}

/**
 * Validates an already-parsed `records.json` (pure).
 * @throws {ConfigError} naming `file`, the key and the fix.
 */
export function resolveRecordsConfig(value: unknown, file: string = RECORDS_FILE): RecordsConfig {
  const parsed = fileSchema().safeParse(value);
  if (!parsed.success) {
    const { issue, path, key } = firstProblem(parsed.error);
    throw refuseFile(
      file,
      path.length === 0
        ? `${file} must be a JSON object such as {"content": "full", "retention_days": 90}. ` +
          "Fix: write that, or delete the file to keep full records forever."
        : key === "content"
        ? `${file} key 'content' must be "full" or "hashes" (${issue.message}). Fix: set it to ` +
          'one of those, or remove it for "full".'
        : key === "retention_days"
        ? `${file} key 'retention_days' must be ${describeRange(RECORDS_RANGES.retention_days)} ` +
          `(${issue.message}). Fix: set it so, or remove it to keep records forever.`
        : `${file} key '${key}' is not a records setting. Fix: use 'content' and ` +
          "'retention_days' only, or remove it.",
    );
  }
  return Object.freeze({
    content: parsed.data.content ?? "full",
    retentionDays: parsed.data.retention_days ?? null,
  });
}
