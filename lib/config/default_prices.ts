/**
 * Built-in list prices for Claude models (docs/configuration.md#pricesjson), because Anthropic's
 * replies state no cost: without a price `harness records stats` could not say what a Claude
 * turn cost. USD per 1,000,000 tokens, Anthropic's published list prices as of November 2025
 * (standard tier, prompts up to 200K tokens); a cache write costs 1.25× input (the five-minute
 * cache the harness uses), a cache read 0.1× input. An entry in `prices.json` for the same model
 * always wins, so a changed price is one line there.
 */

/** One model's prices, USD per 1,000,000 tokens. */
export interface ModelPrice {
  readonly input: number;
  /** Cached input tokens (cache reads); defaults to `input`. */
  readonly cached: number;
  /** Input tokens written to the prompt cache (`cache_write`); defaults to `input`. */
  readonly cacheWrite: number;
  readonly output: number;
}

/** When the table below was last checked against Anthropic's price list. */
export const BUILT_IN_PRICES_AS_OF = "2025-11";

/** Input and output USD per 1M tokens, by model alias. */
const CLAUDE: Readonly<Record<string, readonly [input: number, output: number]>> = {
  "claude-opus-4-5": [5, 25],
  "claude-opus-4-1": [15, 75],
  "claude-opus-4-0": [15, 75],
  "claude-opus-4": [15, 75],
  "claude-sonnet-4-5": [3, 15],
  "claude-sonnet-4-0": [3, 15],
  "claude-sonnet-4": [3, 15],
  "claude-3-7-sonnet": [3, 15],
  "claude-haiku-4-5": [1, 5],
  "claude-3-5-haiku": [0.8, 4],
  "claude-3-haiku": [0.25, 1.25],
};

/** A dated snapshot (`claude-sonnet-4-5-20250929`) or a `-latest` alias, by its model alias. */
const SUFFIX = /-(\d{8}|latest)$/;

/**
 * The built-in price of `model`, matched by its alias with any date or `-latest` suffix
 * removed; undefined for a model not in the table.
 */
export function builtInPrice(model: string): ModelPrice | undefined {
  const alias = Object.hasOwn(CLAUDE, model) ? model : model.replace(SUFFIX, "");
  const entry = Object.hasOwn(CLAUDE, alias) ? CLAUDE[alias] : undefined;
  if (!entry) return undefined;
  const [input, output] = entry;
  return Object.freeze({
    input,
    cached: round(input * 0.1),
    cacheWrite: round(input * 1.25),
    output,
  });
}

/** Rounded to a millionth of a dollar per 1M tokens, so 0.8 × 0.1 reads 0.08. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
