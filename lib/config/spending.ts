/**
 * `budget.json` in the config home (docs/configuration.md#budgetjson): per-agent spending limits
 * the wake enforces like the breaker (docs/operating.md#the-budget-guard) — USD and tokens per
 * wake and per UTC day. Absent, or an empty object: no limits. Anything invalid refuses to load
 * with a sentence naming the file, the key and the fix.
 */
import { join } from "../base/paths.ts";
import * as z from "../base/zod.ts";
import { ABSENT, firstProblem, readOptionalJson, refuseFile } from "./optional_file.ts";
import { BUDGET_RANGES, describeRange, rangedNumber } from "./ranges.ts";

/** `budget.json`, relative to the config home. */
export const BUDGET_FILE = "budget.json";

/** The limits; null is unlimited. */
export interface BudgetConfig {
  readonly usdPerWake: number | null;
  readonly usdPerDay: number | null;
  readonly tokensPerWake: number | null;
  readonly tokensPerDay: number | null;
}

/** No limits. */
export const BUDGET_NONE: BudgetConfig = Object.freeze({
  usdPerWake: null,
  usdPerDay: null,
  tokensPerWake: null,
  tokensPerDay: null,
});

/** Whether any limit is set (otherwise the wake never loads the guard). */
export function budgetLimited(budget: BudgetConfig): boolean {
  return Object.values(budget).some((limit) => limit !== null);
}

const fileSchema = z.lazySchema(() =>
  z.strictObject({
    usd_per_wake: rangedNumber(BUDGET_RANGES.usd_per_wake).optional(),
    usd_per_day: rangedNumber(BUDGET_RANGES.usd_per_day).optional(),
    tokens_per_wake: rangedNumber(BUDGET_RANGES.tokens_per_wake).optional(),
    tokens_per_day: rangedNumber(BUDGET_RANGES.tokens_per_day).optional(),
  })
);

/**
 * `configHome`'s `budget.json`; {@link BUDGET_NONE} when absent.
 * @throws {ConfigError} naming the file, the key and the fix.
 */
export async function loadBudget(configHome: string): Promise<BudgetConfig> {
  const path = join(configHome, BUDGET_FILE);
  const value = await readOptionalJson(path, { deleteTo: "run without spending limits" });
  if (value === ABSENT) return BUDGET_NONE;
  return resolveBudget(value, path);
}

/**
 * Validates an already-parsed `budget.json` (pure).
 * @throws {ConfigError} naming `file`, the key and the fix.
 */
export function resolveBudget(value: unknown, file: string = BUDGET_FILE): BudgetConfig {
  const parsed = fileSchema().safeParse(value);
  if (!parsed.success) {
    const { issue, path, key } = firstProblem(parsed.error);
    throw refuseFile(
      file,
      path.length === 0
        ? `${file} must be a JSON object such as {"usd_per_day": 5}. Fix: write that, or ` +
          "delete the file to run without limits."
        : issue.code === "unrecognized_keys"
        ? `${file} key '${key}' is not a budget setting. Fix: use usd_per_wake, usd_per_day, ` +
          "tokens_per_wake and tokens_per_day only, or remove it."
        : Object.hasOwn(BUDGET_RANGES, key)
        ? `${file} key '${key}' must be ` +
          `${describeRange(BUDGET_RANGES[key as keyof typeof BUDGET_RANGES])} ` +
          `(${issue.message}). Fix: set it so, or remove it for no limit.`
        : `${file} key '${key}' is not a budget setting. Fix: use usd_per_wake, usd_per_day, ` +
          "tokens_per_wake and tokens_per_day only, or remove it.",
    );
  }
  const d = parsed.data;
  return Object.freeze({
    usdPerWake: d.usd_per_wake ?? null,
    usdPerDay: d.usd_per_day ?? null,
    tokensPerWake: d.tokens_per_wake ?? null,
    tokensPerDay: d.tokens_per_day ?? null,
  });
}
