/**
 * `prices.json` and the built-in Claude prices (docs/configuration.md#pricesjson): the file's
 * entries first, then the dated built-in table by model alias; `cache_write` and `cached`
 * default to `input` in the file, and are 1.25× and 0.1× input in the table.
 */
import assert from "node:assert/strict";
import { builtInPriceTable, loadPrices, resolvePrices } from "../../lib/config/prices.ts";
import { BUILT_IN_PRICES_AS_OF, builtInPrice } from "../../lib/config/default_prices.ts";
import { ConfigError } from "../../lib/config/errors.ts";

Deno.test("prices: a file entry with cache_write; omitted rates default to input", () => {
  const table = resolvePrices({
    "m-1": { input: 2, cached: 0.2, cache_write: 2.5, output: 8 },
    "m-2": { input: 1, output: 4 },
  });
  assert.deepEqual(table.get("m-1"), { input: 2, cached: 0.2, cacheWrite: 2.5, output: 8 });
  assert.deepEqual(table.get("m-2"), { input: 1, cached: 1, cacheWrite: 1, output: 4 });
  assert.equal(table.get("m-3"), undefined);
  assert.throws(
    () => resolvePrices({ "m-1": { input: 1, output: 1, cache_writes: 1 } }),
    (e: unknown) =>
      e instanceof ConfigError &&
      /'m-1.cache_writes'.*optionally "cached" and "cache_write"/.test(e.message),
  );
});

Deno.test("prices: Claude models fall back to the dated built-in table, the file wins", () => {
  assert.match(BUILT_IN_PRICES_AS_OF, /^\d{4}-\d{2}$/);
  const sonnet = { input: 3, cached: 0.3, cacheWrite: 3.75, output: 15 };
  assert.deepEqual(builtInPrice("claude-sonnet-4-5"), sonnet);
  assert.deepEqual(builtInPrice("claude-sonnet-4-5-20250929"), sonnet);
  assert.deepEqual(builtInPrice("claude-3-5-haiku-latest"), {
    input: 0.8,
    cached: 0.08,
    cacheWrite: 1,
    output: 4,
  });
  for (const unknown of ["gpt-5.1", "constructor", "claude-sonnet-4-5-x", "toString"]) {
    assert.equal(builtInPrice(unknown), undefined, unknown);
  }
  assert.deepEqual(builtInPriceTable().get("claude-haiku-4-5"), builtInPrice("claude-haiku-4-5"));
  const table = resolvePrices({ "claude-haiku-4-5": { input: 9, output: 9 } });
  assert.equal(table.get("claude-haiku-4-5")?.input, 9);
  assert.deepEqual(table.get("claude-opus-4-1"), builtInPrice("claude-opus-4-1"));
});

Deno.test("prices: a config home without prices.json still prices Claude turns", async () => {
  const home = await Deno.makeTempDir({ prefix: "prices-" });
  try {
    const table = await loadPrices(home);
    assert.equal(table.size, 0);
    assert.equal(table.get("claude-opus-4-5")?.output, 25);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
