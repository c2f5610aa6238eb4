/**
 * `prices.json` in the config home (docs/configuration.md#pricesjson): USD per million tokens by
 * model, for `harness records stats` to price turns whose provider reported no cost. The
 * provider's own figure always wins. Absent: nothing is priced. Anything invalid refuses with a
 * sentence naming the file, the key and the fix.
 */
import { join } from "../base/paths.ts";
import * as z from "../base/zod.ts";
import { ABSENT, firstProblem, readOptionalJson, refuseFile } from "./optional_file.ts";
import { describeRange, PRICE_RANGES, rangedNumber } from "./ranges.ts";

/** `prices.json`, relative to the config home. */
export const PRICES_FILE = "prices.json";

/** One model's prices, USD per 1,000,000 tokens. */
export interface ModelPrice {
  readonly input: number;
  /** Cached input tokens; defaults to `input`. */
  readonly cached: number;
  readonly output: number;
}

/** Model id → its prices. */
export type PriceTable = ReadonlyMap<string, ModelPrice>;

const fileSchema = z.lazySchema(() =>
  z.record(
    z.string().min(1),
    z.strictObject({
      input: rangedNumber(PRICE_RANGES.input),
      cached: rangedNumber(PRICE_RANGES.cached).optional(),
      output: rangedNumber(PRICE_RANGES.output),
    }),
  )
);

/**
 * `configHome`'s `prices.json`; an empty table when absent.
 * @throws {ConfigError} naming the file, the key and the fix.
 */
export async function loadPrices(configHome: string): Promise<PriceTable> {
  const path = join(configHome, PRICES_FILE);
  const value = await readOptionalJson(path, { deleteTo: "price nothing" });
  if (value === ABSENT) return new Map();
  return resolvePrices(value, path);
}

/**
 * Validates an already-parsed `prices.json` (pure).
 * @throws {ConfigError} naming `file`, the key and the fix.
 */
export function resolvePrices(value: unknown, file: string = PRICES_FILE): PriceTable {
  const parsed = fileSchema().safeParse(value);
  if (!parsed.success) {
    const { issue, path, key } = firstProblem(parsed.error);
    throw refuseFile(
      file,
      path.length === 0
        ? `${file} must be a JSON object of model → {"input", "cached", "output"} (USD per ` +
          "1M tokens). Fix: write that, or delete the file."
        : `${file} key '${key}' is wrong (${issue.message}). Fix: give each model "input" and ` +
          `"output" (and optionally "cached"), each ${describeRange(PRICE_RANGES.input)}, ` +
          "nothing else.",
    );
  }
  return new Map(
    Object.entries(parsed.data).map(([model, p]) => [
      model,
      Object.freeze({ input: p.input, cached: p.cached ?? p.input, output: p.output }),
    ]),
  );
}
