/**
 * `deno task check` runs the doc lint, and the doc lint covers exactly the modules deno.json
 * publishes: an entry point added to "exports" without being added to `check:doc` (or the reverse)
 * fails here, so the lint cannot silently skip part of the public API. Reads deno.json only.
 */
import { strict as assert } from "node:assert";
import { REPO_ROOT } from "../support/run_cli.ts";

interface DenoJson {
  exports: Record<string, string>;
  tasks: Record<string, { command: string }>;
}

const config: DenoJson = JSON.parse(Deno.readTextFileSync(`${REPO_ROOT}deno.json`));

Deno.test("deno task check ends with the doc lint", () => {
  assert.match(config.tasks.check.command, /&& deno task check:doc$/);
  assert.match(config.tasks["check:doc"].command, /^deno doc --lint /);
});

Deno.test("the doc lint covers every entry point in exports, and nothing else", () => {
  const linted = config.tasks["check:doc"].command.split(/\s+/).filter((word) =>
    word.endsWith(".ts")
  );
  const published = Object.values(config.exports).map((path) => path.replace(/^\.\//, ""));
  assert.ok(published.length > 1, "deno.json publishes entry points");
  assert.deepEqual([...linted].sort(), [...published].sort());
});
