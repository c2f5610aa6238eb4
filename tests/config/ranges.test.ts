/**
 * Every numeric setting has a range, and a value outside it refuses to load naming the variable
 * (or the file and key) and the range: table-driven over lib/config/ranges.ts, through the real
 * readers (`parseEnv` and each optional file's loader on a temp config home). Each range's ends
 * load; one step past either end refuses.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError } from "../../lib/config/errors.ts";
import { parseEnv } from "../../lib/config/env.ts";
import { loadImagePrep } from "../../lib/config/image_prep.ts";
import { loadPrices } from "../../lib/config/prices.ts";
import {
  BUDGET_RANGES,
  describeRange,
  ENV_RANGES,
  IMAGE_PREP_RANGES,
  MCP_RANGES,
  type NumberRange,
  PRICE_RANGES,
  RECORDS_RANGES,
} from "../../lib/config/ranges.ts";
import { loadRecordsConfig } from "../../lib/config/records.ts";
import { loadBudget } from "../../lib/config/spending.ts";
import { GuardrailsError, loadGuardrails, MAX_MAX_LENGTH } from "../../lib/gate/guardrails.ts";
import { MAX_LOG_LEVEL, parseLogLevel } from "../../lib/journal/level.ts";
import { parseMcpConfig } from "../../lib/mcp/config.ts";

/** Values one step outside `range`: below its least (when it has one) and above its greatest. */
function outside(range: NumberRange): number[] {
  const step = range.integer ? 1 : Math.max(0.5, range.max / 2);
  const out = [range.max + step];
  if (range.min !== -Infinity) out.push(range.minExclusive ? range.min : range.min - step);
  return out;
}

/** The ends of `range` that load (a positive amount's least is just above 0). */
function ends(range: NumberRange): number[] {
  const least = range.min === -Infinity
    ? -1_000
    : range.minExclusive
    ? range.min + (range.integer ? 1 : 0.001)
    : range.min;
  return [least, range.max];
}

/** The words of the range itself ("an integer from 1 to 1000"), without a unit or note. */
function bounds(range: NumberRange): string {
  return describeRange({ ...range, unit: undefined });
}

/** Whether `message` states `range`: its bounds and, when it has one, its unit. */
function states(message: string, range: NumberRange): boolean {
  return message.includes(bounds(range)) && (!range.unit || message.includes(range.unit));
}

function refusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail("no refusal");
}

async function refusalOf(run: () => Promise<unknown>): Promise<ConfigError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail("no refusal");
}

// The lenient one (as the Python harness is): out of range falls back, with a warning.
const LENIENT = new Set(["HARNESS_MCP_TIMEOUT"]);

for (const [name, range] of Object.entries(ENV_RANGES) as [string, NumberRange][]) {
  Deno.test(`ranges: ${name} loads from its least to its greatest, and refuses past either`, () => {
    for (const value of ends(range)) {
      const env = parseEnv({ [name]: String(value) });
      assert.deepEqual(env.warnings, [], `${name}=${value}`);
    }
    for (const value of outside(range)) {
      if (LENIENT.has(name)) {
        const env = parseEnv({ [name]: String(value) });
        assert.equal(env.mcpTimeoutSeconds, 20);
        assert.equal(env.warnings.length, 1);
        assert.ok(env.warnings[0].includes(name), env.warnings[0]);
        assert.ok(states(env.warnings[0], range), env.warnings[0]);
        continue;
      }
      const error = refusal(() => parseEnv({ [name]: String(value) }));
      assert.equal(error.issues.length, 1);
      assert.equal(error.issues[0].variable, name);
      assert.ok(error.message.startsWith(`${name} must be `), error.message);
      assert.ok(states(error.message, range), error.message);
      assert.ok(error.message.includes(`got '${value}'`), error.message);
    }
  });
}

Deno.test("ranges: a numeric HARNESS_LOG_LEVEL is a whole number up to 100", () => {
  assert.equal(parseLogLevel("0"), 0);
  assert.equal(parseLogLevel(String(MAX_LOG_LEVEL)), MAX_LOG_LEVEL);
  assert.throws(() => parseLogLevel("101"), /HARNESS_LOG_LEVEL .*whole number from 0 to 100/);
  assert.throws(() => parseLogLevel("9".repeat(400)), /HARNESS_LOG_LEVEL/);
});

