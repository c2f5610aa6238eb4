/**
 * deploy/agent.env.example documents every variable the harness reads: the env schema
 * (lib/config/env.ts) is the list, so a new variable cannot be added without its line here.
 */
import assert from "node:assert/strict";
import { ENV_VARIABLES, parseEnv } from "../../lib/config/env.ts";
import { REPO_ROOT } from "../support/run_cli.ts";

const text = await Deno.readTextFile(`${REPO_ROOT}deploy/agent.env.example`);

/** `NAME=value` for each assignment line, commented out (`#NAME=`) or not. */
function assignments(): Map<string, { value: string; active: boolean }> {
  const found = new Map<string, { value: string; active: boolean }>();
  for (const line of text.split("\n")) {
    const match = /^(#)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) found.set(match[2], { value: match[3], active: !match[1] });
  }
  return found;
}

Deno.test("every variable of the env schema has a line in agent.env.example", () => {
  const lines = assignments();
  const missing = ENV_VARIABLES.filter((name) => !lines.has(name));
  assert.deepEqual(missing, [], "add these to deploy/agent.env.example");
  // Nothing in it that the harness (or Deno's OpenTelemetry export) does not read.
  const extra = [...lines.keys()].filter(
    (name) => !ENV_VARIABLES.includes(name) && !name.startsWith("OTEL_"),
  );
  assert.deepEqual(extra, []);
});

Deno.test("the example's active lines parse as a valid environment, in the plain KEY=VALUE form", () => {
  const active = Object.fromEntries(
    [...assignments()].filter(([, v]) => v.active).map(([name, v]) => [name, v.value]),
  );
  for (const value of Object.values(active)) {
    assert.doesNotMatch(value, /^["']|\$\{?[A-Z]/, "no quotes or expansions: read literally");
  }
  assert.ok(!/^export /m.test(text));
  const env = parseEnv(active);
  assert.equal(env.aiProvider, "openai");
  assert.equal(env.harnessHome, "/home/agent/harness");
  // Each commented default parses too, so uncommenting one line never breaks a box.
  const commented = Object.fromEntries(
    [...assignments()].filter(([n, v]) => !v.active && v.value !== "" && !n.startsWith("OTEL_"))
      .map(([name, v]) => [name, v.value]),
  );
  parseEnv({ ...active, ...commented });
});
