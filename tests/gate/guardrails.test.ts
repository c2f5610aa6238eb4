/** guardrails.json: valid, absent, and malformed every way (each error names file, key, fix). */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import {
  DEFAULT_GUARDRAILS,
  GuardrailsError,
  loadGuardrails,
  parseGuardrails,
} from "../../lib/gate/mod.ts";

async function withHome(
  content: string | undefined,
  fn: (home: string, file: string) => Promise<void>,
): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "guardrails-" });
  const file = join(home, "guardrails.json");
  try {
    if (content !== undefined) await Deno.writeTextFile(file, content);
    await fn(home, file);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

async function loadError(content: string): Promise<GuardrailsError> {
  let caught: unknown;
  await withHome(content, async (home) => {
    try {
      await loadGuardrails(home);
    } catch (error) {
      caught = error;
    }
  });
  assert.ok(caught instanceof GuardrailsError, `expected GuardrailsError, got ${String(caught)}`);
  return caught;
}

Deno.test("guardrails: absent file ⇒ the defaults (10 000 chars, no patterns, secret guard on)", async () => {
  await withHome(undefined, async (home) => {
    const g = await loadGuardrails(home);
    assert.equal(g, DEFAULT_GUARDRAILS);
    assert.equal(g.maxLength, 10_000);
    assert.deepEqual(g.forbiddenPatterns, []);
    assert.equal(g.secretGuard, true);
    assert.equal(g.maxRefusalsPerTurn, 2);
  });
});

Deno.test("guardrails: a valid file is read, patterns compiled with their flags", async () => {
  const json = JSON.stringify({
    max_length: 500,
    forbidden_patterns: [
      { pattern: "\\bnightjar\\b", flags: "i", reason: "the codename is internal" },
      { pattern: "^DROP TABLE" },
    ],
    secret_guard: false,
    max_refusals_per_turn: 3,
  });
  await withHome(json, async (home, file) => {
    const g = await loadGuardrails(home);
    assert.equal(g.maxLength, 500);
    assert.equal(g.maxRefusalsPerTurn, 3);
    assert.equal(g.secretGuard, false);
    assert.equal(g.file, file);
    assert.equal(g.forbiddenPatterns.length, 2);
    assert.ok(g.forbiddenPatterns[0].regex.test("Project NIGHTJAR"));
    assert.equal(g.forbiddenPatterns[0].reason, "the codename is internal");
    assert.ok(!g.forbiddenPatterns[1].regex.test("drop table x"), "no i flag ⇒ case-sensitive");
  });
});

Deno.test("guardrails: every key is optional", () => {
  const g = parseGuardrails("{}", "/x/guardrails.json");
  assert.equal(g.maxLength, 10_000);
  assert.equal(g.secretGuard, true);
  assert.deepEqual(g.forbiddenPatterns, []);
  assert.equal(g.maxRefusalsPerTurn, 2);
});

const MALFORMED: Array<[string, string, string | undefined, RegExp]> = [
  ["bad JSON", '{"max_length": 10,}', undefined, /not valid JSON .*Fix: correct the syntax/],
  ["not an object", "[1, 2]", undefined, /one JSON object.*Fix: write an object/],
  ["max_length a string", '{"max_length": "big"}', "max_length", /Fix: set it to a whole number/],
  ["max_length fractional", '{"max_length": 12.5}', "max_length", /whole number/],
  ["max_length zero", '{"max_length": 0}', "max_length", /from 1 to 1000000/],
  ["secret_guard a string", '{"secret_guard": "yes"}', "secret_guard", /set it to true or false/],
  [
    "max_refusals_per_turn zero",
    '{"max_refusals_per_turn": 0}',
    "max_refusals_per_turn",
    /Fix: set it to a whole number from 1 to 10 \(default 2\)/,
  ],
  [
    "max_refusals_per_turn too many",
    '{"max_refusals_per_turn": 11}',
    "max_refusals_per_turn",
    /from 1 to 10/,
  ],
  [
    "max_refusals_per_turn fractional",
    '{"max_refusals_per_turn": 1.5}',
    "max_refusals_per_turn",
    /whole number/,
  ],
  [
    "unknown top-level key",
    '{"max_len": 5}',
    "max_len",
    /unknown key.*max_length, forbidden_patterns, secret_guard, max_refusals_per_turn and tone/,
  ],
  ["patterns not a list", '{"forbidden_patterns": "x"}', "forbidden_patterns", /list of objects/],
  [
    "pattern missing",
    '{"forbidden_patterns": [{"reason": "r"}]}',
    "forbidden_patterns[0].pattern",
    /the key is missing.*regular expression/,
  ],
  [
    "invalid regex",
    '{"forbidden_patterns": [{"pattern": "ok"}, {"pattern": "(unclosed"}]}',
    "forbidden_patterns[1].pattern",
    /not a valid regular expression \(.*\)\. Fix: give a non-empty JavaScript regular/,
  ],
  [
    "bad flags",
    '{"forbidden_patterns": [{"pattern": "x", "flags": "g"}]}',
    "forbidden_patterns[0].flags",
    /letters i, m, s, u/,
  ],
  [
    "repeated flag",
    '{"forbidden_patterns": [{"pattern": "x", "flags": "ii"}]}',
    "forbidden_patterns[0].flags",
    /at most once/,
  ],
  [
    "unknown entry key",
    '{"forbidden_patterns": [{"pattern": "x", "flag": "i"}]}',
    "forbidden_patterns[0].flag",
    /unknown key.*pattern, flags and reason/,
  ],
  [
    "empty reason",
    '{"forbidden_patterns": [{"pattern": "x", "reason": "  "}]}',
    "forbidden_patterns[0].reason",
    /short non-empty sentence/,
  ],
];

for (const [label, content, key, text] of MALFORMED) {
  Deno.test(`guardrails: malformed (${label}) refuses to load, naming file and key`, async () => {
    const error = await loadError(content);
    assert.match(error.file, /guardrails\.json$/);
    assert.equal(error.key, key);
    assert.ok(error.message.startsWith(`Guardrails file ${error.file} is invalid`), error.message);
    if (key !== undefined) assert.ok(error.message.includes(`at '${key}'`), error.message);
    assert.match(error.message, text);
  });
}

Deno.test("guardrails: an unreadable path (a directory) is an error naming the file", async () => {
  const home = await Deno.makeTempDir({ prefix: "guardrails-" });
  try {
    await Deno.mkdir(join(home, "guardrails.json"));
    const error = await loadGuardrails(home).then(() => undefined, (e) => e);
    assert.ok(error instanceof GuardrailsError);
    assert.match(error.message, /guardrails\.json is invalid: it could not be read/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