/** One optional file: how a value of `key` is written into it, and the loader a wake uses. */
interface FileCase {
  readonly file: string;
  readonly ranges: Readonly<Record<string, NumberRange>>;
  /** The file's JSON with `key` set to `value` (and whatever else it needs to be valid). */
  readonly body: (key: string, value: number) => unknown;
  /** The dotted key the refusal names. */
  readonly named: (key: string) => string;
  readonly load: (configHome: string) => Promise<unknown>;
}

const FILES: readonly FileCase[] = [
  {
    file: "records.json",
    ranges: RECORDS_RANGES,
    body: (key, value) => ({ [key]: value }),
    named: (key) => key,
    load: loadRecordsConfig,
  },
  {
    file: "budget.json",
    ranges: BUDGET_RANGES,
    body: (key, value) => ({ [key]: value }),
    named: (key) => key,
    load: loadBudget,
  },
  {
    file: "prices.json",
    ranges: PRICE_RANGES,
    body: (key, value) => ({ "gpt-x": { input: 1, output: 2, [key]: value } }),
    named: (key) => `gpt-x.${key}`,
    load: loadPrices,
  },
  {
    file: "image_prep.json",
    ranges: IMAGE_PREP_RANGES,
    // The overlap must stay below the segment height: the tallest segment leaves room for both.
    body: (key, value) => ({
      "*": { segment_height: IMAGE_PREP_RANGES.segment_height.max, [key]: value },
    }),
    named: (key) => `*.${key}`,
    load: (home) => loadImagePrep(home, "gpt-x"),
  },
];

for (const c of FILES) {
  for (const [key, range] of Object.entries(c.ranges)) {
    Deno.test(`ranges: ${c.file} '${key}' loads within its range and refuses past it`, async () => {
      const home = await Deno.makeTempDir({ prefix: "ranges-" });
      try {
        const path = join(home, c.file);
        for (const value of ends(range)) {
          await Deno.writeTextFile(path, JSON.stringify(c.body(key, value)));
          await c.load(home);
        }
        for (const value of outside(range)) {
          await Deno.writeTextFile(path, JSON.stringify(c.body(key, value)));
          const error = await refusalOf(() => c.load(home));
          assert.equal(error.issues[0].variable, path);
          assert.ok(error.message.startsWith(`${path} key '${c.named(key)}'`), error.message);
          assert.ok(states(error.message, range), error.message);
        }
      } finally {
        await Deno.remove(home, { recursive: true });
      }
    });
  }
}

// An MCP drop-in is skipped (never a refused wake), its reason naming the key and the range.
Deno.test("ranges: mcp/<name>.json max_result_chars loads within its range, skips past it", () => {
  const range = MCP_RANGES.max_result_chars;
  const parse = (value: number) =>
    parseMcpConfig(
      "s",
      "mcp/s.json",
      JSON.stringify({ url: "https://x.test/mcp", max_result_chars: value }),
    );
  for (const value of ends(range)) {
    const config = parse(value);
    assert.ok(!("error" in config), JSON.stringify(config));
    assert.equal(config.maxResultChars, value);
  }
  for (const value of outside(range)) {
    assert.deepEqual(parse(value), {
      error: `max_result_chars: max_result_chars must be from ${range.min} to ${range.max}`,
    });
  }
});

Deno.test("ranges: guardrails.json max_length is 1 to 1000000 characters", async () => {
  const home = await Deno.makeTempDir({ prefix: "ranges-" });
  try {
    const path = join(home, "guardrails.json");
    for (const ok of [1, MAX_MAX_LENGTH]) {
      await Deno.writeTextFile(path, JSON.stringify({ max_length: ok }));
      assert.equal((await loadGuardrails(home)).maxLength, ok);
    }
    for (const bad of [0, MAX_MAX_LENGTH + 1]) {
      await Deno.writeTextFile(path, JSON.stringify({ max_length: bad }));
      await assert.rejects(() => loadGuardrails(home), (error: unknown) => {
        assert.ok(error instanceof GuardrailsError);
        assert.match(error.message, /max_length.*from 1 to 1000000/);
        return true;
      });
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
