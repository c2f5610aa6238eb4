/**
 * The command-line conventions every command shares, as an operator meets them in a real
 * process: a misspelt opt-in stem fails in install and resolve alike, and a misspelt
 * HARNESS_PROFILE is said (and still runs locked).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";

Deno.test("a misspelt opt-in stem exits 1 in install and in resolve, naming the nearest stem", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conventions-" });
  try {
    const install = await runCli(["install", "--config-home", `${dir}/c`, "--opt-in", "shel"]);
    const resolve = await runCli(["resolve", "--opt-in", "shel"]);
    for (const [name, result] of [["install", install], ["resolve", resolve]] as const) {
      assert.equal(result.code, 1, name);
      assert.equal(result.stdout, "", name);
      assert.match(
        result.stderr,
        new RegExp(
          `^harness ${name}: No shipped tool plugin is named: shel\\. Did you mean 'shell' for 'shel'\\?`,
        ),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a misspelt HARNESS_PROFILE is one WARNING naming the value and the valid ones; still locked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "conventions-" });
  try {
    const result = await runCli(["resolved-config", "--config-home", `${dir}/c`], {
      env: { HARNESS_PROFILE: "unlockd", HARNESS_HOME: dir },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).active_profile, "locked");
    assert.equal(
      result.stderr,
      "WARNING HARNESS_PROFILE='unlockd' is neither 'locked' nor 'unlocked'; running locked " +
        "(fail-closed). Did you mean 'unlocked'?\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
