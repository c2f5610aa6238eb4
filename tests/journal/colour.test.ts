/**
 * Colour (docs/journal.md#colour): only when the stream is a terminal, `NO_COLOR` turns it off,
 * `FORCE_COLOR` on. The decision is a pure function; a real process whose stderr is a pipe (as
 * journald's is) writes no escape byte.
 */
import assert from "node:assert/strict";
import { colorEnabled, StreamJournal } from "../../lib/journal/mod.ts";
import { runCli } from "../support/run_cli.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("colour follows the terminal unless NO_COLOR or FORCE_COLOR says otherwise", () => {
  assert.equal(colorEnabled(env({}), true), true);
  assert.equal(colorEnabled(env({}), false), false);
  assert.equal(colorEnabled(env({ NO_COLOR: "1" }), true), false);
  assert.equal(colorEnabled(env({ NO_COLOR: "" }), false), false, "empty NO_COLOR is unset");
  assert.equal(colorEnabled(env({ FORCE_COLOR: "1" }), false), true);
  assert.equal(colorEnabled(env({ FORCE_COLOR: "true" }), false), true);
  assert.equal(colorEnabled(env({ FORCE_COLOR: "0" }), true), false);
  assert.equal(colorEnabled(env({ FORCE_COLOR: "false" }), true), false);
  assert.equal(colorEnabled(env({ FORCE_COLOR: "" }), false), false, "empty FORCE_COLOR is unset");
  assert.equal(
    colorEnabled(env({ NO_COLOR: "1", FORCE_COLOR: "1" }), true),
    false,
    "NO_COLOR wins",
  );
  const denied = () => {
    throw new Error("denied");
  };
  assert.equal(colorEnabled(denied, true), true, "a denied env read counts as unset");
  assert.equal(colorEnabled(denied, false), false);
});

Deno.test("a journal told its stream is no terminal writes plain heads; FORCE_COLOR colours them", () => {
  const lines: string[] = [];
  const plain = new StreamJournal({ sink: (l) => lines.push(l), terminal: false, env: env({}) });
  plain.event("INFO", "wake start", { timeline: "t" }, { color: "green" });
  const forced = new StreamJournal({
    sink: (l) => lines.push(l),
    terminal: false,
    env: env({ FORCE_COLOR: "1" }),
  });
  forced.event("INFO", "wake start", { timeline: "t" }, { color: "green" });
  assert.deepEqual(lines, [
    "INFO wake start timeline=t",
    "INFO \x1b[32mwake start\x1b[0m timeline=t",
  ]);
});

// `wake failed` is a red verdict head: the line that would carry an escape if colour were on.
const FAILING = ["wake", "--timeline", "8c0d0f5e-2b64-4d8e-9a35-4a6b9f7e1c21"];

Deno.test("a real wake whose stderr is a pipe writes no escape byte, even without NO_COLOR", async () => {
  const result = await runCli(FAILING, { env: { NO_COLOR: "", HARNESS_HOME: "" } });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^ERROR wake failed timeline=/m);
  assert.ok(!result.stderr.includes("\x1b"), JSON.stringify(result.stderr));
});

Deno.test("FORCE_COLOR=1 colours a piped wake's verdict heads", async () => {
  const result = await runCli(FAILING, {
    env: { NO_COLOR: "", FORCE_COLOR: "1", HARNESS_HOME: "" },
  });
  assert.equal(result.code, 1);
  assert.ok(result.stderr.includes("ERROR \x1b[31mwake failed\x1b[0m timeline="), result.stderr);
});
