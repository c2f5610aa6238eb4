/**
 * Colour (docs/journal.md#colour), the fleet's rule as the Python harness 0.104 has it: verdict
 * heads and the `outcome=` pair are coloured wherever the lines go — journald included, whose
 * stream is no terminal — unless `NO_COLOR` is set (or `FORCE_COLOR` is `0`/`false`). The
 * decision is a pure function; a real wake whose stderr is a pipe, as journald's stream socket
 * is, proves it end to end.
 */
import assert from "node:assert/strict";
import { colorEnabled, StreamJournal } from "../../lib/journal/mod.ts";
import { runCli } from "../support/run_cli.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("colour is on unless NO_COLOR (or FORCE_COLOR=0/false) says otherwise", () => {
  assert.equal(colorEnabled(env({})), true);
  assert.equal(colorEnabled(env({ NO_COLOR: "1" })), false);
  assert.equal(colorEnabled(env({ NO_COLOR: "" })), true, "empty NO_COLOR is unset");
  assert.equal(colorEnabled(env({ FORCE_COLOR: "1" })), true);
  assert.equal(colorEnabled(env({ FORCE_COLOR: "0" })), false);
  assert.equal(colorEnabled(env({ FORCE_COLOR: " FALSE " })), false);
  assert.equal(colorEnabled(env({ FORCE_COLOR: "" })), true, "empty FORCE_COLOR is unset");
  assert.equal(colorEnabled(env({ NO_COLOR: "1", FORCE_COLOR: "1" })), false, "NO_COLOR wins");
  const denied = () => {
    throw new Error("denied");
  };
  assert.equal(colorEnabled(denied), true, "a denied env read counts as unset");
});

Deno.test("a journal to any sink colours its verdict heads; NO_COLOR takes them back to plain bytes", () => {
  const lines: string[] = [];
  const coloured = new StreamJournal({ sink: (l) => lines.push(l), env: env({}) });
  coloured.event("INFO", "wake start", { timeline: "t" }, { color: "green" });
  const plain = new StreamJournal({ sink: (l) => lines.push(l), env: env({ NO_COLOR: "1" }) });
  plain.event("INFO", "wake start", { timeline: "t" }, { color: "green" });
  assert.deepEqual(lines, [
    "INFO \x1b[32mwake start\x1b[0m timeline=t",
    "INFO wake start timeline=t",
  ]);
});

// `wake failed` is a red verdict head: the line that carries an escape when colour is on.
const FAILING = ["wake", "--timeline", "8c0d0f5e-2b64-4d8e-9a35-4a6b9f7e1c21"];

Deno.test("a real wake whose stderr is no terminal (a pipe, as journald's stream is) colours its verdict", async () => {
  const result = await runCli(FAILING, { env: { NO_COLOR: "", HARNESS_HOME: "" } });
  assert.equal(result.code, 1);
  assert.ok(result.stderr.includes("ERROR \x1b[31mwake failed\x1b[0m timeline="), result.stderr);
  // A whole token is wrapped, never part of one: a search across the head's reset still finds it.
  assert.match(result.stderr, /wake failed.*timeline=8c0d0f5e/);
  // The one stderr line for the router's detail stays plain: it is no verdict head.
  assert.match(result.stderr, /^ERROR harness wake: HARNESS_HOME is required/m);
});

Deno.test("NO_COLOR, or FORCE_COLOR=0, takes a piped wake back to plain bytes", async () => {
  const settings: Record<string, string>[] = [{ NO_COLOR: "1" }, {
    NO_COLOR: "",
    FORCE_COLOR: "0",
  }];
  for (const vars of settings) {
    const result = await runCli(FAILING, { env: { ...vars, HARNESS_HOME: "" } });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^ERROR wake failed timeline=/m);
    assert.ok(!result.stderr.includes("\x1b"), JSON.stringify(result.stderr));
  }
});
