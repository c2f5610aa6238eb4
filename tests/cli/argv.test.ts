import assert from "node:assert/strict";
import { ArgvError, parseArgv } from "../../lib/cli/argv.ts";

const options = {
  timeline: { type: "string" },
  "opt-in": { type: "list" },
  json: { type: "boolean" },
  "resolved-config": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

Deno.test("argv: string options by space and by '=', booleans, positionals", () => {
  const parsed = parseArgv(["status", "--timeline", "abc", "--json", "tail"], options);
  assert.deepEqual(parsed.values, { timeline: "abc", json: true });
  assert.deepEqual(parsed.positionals, ["status", "tail"]);
  assert.deepEqual(parseArgv(["--timeline=a=b"], options).values, { timeline: "a=b" });
  assert.deepEqual(parseArgv(["--timeline="], options).values, { timeline: "" });
  assert.deepEqual(parseArgv(["--resolved-config"], options).values, { "resolved-config": true });
});

Deno.test("argv: the last occurrence of an option wins; -h is --help", () => {
  assert.deepEqual(parseArgv(["--timeline", "a", "--timeline=b"], options).values, {
    timeline: "b",
  });
  assert.deepEqual(parseArgv(["-h"], options).values, { help: true });
});

Deno.test("argv: '--' ends the options and '-' alone is a positional", () => {
  const parsed = parseArgv(["--json", "--", "--timeline", "-h"], options);
  assert.deepEqual(parsed.values, { json: true });
  assert.deepEqual(parsed.positionals, ["--timeline", "-h"]);
  assert.deepEqual(parseArgv(["-"], options).positionals, ["-"]);
  assert.deepEqual(parseArgv(["--timeline", "-"], options).values, { timeline: "-" });
});

Deno.test("argv: an unknown long or short option is refused by name", () => {
  assert.throws(() => parseArgv(["--bogus"], options), (e: unknown) => {
    assert.ok(e instanceof ArgvError);
    assert.match(e.message, /unknown option '--bogus'/);
    return true;
  });
  assert.throws(() => parseArgv(["--bogus=1"], options), /unknown option '--bogus'/);
  assert.throws(() => parseArgv(["-x"], options), /unknown option '-x'/);
  assert.throws(() => parseArgv(["-hx"], options), /unknown option '-hx'/);
  // Inherited object keys are not options.
  assert.throws(() => parseArgv(["--constructor"], options), /unknown option '--constructor'/);
  assert.throws(() => parseArgv(["--toString=1"], options), /unknown option '--toString'/);
});

Deno.test("argv: a string option with no value, or followed by a flag, is refused", () => {
  assert.throws(() => parseArgv(["--timeline"], options), /'--timeline <value>' needs a value/);
  assert.throws(
    () => parseArgv(["--timeline", "--json"], options),
    /'--timeline <value>' needs a value/,
  );
  // The '=' form carries a value that starts with '-'.
  assert.deepEqual(parseArgv(["--timeline=-x"], options).values, { timeline: "-x" });
});

Deno.test("argv: a boolean option given a value is refused", () => {
  assert.throws(() => parseArgv(["--json=yes"], options), /option '--json' takes no value/);
  assert.throws(() => parseArgv(["--help=3"], options), /option '--help' takes no value/);
});

Deno.test("argv: nothing given parses to nothing", () => {
  assert.deepEqual(parseArgv([], options), { values: {}, positionals: [] });
});

Deno.test("argv: a list option accumulates every occurrence's comma-separated items", () => {
  assert.deepEqual(
    parseArgv(["--opt-in", "shell", "--opt-in=web_fetch,system_prompt", "--opt-in", "x"], options)
      .values,
    { "opt-in": ["shell", "web_fetch", "system_prompt", "x"] },
  );
  assert.deepEqual(parseArgv(["--opt-in="], options).values, { "opt-in": [""] });
  assert.throws(() => parseArgv(["--opt-in"], options), /'--opt-in <value>' needs a value/);
});
