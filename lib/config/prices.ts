/**
 * `prices.json` in the config home (docs/configuration.md#pricesjson): USD per million tokens by
 * model, for `harness records stats` to price turns whose provider reported no cost. The
 * provider's own figure always wins. Entries of the file come first; a model it does not name
 * falls back to the built-in, dated Claude list prices (default_prices.ts), since Anthropic
 * reports no cost. Anything invalid refuses with a sentence naming the file, the key and the fix.
 */
import { join } from "../base/paths.ts";
import * as z from "../base/zod.ts";
import { ABSENT, firstProblem, readOptionalJson, refuseFile } from "./optional_file.ts";
import { describeRange, PRICE_RANGES, rangedNumber } from "./ranges.ts";
import { builtInPrice, type ModelPrice } from "./default_prices.ts";

/** `prices.json`, relative to the config home. */
export const PRICES_FILE = "prices.json";

export type { ModelPrice };

/** Model id → its prices: `get` answers the file's entry, else a built-in one. */
export type PriceTable = Pick<ReadonlyMap<string, ModelPrice>, "get" | "size">;

const fileSchema = z.lazySchema(() =>
  z.record(
    z.string().min(1),
    z.strictObject({
      input: rangedNumber(PRICE_RANGES.input),
      cached: rangedNumber(PRICE_RANGES.cached).optional(),
      cache_write: rangedNumber(PRICE_RANGES.cache_write).optional(),
      output: rangedNumber(PRICE_RANGES.output),
    }),
  )
);

/**
 * `configHome`'s `prices.json` over the built-in prices; only the built-in ones when absent.
 * @throws {ConfigError} naming the file, the key and the fix.
 */
export async function loadPrices(configHome: string): Promise<PriceTable> {
  const path = join(configHome, PRICES_FILE);
  const value = await readOptionalJson(path, { deleteTo: "price nothing" });
  if (value === ABSENT) return builtInPriceTable();
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
        ? `${file} must be a JSON object of model → {"input", "cached", "cache_write", ` +
          '"output"} (USD per 1M tokens). Fix: write that, or delete the file.'
        : `${file} key '${key}' is wrong (${issue.message}). Fix: give each model "input" and ` +
          `"output" (and optionally "cached" and "cache_write"), each ` +
          `${describeRange(PRICE_RANGES.input)}, nothing else.`,
    );
  }
  return withBuiltIns(
    new Map(
      Object.entries(parsed.data).map(([model, p]) => [
        model,
        Object.freeze({
          input: p.input,
          cached: p.cached ?? p.input,
          cacheWrite: p.cache_write ?? p.input,
          output: p.output,
        }),
      ]),
    ),
  );
}

/** The built-in prices alone: what a config home without `prices.json` prices with. */
export function builtInPriceTable(): PriceTable {
  return withBuiltIns(new Map());
}

/** `file`'s entries first; a model it does not name asks the built-in table. */
function withBuiltIns(file: ReadonlyMap<string, ModelPrice>): PriceTable {
  return { get: (model) => file.get(model) ?? builtInPrice(model), size: file.size };
}
