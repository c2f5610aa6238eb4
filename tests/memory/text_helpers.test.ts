import assert from "node:assert/strict";
import { ftsMatchExpression, splitTerms } from "../../lib/memory/fts_query.ts";
import { pyRepr } from "../../lib/pycompat/repr.ts";
import { pythonIsoUtc } from "../../lib/memory/timestamp.ts";

Deno.test("pyRepr quotes as CPython's repr does", () => {
  const cases: [string, string][] = [
    ["home_city", "'home_city'"],
    ["", "''"],
    ["it's", `"it's"`],
    [`say "hi"`, `'say "hi"'`],
    [`it's "x"`, `'it\\'s "x"'`],
    ["back\\slash", "'back\\\\slash'"],
    ["tab\tnew\nret\r", "'tab\\tnew\\nret\\r'"],
    ["\x00\x1f\x7f", "'\\x00\\x1f\\x7f'"],
    ["\x85\xa0", "'\\x85\\xa0'"],
    ["café ☕ 日本", "'café ☕ 日本'"],
    ["\u2028\u200b", "'\\u2028\\u200b'"],
    ["😀", "'😀'"],
    ["\u{e0001}", "'\\U000e0001'"],
  ];
  for (const [input, expected] of cases) {
    assert.equal(pyRepr(input), expected, JSON.stringify(input));
  }
});

Deno.test("ftsMatchExpression quotes every term and OR-joins them", () => {
  assert.equal(ftsMatchExpression("texas"), '"texas"');
  assert.equal(ftsMatchExpression("  dallas   texas\n"), '"dallas" OR "texas"');
  assert.equal(
    ftsMatchExpression('say "hi" AND (x*) -y key:z'),
    '"say" OR """hi""" OR "AND" OR "(x*)" OR "-y" OR "key:z"',
  );
  assert.equal(ftsMatchExpression("   "), "");
  assert.deepEqual(splitTerms("a\tb\u3000c"), ["a", "b", "c"]);
});

Deno.test("pythonIsoUtc has the shape of datetime.now(timezone.utc).isoformat()", () => {
  assert.equal(
    pythonIsoUtc(new Date("2026-08-18T12:00:00.123Z")),
    "2026-08-18T12:00:00.123000+00:00",
  );
  assert.equal(
    pythonIsoUtc(new Date("2026-08-18T12:00:00.007Z")),
    "2026-08-18T12:00:00.007000+00:00",
  );
  // Python omits a zero microsecond field entirely.
  assert.equal(pythonIsoUtc(new Date("2026-08-18T12:00:00.000Z")), "2026-08-18T12:00:00+00:00");
  assert.match(pythonIsoUtc(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
});
