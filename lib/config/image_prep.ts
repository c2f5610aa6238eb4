/**
 * `image_prep.json` in the config home (docs/configuration.md#image_prepjson): per model, how the
 * inline images of a request are prepared (docs/context.md#images-in-a-request). Absent is the
 * defaults; a model (or `"*"`) set to `null` sends its images untouched; anything invalid refuses
 * to load with a sentence naming the file, the key and the fix.
 */
import { join } from "../base/paths.ts";
import { ABSENT, firstProblem, readOptionalJson, refuseFile } from "./optional_file.ts";
import * as z from "../base/zod.ts";
import { DEFAULT_IMAGE_PREP, type ImagePrepPolicy } from "../core/types/image_policy.ts";
import { describeRange, IMAGE_PREP_RANGES, rangedNumber } from "./ranges.ts";

/** `image_prep.json`, relative to the config home. */
export const IMAGE_PREP_FILE = "image_prep.json";

/** The key whose entry applies to every model without an entry of its own. */
export const ANY_MODEL = "*";

/** One model's partial policy, snake_case as the file spells it; unknown keys refuse. */
const partialSchema = () =>
  z.strictObject({
    segment_height: rangedNumber(IMAGE_PREP_RANGES.segment_height).optional(),
    segment_overlap: rangedNumber(IMAGE_PREP_RANGES.segment_overlap).optional(),
    max_base64_bytes: rangedNumber(IMAGE_PREP_RANGES.max_base64_bytes).optional(),
    max_long_edge: rangedNumber(IMAGE_PREP_RANGES.max_long_edge).optional(),
    max_images: rangedNumber(IMAGE_PREP_RANGES.max_images).optional(),
  });

/** The file: model id (or `"*"`) → a partial policy, or `null` to switch preparation off. */
const fileSchema = z.lazySchema(() => z.record(z.string(), partialSchema().nullable()));

type PartialPolicy = z.infer<ReturnType<typeof partialSchema>>;

/** What each key accepts, for the refusal's fix. */
const ACCEPTS: Record<string, string> = {
  segment_height: describeRange(IMAGE_PREP_RANGES.segment_height),
  segment_overlap: describeRange(IMAGE_PREP_RANGES.segment_overlap, "below segment_height"),
  max_base64_bytes: describeRange(IMAGE_PREP_RANGES.max_base64_bytes),
  max_long_edge: describeRange(IMAGE_PREP_RANGES.max_long_edge),
  max_images: describeRange(IMAGE_PREP_RANGES.max_images),
};

/**
 * The policy for `model` from `configHome`'s `image_prep.json`: the defaults overlaid by the
 * `"*"` entry, then by the model's own; `null` when the applicable entry is `null`.
 * @throws {ConfigError} naming the file, the key and the fix when the file is unreadable, not
 * JSON, or holds a value the schema refuses.
 */
export async function loadImagePrep(
  configHome: string,
  model: string | undefined,
): Promise<ImagePrepPolicy | null> {
  const path = join(configHome, IMAGE_PREP_FILE);
  const value = await readOptionalJson(path, { deleteTo: "use the default image preparation" });
  if (value === ABSENT) return DEFAULT_IMAGE_PREP;
  return resolveImagePrep(value, model, path);
}

/**
 * Validates an already-parsed `image_prep.json` and resolves it for `model` (pure).
 * @throws {ConfigError} naming `file`, the key and the fix.
 */
export function resolveImagePrep(
  value: unknown,
  model: string | undefined,
  file: string = IMAGE_PREP_FILE,
): ImagePrepPolicy | null {
  const parsed = fileSchema().safeParse(value);
  if (!parsed.success) {
    const { issue, path, key } = firstProblem(parsed.error);
    const field = String(path.at(-1) ?? "");
    if (path.length === 0) {
      throw refuseFile(
        file,
        `${file} must be a JSON object mapping a model id (or "*") to a policy object or null. ` +
          'Fix: write e.g. {"*": {"max_images": 10}}, or delete the file to use the defaults.',
      );
    }
    const accepts = ACCEPTS[field];
    throw refuseFile(
      file,
      accepts
        ? `${file} key '${key}' must be ${accepts} (${issue.message}). Fix: set it to ${accepts}, ` +
          "or remove the key to keep its default."
        : path.length === 1
        ? `${file} key '${key}' must be a policy object or null (${issue.message}). Fix: give ` +
          `it an object of ${Object.keys(ACCEPTS).join(", ")}, or null to send images untouched.`
        : `${file} key '${key}' is not an image preparation setting. Fix: use one of ` +
          `${Object.keys(ACCEPTS).join(", ")}, or remove it.`,
    );
  }
  const entries = parsed.data;
  const own = model !== undefined && Object.hasOwn(entries, model) ? entries[model] : undefined;
  const any = Object.hasOwn(entries, ANY_MODEL) ? entries[ANY_MODEL] : undefined;
  // The model's own entry wins outright: its null switches preparation off even under a "*".
  if (own === null || (own === undefined && any === null)) return null;
  const policy = overlay(overlay(DEFAULT_IMAGE_PREP, any ?? {}), own ?? {});
  if (policy.segmentOverlap >= policy.segmentHeight) {
    const where = own?.segment_overlap !== undefined || own?.segment_height !== undefined
      ? model
      : ANY_MODEL;
    throw refuseFile(
      file,
      `${file} key '${where}.segment_overlap' (${policy.segmentOverlap}) must be smaller than ` +
        `segment_height (${policy.segmentHeight}). Fix: lower segment_overlap or raise ` +
        "segment_height.",
    );
  }
  return policy;
}

function overlay(base: ImagePrepPolicy, partial: PartialPolicy): ImagePrepPolicy {
  return Object.freeze({
    segmentHeight: partial.segment_height ?? base.segmentHeight,
    segmentOverlap: partial.segment_overlap ?? base.segmentOverlap,
    maxBase64Bytes: partial.max_base64_bytes ?? base.maxBase64Bytes,
    maxLongEdge: partial.max_long_edge ?? base.maxLongEdge,
    maxImages: partial.max_images ?? base.maxImages,
  });
}
