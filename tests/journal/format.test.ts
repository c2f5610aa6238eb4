import { strictEqual } from "node:assert/strict";
import { codePoints, formatCost, formatDuration } from "../../lib/journal/mod.ts";

Deno.test("durations: two decimals and an s", () => {
  strictEqual(formatDuration(3.41), "3.41s");
  strictEqual(formatDuration(0), "0.00s");
  strictEqual(formatDuration(6.125001), "6.13s");
  strictEqual(formatDuration(12), "12.00s");
  strictEqual(formatDuration(0.004), "0.00s");
});

Deno.test("durations round an exact tie to even, as the reference does", () => {
  strictEqual(formatDuration(0.125), "0.12s");
  strictEqual(formatDuration(0.375), "0.38s");
  strictEqual(formatDuration(2.625), "2.62s");
  // 2.675 is really 2.67499999…, so it is not a tie.
  strictEqual(formatDuration(2.675), "2.67s");
});

Deno.test("cost: 8 decimals, trailing zeros and dot stripped", () => {
  strictEqual(formatCost(0.0445), "0.0445");
  strictEqual(formatCost(2.1), "2.1");
  strictEqual(formatCost(0), "0");
  strictEqual(formatCost(-0), "0");
  strictEqual(formatCost(10), "10");
  // The binary values sit just below the half, as Python also sees them.
  strictEqual(formatCost(0.000012345), "0.00001234");
  strictEqual(formatCost(4.45e-7), "0.00000044");
  strictEqual(formatCost(1e-9), "0");
  // 2^-9 = 0.001953125 is an exact tie at 8 decimals: half-even keeps the 2.
  strictEqual(formatCost(0.001953125), "0.00195312");
});

Deno.test("cost is omitted for non-numeric, negative or non-finite values", () => {
  for (const bad of [undefined, null, "0.1", true, -0.01, NaN, Infinity, -Infinity, {}]) {
    strictEqual(formatCost(bad), undefined, String(bad));
  }
});

Deno.test("chars count code points", () => {
  strictEqual(codePoints("héllo"), 5);
  strictEqual(codePoints("😀漢"), 2);
  strictEqual(codePoints(""), 0);
});
