/** `activate_at` normalisation: the exact timestamp the tasks tool sends to the platform. */
import { strict as assert } from "node:assert";
import { normalizeActivateAt } from "../../lib/tools/shared/activate_at.ts";
import { ToolRefusal } from "../../lib/tools/shared/relay.ts";

const NOW = Date.parse("2030-01-01T00:00:00Z");

Deno.test("activate_at: relative offsets in every unit, from the injected clock, as +00:00", () => {
  const cases: Array<[string, string]> = [
    ["+30s", "2030-01-01T00:00:30+00:00"],
    ["+90m", "2030-01-01T01:30:00+00:00"],
    ["+2h", "2030-01-01T02:00:00+00:00"],
    ["+1d", "2030-01-02T00:00:00+00:00"],
    ["+1w", "2030-01-08T00:00:00+00:00"],
    [" + 2 H ", "2030-01-01T02:00:00+00:00"],
  ];
  for (const [given, expected] of cases) {
    assert.equal(normalizeActivateAt(given, () => NOW), expected, given);
  }
  assert.equal(normalizeActivateAt("+1m", () => NOW + 123), "2030-01-01T00:01:00.123000+00:00");
});

Deno.test("activate_at: ISO timestamps keep their offset; zoneless and date-only read as UTC", () => {
  const cases: Array<[string, string]> = [
    ["2031-06-10T15:00:00Z", "2031-06-10T15:00:00+00:00"],
    ["2031-06-10T17:00:00+02:00", "2031-06-10T17:00:00+02:00"],
    ["2031-06-10T10:00:00-0530", "2031-06-10T10:00:00-05:30"],
    ["2031-06-10T15:00:00", "2031-06-10T15:00:00+00:00"],
    ["2031-06-10 15:00", "2031-06-10T15:00:00+00:00"],
    ["2031-06-10T15:00:00.5Z", "2031-06-10T15:00:00.500000+00:00"],
    ["2031-06-10", "2031-06-10T00:00:00+00:00"],
  ];
  for (const [given, expected] of cases) {
    assert.equal(normalizeActivateAt(given, () => NOW), expected, given);
  }
});

Deno.test("activate_at: anything else is a readable refusal", () => {
  for (const bad of ["tomorrow", "+3x", "2031-02-30T00:00:00Z", "2031-06-10T25:00:00Z", "", "+"]) {
    assert.throws(() => normalizeActivateAt(bad, () => NOW), ToolRefusal, bad);
  }
});
