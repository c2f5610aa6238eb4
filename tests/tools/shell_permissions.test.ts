/**
 * The second lock of invariant 7 (docs/invariants.md#7-safe-by-default-enforced-twice): a process
 * without Deno's run permission cannot spawn, and the shell tool turns Deno's NotCapable into an
 * error text the model can read instead of crashing. Each case is its own process, since permission
 * state is per process.
 */
import assert from "node:assert/strict";
import { RUN_NOT_PERMITTED } from "../../lib/tools/shell/tool.ts";
import { runChild, WITH_RUN, WITHOUT_RUN } from "./fixtures/shell_support.ts";

const call = { command: "echo should-not-run" };

function assertRefused(result: string): void {
  assert.ok(result.startsWith(`${RUN_NOT_PERMITTED} `), result);
  assert.match(result, /Requires run access to "\/bin\/bash"/);
  assert.doesNotMatch(result, /should-not-run\n/);
}

Deno.test("shell permissions: launched without --allow-run, a call returns the error text", async () => {
  const report = await runChild(WITHOUT_RUN, { call, direct: true });
  assert.notEqual(report.runPermission, "granted");
  assertRefused(report.result);
  assert.deepEqual(report.direct, { name: "NotCapable", notCapable: true });
});

Deno.test("shell permissions: run revoked at start-up (the locked profile's way)", async () => {
  const report = await runChild(["-A"], { call, direct: true, revoke: true });
  assert.notEqual(report.runPermission, "granted");
  assertRefused(report.result);
  assert.deepEqual(report.direct, { name: "NotCapable", notCapable: true });
});

Deno.test("shell permissions: control — with run granted the same call runs", async () => {
  const report = await runChild(WITH_RUN, { call, direct: true });
  assert.equal(report.runPermission, "granted");
  assert.equal(report.result, "should-not-run\n[exit code: 0]");
  assert.deepEqual(report.direct, { name: "none", notCapable: false });
});
